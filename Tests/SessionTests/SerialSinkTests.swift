import Foundation
import Glibc
import Outputs
import Platform
@testable import Session
import Testing
import TestSupport

/// A serial port in memory on a manual clock: a UART that sends baud/10 characters a second from a
/// 4 KB kernel queue, and can be unplugged and plugged in again. Every byte's time on the wire is
/// kept, so a test knows when a consumer had each sentence.
final class FakeSerialPorts: SerialSystem {
    let clock: ManualClock
    let kernelCapacity: Int
    /// Times at which the port is not there (unplugged).
    var absent: [ClosedRange<Double>] = []
    var opens: [(path: String, baud: Int)] = []
    var closes = 0
    private var baud = 4800
    private var nextFD: Int32 = 40
    private var openFD: Int32?
    /// When the wire finishes the last byte accepted.
    private var wireFreeAt = 0.0
    /// Bytes the consumer received, with the time each was complete on the wire.
    private(set) var received: [(byte: UInt8, time: Double)] = []

    init(clock: ManualClock, kernelCapacity: Int = 4096) {
        self.clock = clock
        self.kernelCapacity = kernelCapacity
    }

    var isAbsent: Bool { absent.contains { $0.contains(clock.now()) } }
    var charactersPerSecond: Double { Double(baud) / 10 }

    func open(_ path: String, baud: Int) throws(SerialError) -> Int32 {
        guard !isAbsent else { throw .absent(path: path) }
        self.baud = baud
        opens.append((path, baud))
        nextFD += 1
        openFD = nextFD
        wireFreeAt = clock.now()
        return nextFD
    }

    func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> SendOutcome {
        guard fd == openFD, !isAbsent else { return .failed(EIO) }
        let now = clock.now()
        let room = kernelCapacity - (pending(fd) ?? 0)
        guard room > 0 else { return .wouldBlock }
        let n = min(room, bytes.count)
        var t = max(wireFreeAt, now)
        for b in bytes.prefix(n) {
            t += 1 / charactersPerSecond
            received.append((b, t))
        }
        wireFreeAt = t
        return .sent(n)
    }

    func pending(_ fd: Int32) -> Int? {
        Int((max(0, wireFreeAt - clock.now()) * charactersPerSecond).rounded(.up))
    }

    func close(_ fd: Int32) {
        if fd == openFD { openFD = nil }
        closes += 1
    }

    /// The sentences received, each with the time its last byte arrived; partial ones are kept as
    /// text so a test can see them.
    var sentences: [(text: String, time: Double)] {
        var out: [(String, Double)] = []
        var current: [UInt8] = []
        for (b, t) in received {
            current.append(b)
            if current.count >= 2 && current.suffix(2) == [13, 10] {
                out.append((String(decoding: current, as: UTF8.self), t))
                current = []
            }
        }
        return out
    }
}

@Suite("NMEA 0183 on a serial port, on a manual clock")
struct SerialSinkTests {
    /// A report whose heading tells which update it is (100.0 + k/10 degrees), with a declination,
    /// a rate of turn and attitude, so every sentence kind is there.
    static func report(_ k: Int, at t: Double) -> HeadingReport {
        HeadingReport(wall: 1_795_000_000 + t, monotonic: t, magneticHeading: 100 + Double(k) / 10, variation: 12.5,
                      trueHeading: 112.5 + Double(k) / 10, rateOfTurn: 3.0, roll: 2.5, pitch: -1.5)
    }

    static func runtime(_ clock: ManualClock, _ diagnostics: CapturedOutput) -> Runtime {
        Runtime(time: clock, events: ScriptedEvents(clock: clock, deadline: 1e9), output: CapturedOutput(), diagnostics: diagnostics,
                command: "serve")
    }

