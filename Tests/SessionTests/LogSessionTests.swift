import Foundation
import HeadingLog
import Platform
@testable import Session
import Testing
import TestSupport

/// `log` sessions in simulated time: the schedule, the duration, a stop signal, rotation.
@Suite("log session on a manual clock")
struct LogSessionTests {
    func request(_ path: String, rate: Double, duration: Double? = nil, rotation: LogRotation = .none) -> LogRequest {
        LogRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none, distanceFilter: 0),
                   file: LogSession.Options(path: path, rotation: rotation), rate: rate, duration: duration)
    }

    @Test("--duration 1 at 20 rows/s: one row per 50 ms slot, then it stops by itself")
    func duration() throws {
        let h = try SessionHarness("log-duration")
        let path = h.path("d.csv")
        #expect(try LogRecording.run(request(path, rate: 20, duration: 1), runtime: h.runtime("log")) == .success)
        let check = LogCheck(path: path)
        #expect(check.problems.isEmpty, "\(check.problems.prefix(3))")
        #expect(check.rows.count == 20, "\(check.rows.count) rows")
        let times = try #require(check.runs.first)
        let intervals = zip(times, times.dropFirst()).map { $1 - $0 }
        // log reads the chip at 50 Hz (SensorSelection.serviceSampleRate): a row is the first sample at or after its slot.
        let samplePeriod = 1 / SensorSelection.serviceSampleRate
        #expect(intervals.allSatisfy { abs($0 - 0.05) <= samplePeriod + 0.001 }, "50 ms apart (to a sample period): \(intervals)")
        #expect(abs((times.last! - times.first!) / Double(intervals.count) - 0.05) < 0.002, "50 ms apart on average: \(intervals)")
        #expect(h.clock.now() >= 0.95 && h.clock.now() < 1.05, "stopped after its second: \(h.clock.now())")
        #expect(h.diagnostics.text.contains("20 rows written to \(path)"), "\(h.diagnostics.text)")
    }

    @Test("SIGTERM: flushed, closed, exit 0, every row whole, a heading on every row")
    func stopSignal() throws {
        let h = try SessionHarness("log-stop")
        h.events.schedule(.stop, at: 1.5)
        let path = h.path("term.csv")
        #expect(try LogRecording.run(request(path, rate: 50), runtime: h.runtime("log")) == .success)
        let check = LogCheck(path: path)
        #expect(check.problems.isEmpty, "\(check.problems.prefix(3))")
        #expect((74...76).contains(check.rows.count), "\(check.rows.count) rows in 1.5 s at 50 Hz")
        #expect(h.diagnostics.text.contains("\(check.rows.count) rows written"))
        #expect(check.rows.allSatisfy { Double($0[12]).map { $0 >= 0 && $0 < 360 } == true }, "a heading on every row")
        #expect(check.rows.allSatisfy { $0[18].isEmpty }, "no GNSS columns with gnss: .none")
    }

    @Test("--rotate daily: FILE-YYYYMMDD.csv for the UTC day of the session's wall clock")
    func rotateDaily() throws {
        let h = try SessionHarness("log-daily")
        let base = h.path("day.csv")
        #expect(try LogRecording.run(request(base, rate: 10, duration: 0.5, rotation: .daily), runtime: h.runtime("log")) == .success)
        // The harness's wall clock starts at 1_795_000_000 s: 2026-11-18 UTC.
        let expected = h.path("day-20261118.csv")
        let check = LogCheck(path: expected)
        #expect(check.problems.isEmpty, "\(check.problems)")
        #expect(check.rows.count == 5)
        #expect(check.rows.first?[0].hasPrefix("2026-11-18T") == true)
        #expect(!FileManager.default.fileExists(atPath: base))
    }

    @Test("with the simulated receiver: positions and legs on the rows")
    func withGNSS() throws {
        let h = try SessionHarness("log-gnss")
        let path = h.path("g.csv")
        var r = request(path, rate: 5, duration: 4)
        r.live.gnss = .automatic
        _ = try LogRecording.run(r, runtime: h.runtime("log"))
        let check = LogCheck(path: path)
        #expect(check.problems.isEmpty)
        #expect(check.rows.count == 20)
        let withFix = check.rows.filter { !$0[19].isEmpty }
        #expect(withFix.count >= 14, "the receiver's first fix comes within the first second: \(withFix.count)")
        #expect(check.rows.filter { !$0[25].isEmpty }.count >= 2, "legs between fixes")
        // The estimate on the row that brings the first fix was made before it; from then on the
        // declination comes from the fix.
        #expect(withFix.dropFirst().allSatisfy { $0[14] == "wmm" }, "\(withFix.map { $0[14] })")
    }

    @Test("analyze summarises a simulated log: every row, the heading, no fixes")
    func analyzeASimulatedLog() throws {
        let h = try SessionHarness("log-analyze")
        let path = h.path("sim.csv")
        _ = try LogRecording.run(request(path, rate: 20, duration: 1), runtime: h.runtime("log"))
        let a = try SessionHarness("analyze")
        #expect(try LogAnalysisQuery(path: path).run(runtime: a.runtime("analyze")) == .success)
        let text = a.output.text
        #expect(text.contains("rows       20"), "\(text)")
        #expect(text.contains("heading    magnetic, 20 rows: mean "), "\(text)")
        #expect(text.contains("GNSS       no fixes"))
        #expect(!text.contains("nan"))
    }

    @Test("analyze refuses to write its plot over the log")
    func analyzeRefusesToOverwriteTheLog() throws {
        let h = try SessionHarness("analyze-same")
        let path = h.path("sim.csv")
        _ = try LogRecording.run(request(path, rate: 10, duration: 0.3), runtime: h.runtime("log"))
        let before = try String(contentsOfFile: path, encoding: .utf8)
        #expect(throws: InvalidRequest.self) { try LogAnalysisQuery(path: path, svgPath: path).run(runtime: h.runtime("analyze")) }
        let out = h.path("out")
        #expect(throws: InvalidRequest.self) {
            try LogAnalysisQuery(path: path, svgPath: out, gpxPath: out).run(runtime: h.runtime("analyze"))
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
    }
}

