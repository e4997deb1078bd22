import Foundation
import Glibc
import Testing
import TestSupport

/// What only a real process shows: a full disk and a file-size limit under standard output, a
/// reader that goes away, a FIFO nobody opens, and a JSON reader that stalls while TCP clients
/// wait for their sentences.
@Suite("live commands end to end: full disks, vanished readers, FIFOs, stalled readers")
struct LiveEndToEndTests {
    static let location = ["--location", "-33.87,151.21"]

    static func shell(_ script: String, timeout: Double = 30) throws -> RunResult {
        try runProgram("/bin/sh", ["-c", script, "sh", lodestoneBinaryPath], timeout: timeout)
    }

    static func batch(_ lines: Int) -> String {
        "lat1,lon1,lat2,lon2\n" + (0..<lines).map { "\(Double($0) / 100),0,\(Double($0) / 100 + 1),1" }.joined(separator: "\n") + "\n"
    }

    @Test("geod --csv on a full disk (/dev/full) exits 74, naming standard output")
    func geodFullDisk() throws {
        let folder = try makeTemporaryFolder("geod-full")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.csv").path
        try Self.batch(5000).write(toFile: input, atomically: true, encoding: .utf8)
        let r = try Self.shell("\"$1\" geod --inverse --csv < '\(input)' > /dev/full")
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("cannot write standard output") && r.stderr.contains("No space left"), "\(r.stderr)")
    }

    @Test("geod --csv past a file-size limit exits 74, and the file holds whole lines only")
    func geodFileSizeLimit() throws {
        let folder = try makeTemporaryFolder("geod-ulimit")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.csv").path
        let output = folder.appendingPathComponent("out.csv").path
        try Self.batch(5000).write(toFile: input, atomically: true, encoding: .utf8)
        let r = try Self.shell("ulimit -f 64; \"$1\" geod --inverse --csv < '\(input)' > '\(output)'")
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("cannot write standard output"), "\(r.stderr)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.hasSuffix("\n"), "ends with a whole line")
        let lines = text.split(separator: "\n")
        #expect(lines.count > 100 && lines.count < 5001, "\(lines.count)")
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",").count == lines[0].split(separator: ",").count })
    }

    @Test("watch --json on a full disk exits 74; piped into head -1 it ends quietly with 0")
    func watchFullDiskAndHead() throws {
        let full = try Self.shell("\"$1\" watch --simulate --no-gnss --json --rate 20 > /dev/full", timeout: 20)
        #expect(full.status == 74, "\(full.stderr)")
        #expect(full.stderr.contains("cannot write standard output"), "\(full.stderr)")
        let head = try runProgram("/bin/bash", ["-c", "\"$1\" watch --simulate --no-gnss --rate 20 | head -1; exit ${PIPESTATUS[0]}",
                                                "bash", lodestoneBinaryPath], timeout: 20)
        #expect(head.status == 0, "\(head.stderr)")
        #expect(head.stdout.split(separator: "\n").count == 1)
        #expect(!head.stderr.contains("cannot write"), "\(head.stderr)")
    }

    @Test("log --output FIFO with no reader ends within 1 s of SIGTERM")
    func logToFIFOWithoutReader() throws {
        let folder = try makeTemporaryFolder("log-fifo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("heading.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let log = try BackgroundProcess(["log", "--simulate", "--no-gnss", "--output", fifo])
        #expect(pollUntil(10) { log.stderr.contains("no reader yet") }, "\(log.stderr)")
        let start = Date()
        let status = log.stop(timeout: 5)
        let took = Date().timeIntervalSince(start)
        #expect(status == 0, "\(log.stderr)")
        #expect(took < 1, "ended \(took) s after SIGTERM")
    }

    @Test("serve: a JSON reader that never reads holds up no NMEA client (largest gap at 50 Hz), and a new client is served at once")
    func stalledJSONReaderRealProcess() throws {
        let port = freeTCPPort()
        let folder = try makeTemporaryFolder("serve-stall")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("json.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // The FIFO's reader opens it and never reads; serve's JSON lines fill it within a second.
        let holder = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(holder >= 0)
        defer { close(holder) }
        let serve = try BackgroundProcess(["serve", "--simulate", "--no-gnss", "--rate", "50", "--duration", "12",
                                           "--json", fifo, "--nmea", "tcp://127.0.0.1:\(port)"] + Self.location)
        #expect(pollUntil(15) { acceptsConnections(port) }, "\(serve.stderr)")
        let fd = connectLoopback(port)
        #expect(fd >= 0)
        defer { close(fd) }
        var last = Date()
        var largest = 0.0
        var lines = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Date().addingTimeInterval(6)
        while Date() < end {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) >= 0 else { break }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                let now = Date()
                if lines > 0 { largest = max(largest, now.timeIntervalSince(last)) }
                last = now
                lines += buffer[..<n].filter { $0 == 10 }.count
            } else if n == 0 { break }
        }
        #expect(serve.stop(timeout: 20) == 0, "\(serve.stderr)")
        #expect(lines >= 250, "50 Hz for 6 s: \(lines) lines")
        #expect(largest < 1.0, "the largest gap between sentences: \(largest) s (a stalled JSON reader froze every sink for 10 s)")
        #expect(serve.stderr.contains("JSON lines to"), "\(serve.stderr)")
    }
}