    /// Runs `seconds` of updates at `rate`, servicing only at update times (as serve's loop does when
    /// the updates come faster than its 0.1 s housekeeping).
    static func run(baud: Int, rate: Double, seconds: Double, ports: FakeSerialPorts, clock: ManualClock,
                    diagnostics: CapturedOutput = CapturedOutput(), onTick: (Double) -> Void = { _ in }) throws -> (SerialSink, [Double]) {
        let sink = try SerialSink(path: "/dev/ttyUSB0", baud: baud, formatter: NMEAFormatter(), system: ports,
                                  runtime: runtime(clock, diagnostics))
        var times: [Double] = []
        let updates = Int(seconds * rate)
        for k in 0..<updates {
            let t = Double(k) / rate
            clock.advance(to: t)
            onTick(t)
            sink.service(now: t)
            clock.advance(to: t + 0.003)   // the sample's way through the pipeline
            sink.publish(report(k, at: t), fix: nil)
            times.append(t)
        }
        return (sink, times)
    }

    /// The update a heading sentence came from (by its heading value), and whether it is HDG or HDT.
    static func update(of sentence: String) throws -> Int? {
        let parsed = try NMEASentence.parse(sentence)
        guard parsed.type == "HDG" || parsed.type == "HDT", let value = Double(parsed.fields[0]) else { return nil }
        let base = parsed.type == "HDG" ? 100.0 : 112.5
        return Int(((value - base) * 10).rounded())
    }

    @Test("4800 baud at 10 Hz: every sentence whole and valid, no backlog, a heading never older than 0.5 s",
          arguments: [4800, 9600])
    func slowLineNewestHeadingWins(baud: Int) throws {
        let clock = ManualClock()
        let ports = FakeSerialPorts(clock: clock)
        let diagnostics = CapturedOutput()
        let (sink, times) = try Self.run(baud: baud, rate: 10, seconds: 60, ports: ports, clock: clock, diagnostics: diagnostics)
        let received = ports.sentences
        // Every byte forms whole sentences with valid checksums, CR LF ended (parse checks both).
        for s in received { _ = try NMEASentence.parse(s.text) }
        #expect(ports.received.count - received.reduce(0) { $0 + $1.text.utf8.count } < 82, "only the last sentence may be under way")
        // The wire's own capacity is respected: never more queued than the windows allow.
        #expect(sink.peakBacklog <= SerialSink.headingWindow + 1e-9, "backlog \(sink.peakBacklog) s")
        #expect(sink.dropped == 0)
        // Age: from the sample to the sentence's last byte on the wire.
        var worst = 0.0
        var newestByTime: [(time: Double, sample: Double)] = []
        for s in received {
            guard let k = try Self.update(of: s.text) else { continue }
            let age = s.time - times[k]
            worst = max(worst, age)
            newestByTime.append((s.time, times[k]))
        }
        #expect(worst <= 0.5, "the oldest heading a consumer read was \(worst) s old")
        // And at every moment after the first second, the newest heading on the wire is under 0.5 s old.
        var newestSample = -1.0
        var i = 0
        for t in stride(from: 1.0, to: 59.0, by: 0.01) {
            while i < newestByTime.count && newestByTime[i].time <= t { newestSample = max(newestSample, newestByTime[i].sample); i += 1 }
            #expect(t - newestSample <= 0.5, "at \(t) s the newest heading was from \(newestSample) s")
            if t - newestSample > 0.5 { break }
        }
        // Headings first: every HDG and HDT is sent; the rest only as room allows.
        let kinds = try received.map { try NMEASentence.parse($0.text).type }
        #expect(sink.headingSent == sink.headingOffered, "\(sink.headingSent) of \(sink.headingOffered) heading sentences")
        #expect(kinds.filter { $0 == "HDG" }.count == times.count)
        #expect(sink.sent < sink.offered, "the line cannot carry every sentence at \(baud) baud")
        // What went out fits the wire: 480 characters a second at 4800 baud.
        let characters = Double(ports.received.count)
        #expect(characters <= Double(baud) / 10 * 60.4, "\(characters) characters in 60 s")
        // The share sent is said on stderr (after the first 10 s: within a few points of the whole run's).
        let share = Int((Double(sink.sent) / Double(sink.offered) * 100).rounded())
        let said = diagnostics.text.components(separatedBy: "sent ").dropFirst().first?.split(separator: " ").first.flatMap { Int($0) }
        #expect(said.map { abs($0 - share) <= 5 } == true, "said \(String(describing: said)) %, sent \(share) %: \(diagnostics.text)")
        #expect(diagnostics.text.contains("% of them (heading HDG/HDT 100 %)"), "\(diagnostics.text)")
        #expect(diagnostics.text.contains("\(baud / 10) characters a second"))
    }