/// `log` into a pipe: the reader going away ends the run with a write error, never a hang.
@Suite("log into a FIFO")
struct LogIntoAFIFOTests {
    @Test("a FIFO whose reader reads the header and a row, then closes: exit 74, promptly")
    func readerGoesAway() throws {
        signal(SIGPIPE, SIG_IGN)   // as SignalWatcher does in the real process
        let h = try SessionHarness("log-fifo")
        let path = h.path("rows.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        // When (on the session's clock) the reader closed: a real thread, scheduled as the machine
        // pleases, so the bound below counts from it, not from the start.
        let closedAt = LockedValue(Double.infinity)
        let clock = h.clock
        let reader = Thread {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = read(fd, &buffer, buffer.count)
            close(fd)
            closedAt.set(clock.now())
        }
        reader.start()
        let request = LogRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none, distanceFilter: 0),
                                 file: .init(path: path), rate: 10)
        do {
            _ = try LogRecording.run(request, runtime: h.runtime("log"))
            Issue.record("the log ran on after its reader had gone")
        } catch let error as any UserFacingError {
            #expect(error.exitCode == .ioError, "\(error.message)")
            #expect(error.message.contains(path), "\(error.message)")
        }
        // The first write that finds no reader ends the log.
        #expect(h.clock.now() - closedAt.get() < 5, "ended \(h.clock.now() - closedAt.get()) s after the reader closed")
    }
    /// --duration bounds the whole run, the wait for a FIFO's first reader too (it waited for ever).
    @Test("a FIFO that no reader ever opens: the log ends at --duration, saying nothing was logged")
    func noReaderWithinTheDuration() throws {
        let h = try SessionHarness("log-fifo-no-reader", deadline: 120)
        let path = h.path("rows.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        let request = LogRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none, distanceFilter: 0),
                                 file: .init(path: path), rate: 10, duration: 5)
        #expect(try LogRecording.run(request, runtime: h.runtime("log")) == .success)
        #expect(h.clock.now() >= 5 && h.clock.now() < 6, "ended at \(h.clock.now()) s")
        #expect(h.diagnostics.text.contains("no reader opened \(path) within --duration 5 s"), "\(h.diagnostics.text)")
    }

    @Test("a FIFO whose reader stops reading loses whole rows, said on stderr; the log runs on to its end")
    func stalledReader() throws {
        signal(SIGPIPE, SIG_IGN)
        let h = try SessionHarness("log-fifo-stalled")
        let path = h.path("rows.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        // A reader that holds the FIFO open and reads nothing until the log has ended.
        let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        defer { close(reader) }
        // 600 s at 10 Hz is some 150 KB of rows: beyond the pipe's 64 KiB and an 8 KiB queue, most are lost.
        let request = LogRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none, distanceFilter: 0),
                                 file: .init(path: path, streamLimit: 8192), rate: 10, duration: 600)
        #expect(try LogRecording.run(request, runtime: h.runtime("log")) == .success)
        #expect(h.clock.now() >= 600 && h.clock.now() < 610, "the log ran to its end, never held: \(h.clock.now()) s")
        let said = h.diagnostics.text
        #expect(said.contains("is not read fast enough: "), "\(said)")
        #expect(said.contains(" rows lost so far"), "\(said)")
        // What the reader finds is the header and whole rows (a last row cut by the end may follow).
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(reader, &chunk, chunk.count)
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.components(separatedBy: "\n")
        lines.removeLast()   // after the last newline: empty, or a row the end cut
        #expect(lines.first == LogSchema.header)
        #expect(lines.count > 100, "\(lines.count) lines")
        let columns = LogSchema.header.split(separator: ",", omittingEmptySubsequences: false).count
        #expect(lines.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == columns })
        // Rows lost plus rows the reader got: every update of the run is one or the other.
        let lost = said.components(separatedBy: " rows lost so far").dropLast().last
            .flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        #expect(lost + lines.count - 1 >= 5900, "\(lost) lost, \(lines.count - 1) read")
    }
}