    @Test("115200 baud carries every sentence of every update, in the formatter's set, and says nothing of shares")
    func fastLineCarriesEverything() throws {
        let clock = ManualClock()
        let ports = FakeSerialPorts(clock: clock)
        let diagnostics = CapturedOutput()
        let (sink, times) = try Self.run(baud: 115200, rate: 50, seconds: 20, ports: ports, clock: clock, diagnostics: diagnostics)
        #expect(sink.sent == sink.offered && sink.offered == times.count * 5)
        #expect(!diagnostics.text.contains("% of them"), "\(diagnostics.text)")
        #expect(ports.opens.first?.baud == 115200)
        // Order within an update when everything fits: HDG, HDT, ROT, XDR, HDM.
        let kinds = try ports.sentences.prefix(5).map { try NMEASentence.parse($0.text).type }
        #expect(kinds == ["HDG", "HDT", "ROT", "XDR", "HDM"])
    }

    @Test("a port unplugged for 5 s: said once, the updates meanwhile are dropped and counted, and it is opened again")
    func vanishesAndReturns() throws {
        let clock = ManualClock()
        let ports = FakeSerialPorts(clock: clock)
        ports.absent = [10.0...15.0]
        let diagnostics = CapturedOutput()
        let (sink, times) = try Self.run(baud: 4800, rate: 10, seconds: 30, ports: ports, clock: clock, diagnostics: diagnostics)
        #expect(ports.opens.count == 2, "opened at start and once more after it came back")
        #expect(sink.reopened == 1 && sink.isOpen)
        #expect(sink.dropped >= 50 * 2, "5 s of updates are lost: \(sink.dropped)")
        #expect(diagnostics.text.components(separatedBy: "failed").count == 2, "said once: \(diagnostics.text)")
        #expect(diagnostics.text.contains("is back"))
        // Headings flow again within about a second of the port's return.
        let after = try ports.sentences.filter { $0.time > 15 }.compactMap { try Self.update(of: $0.text) }
        #expect(after.first.map { times[$0] } ?? 99 <= 16.2, "first heading after the return from \(String(describing: after.first))")
        for s in ports.sentences { _ = try NMEASentence.parse(s.text) }
    }

    @Test("a port absent at start is waited for; a path that is no serial port or may not be opened is refused")
    func absentAtStart() throws {
        let clock = ManualClock()
        let ports = FakeSerialPorts(clock: clock)
        ports.absent = [0.0...3.0]
        let diagnostics = CapturedOutput()
        let (sink, _) = try Self.run(baud: 4800, rate: 10, seconds: 6, ports: ports, clock: clock, diagnostics: diagnostics)
        #expect(diagnostics.text.contains("does not exist: plug in the serial adapter"), "\(diagnostics.text)")
        #expect(sink.isOpen && ports.opens.count == 1)

        final class Refusing: SerialSystem {
            let error: SerialError
            init(_ error: SerialError) { self.error = error }
            func open(_ path: String, baud: Int) throws(SerialError) -> Int32 { throw error }
            func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> SendOutcome { .failed(EBADF) }
            func pending(_ fd: Int32) -> Int? { nil }
            func close(_ fd: Int32) {}
        }
        let runtime = Self.runtime(clock, CapturedOutput())
        for error in [SerialError.permission(path: "/dev/ttyS0"), .notASerialPort(path: "/dev/null")] {
            #expect(throws: error) {
                _ = try SerialSink(path: "/dev/x", baud: 4800, formatter: NMEAFormatter(), system: Refusing(error), runtime: runtime)
            }
        }
        #expect(SerialError.permission(path: "/dev/ttyS0").message.contains("dialout"))
        #expect(SerialError.permission(path: "/dev/ttyS0").exitCode == .unavailable)
    }

    @Test("a port whose queue is full (a consumer that does not read) never blocks and never sends half a sentence")
    func fullQueue() throws {
        let clock = ManualClock()
        let ports = FakeSerialPorts(clock: clock, kernelCapacity: 50)
        let (sink, _) = try Self.run(baud: 4800, rate: 50, seconds: 10, ports: ports, clock: clock)
        for s in ports.sentences { _ = try NMEASentence.parse(s.text) }
        #expect(sink.queuedBytes < 500, "\(sink.queuedBytes) bytes kept")
    }

    @Test("URLs: serial:PATH?baud=N and a bare /dev path; bad bauds refused")
    func parsing() throws {
        #expect(try ServeEndpoint.parse("serial:/dev/ttyUSB0", defaultPort: 10110) == .serial(path: "/dev/ttyUSB0", baud: 4800))
        #expect(try ServeEndpoint.parse("serial:/dev/ttyAMA0?baud=38400", defaultPort: 10110) == .serial(path: "/dev/ttyAMA0", baud: 38400))
        #expect(try ServeEndpoint.parse("serial:///dev/serial0?baud=115200", defaultPort: 10110) == .serial(path: "/dev/serial0", baud: 115200))
        #expect(try ServeEndpoint.parse("/dev/ttyUSB0", defaultPort: 10110) == .serial(path: "/dev/ttyUSB0", baud: 4800))
        for bad in ["serial:/dev/ttyUSB0?baud=4801", "serial:/dev/ttyUSB0?speed=4800", "serial:", "serial:ttyUSB0"] {
            #expect(throws: InvalidRequest.self) { try ServeEndpoint.parse(bad, defaultPort: 10110) }
        }
        #expect(ServeEndpoint.serial(path: "/dev/ttyUSB0", baud: 9600).description == "serial:/dev/ttyUSB0?baud=9600")
    }

    @Test("a whole serve session with a serial sink beside TCP: the TCP client gets every update, the serial line its share")
    func wholeSession() throws {
        let h = try SessionHarness("serve-serial")
        let sockets = FakeSockets(clock: h.clock)
        let client = sockets.connect(to: 10110)
        let ports = FakeSerialPorts(clock: h.clock)
        ports.absent = [5.0...8.0]
        var request = ServeSessionTests.request(nmea: [.serial(path: "/dev/ttyUSB0", baud: 4800), .tcp(host: "", port: 10110)],
                                                duration: 20)
        request.rate = 10
        let summary = try ServeSession.run(request, runtime: h.runtime("serve"), sockets: sockets, serial: ports)
        let tcp = try ServeSessionTests.sentences(client.text)
        #expect(tcp.filter { $0.type == "HDG" }.count == summary.updates, "the TCP client never waits for the serial line")
        #expect(summary.dropped["NMEA 0183 on tcp://0.0.0.0:10110"] == 0)
        #expect(ports.opens.count == 2, "reopened after the unplugging")
        #expect(h.diagnostics.text.contains("publishing NMEA 0183 on serial:/dev/ttyUSB0?baud=4800"), "\(h.diagnostics.text)")
        let serialHeadings = try ports.sentences.map { try NMEASentence.parse($0.text) }.filter { $0.type == "HDG" }.count
        #expect(serialHeadings >= summary.updates - 3 * 10 - 15, "\(serialHeadings) HDG on the serial line of \(summary.updates)")
    }
}
