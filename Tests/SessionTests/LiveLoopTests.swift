import Foundation
import Glibc
import HeadingLog
import JSON
import Outputs
import Platform
@testable import Session
import Testing
import TestSupport

/// The live loop under consumers that stall, flood and vanish, on the manual clock: nothing
/// sleeps, no port is opened, and what would freeze a real process shows as a count or a gap.
@Suite("live loop: consumers that stall, flood and vanish")
struct LiveLoopTests {
    static let settings = HeadingSettings(declinationSource: .location(latitude: -33.87, longitude: 151.21))

    static func serveRequest(nmea: [ServeEndpoint] = [], json: [String] = [], rate: Double = 10,
                             duration: Double? = nil) -> ServeRequest {
        ServeRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), heading: settings, gnss: .none),
                     rate: rate, duration: duration, nmea: nmea, json: json)
    }

    static func hdm(_ peer: FakeSockets.Peer) -> Int {
        peer.text.components(separatedBy: "\r\n").filter { $0.hasPrefix("$HCHDM,") }.count
    }

    @Test("a JSON reader that stops reading loses its own lines (counted, said) and holds nothing else")
    func stalledJSONReader() throws {
        let h = try SessionHarness("live-stalled-json")
        let sockets = FakeSockets(clock: h.clock)
        let client = sockets.connect(to: 10110)
        let json = ScriptedChannel(clock: h.clock)
        json.stalls(from: 2, until: .infinity)
        var runtime = h.runtime("serve")
        runtime.outputChannel = json
        let summary = try ServeSession.run(Self.serveRequest(nmea: [.tcp(host: "", port: 10110)], json: ["-"], duration: 120),
                                           runtime: runtime, sockets: sockets)
        #expect((1199...1201).contains(summary.updates), "10 Hz for 120 s: \(summary.updates)")
        #expect(Self.hdm(client) == summary.updates, "the NMEA client got every update")
        let lost = summary.dropped["JSON lines on standard output"] ?? 0
        // The bounded queue takes what fits (64 KiB, a few hundred lines); every update after that is lost.
        #expect(lost > 800, "the stalled reader's lines are lost, not waited for: \(lost)")
        // What it took before it stalled is whole lines of JSON.
        #expect(json.text.hasSuffix("\n"))
        #expect(json.lines.allSatisfy { (try? JSONValue.parse($0)) != nil })
        #expect(h.diagnostics.text.contains("dropped (slow or absent consumers): JSON lines on standard output: "),
                "\(h.diagnostics.text)")
    }

    @Test("a client that floods input is read 4 KiB a turn and costs the others nothing")
    func floodingClient() throws {
        let h = try SessionHarness("live-flood")
        let sockets = FakeSockets(clock: h.clock)
        let flooder = sockets.connect(to: 10110)
        flooder.pendingInput = 5_000_000_000
        let reader = sockets.connect(to: 10110)
        let summary = try ServeSession.run(Self.serveRequest(nmea: [.tcp(host: "", port: 10110)], duration: 10),
                                           runtime: h.runtime("serve"), sockets: sockets)
        #expect((99...101).contains(summary.updates))
        #expect(Self.hdm(reader) == summary.updates)
        #expect(sockets.largestInputBudget <= StreamServer.inputBudget)
        #expect(flooder.pendingInput > 4_000_000_000, "read a little per turn, never drained in one go")
    }

    @Test("100 clients that never read cannot lock the port: a new client gets data at once, each drop is said")
    func neverReadingClients() throws {
        let h = try SessionHarness("live-lockout")
        let sockets = FakeSockets(clock: h.clock)
        let idle = (0..<100).map { _ in sockets.connect(to: 10110, capacity: 512, readsFrom: .infinity) }
        let late = sockets.connect(to: 10110, connectsAt: 10)
        let summary = try ServeSession.run(Self.serveRequest(nmea: [.tcp(host: "", port: 10110)], duration: 15),
                                           runtime: h.runtime("serve"), sockets: sockets)
        #expect(summary.updates > 140)
        let first = try #require(late.firstReceived, "the late client got data")
        #expect(first - 10 <= 2, "within 2 s of connecting: \(first - 10) s")
        #expect(Self.hdm(late) >= 45, "and every update after: \(Self.hdm(late))")
        #expect(sockets.mostOpenAtOnce <= StreamServer.defaultMaximumClients + 1, "\(sockets.mostOpenAtOnce)")
        #expect(idle.count == 100)
        let drops = h.diagnostics.text.components(separatedBy: "is full (64 clients, --max-clients): dropped").count - 1
        #expect(drops >= 37, "every drop said: \(drops)\n\(h.diagnostics.text.prefix(600))")
    }

    @Test("watch --json on a full disk: exit 74 naming standard output, the lines before it whole")
    func fullDisk() throws {
        let h = try SessionHarness("live-full")
        let out = ScriptedChannel(clock: h.clock)
        out.failsAfterBytes = 5000
        out.isFile = true
        var runtime = h.runtime("watch")
        runtime.outputChannel = out
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), heading: Self.settings, gnss: .none),
                                   json: true)
        do {
            _ = try WatchSession.run(request, runtime: runtime)
            Issue.record("a failed write must be an error")
        } catch let error as OutputFailure {
            #expect(error.exitCode == .ioError)
            #expect(error.message.contains("standard output") && error.message.contains("No space left"), "\(error.message)")
        }
        #expect(h.clock.now() < 30, "it ended at the failure, not at the harness's deadline: \(h.clock.now())")
        // The line the failed write cut short was taken back off: the file ends with a whole line.
        #expect(out.text.hasSuffix("\n") && out.received.count < 5000, "\(out.received.count) bytes")
        #expect(out.lines.count > 3 && out.lines.allSatisfy { (try? JSONValue.parse($0)) != nil })
    }

    @Test("a regular file's channel takes the bytes of a cut line back off its end")
    func descriptorChannelTakesBack() throws {
        let h = try SessionHarness("take-back")
        let path = h.path("lines.json")
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        let channel = DescriptorChannel(fd: fd, name: path)
        #expect(channel.send(Array("{\"a\":1}\n{\"b\":".utf8)[...]) == .sent(13))
        channel.takeBack(5)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"a\":1}\n")
    }

    @Test("a reader that goes away (| head -1) is a quiet, normal end")
    func readerGone() throws {
        let h = try SessionHarness("live-epipe")
        let out = ScriptedChannel(clock: h.clock)
        out.failsAfterBytes = 200
        out.failure = EPIPE
        var runtime = h.runtime("watch")
        runtime.outputChannel = out
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), heading: Self.settings, gnss: .none))
        #expect(try WatchSession.run(request, runtime: runtime) == .success)
        #expect(!h.diagnostics.text.contains("cannot write"), "\(h.diagnostics.text)")
        #expect(h.clock.now() < 30)
    }

    @Test("SIGTERM ends watch at once while its reader is stalled")
    func signalWhileStalled() throws {
        let h = try SessionHarness("live-stalled-stop")
        let out = ScriptedChannel(clock: h.clock)
        out.stalls(from: 1, until: .infinity)
        h.events.schedule(.stop, at: 120)
        var runtime = h.runtime("watch")
        runtime.outputChannel = out
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), heading: Self.settings, gnss: .none))
        #expect(try WatchSession.run(request, runtime: runtime) == .success)
        #expect(h.clock.now() < 120.3, "ended \(h.clock.now() - 120) s after the signal")
        #expect(h.diagnostics.text.contains("standard output is not read fast enough"), "\(h.diagnostics.text)")
    }

    @Test("serve: a JSON file on a full disk is said, the other sinks go on, and serve exits 74 naming it")
    func serveSinkFailure() throws {
        let h = try SessionHarness("live-serve-full")
        let sockets = FakeSockets(clock: h.clock)
        let client = sockets.connect(to: 10110)
        var updates = 0
        do {
            _ = try ServeSession.run(Self.serveRequest(nmea: [.tcp(host: "", port: 10110)], json: ["/dev/full"], duration: 5),
                                     runtime: h.runtime("serve"), sockets: sockets)
            Issue.record("a sink that failed must end serve with an error")
        } catch let error as OutputFailure {
            #expect(error.exitCode == .ioError)
            #expect(error.message.contains("/dev/full"), "\(error.message)")
        }
        updates = Self.hdm(client)
        #expect(updates >= 49, "the NMEA client got the whole run: \(updates)")
        #expect(h.diagnostics.text.contains("the other outputs go on"), "\(h.diagnostics.text)")
    }

    /// A consumer that takes 3 s over one update (as a blocking write would) at t = 2.
    final class SlowOnce: LiveConsumer {
        let clock: ManualClock
        var times: [Double] = []
        init(clock: ManualClock) { self.clock = clock }
        func update(_ update: LiveUpdate, loop: LiveLoop) throws -> LiveStep {
            guard update.fresh else { return .proceed }
            times.append(update.now)
            if times.count == 21 { clock.advance(by: 3) }
            return .proceed
        }
    }

    @Test("after a stall the loop goes on at its rate: no burst of missed updates")
    func noBurstAfterStall() throws {
        let h = try SessionHarness("live-burst")
        let runtime = h.runtime("watch")
        let inbox = ControlInbox(runtime.events)
        let live = try LiveSession.open(LiveRequest(sensors: SensorSelection(simulate: true), heading: Self.settings, gnss: .none),
                                        runtime: runtime, inbox: inbox)
        let slow = SlowOnce(clock: h.clock)
        let end = try LiveLoop(live: live, runtime: runtime, inbox: inbox, rate: 10, duration: 10).run([slow])
        #expect(end == .duration)
        let gaps = zip(slow.times.dropFirst(), slow.times).map { $0 - $1 }
        let quick = gaps.filter { $0 < 0.05 }.count
        #expect(quick <= 1, "at most one update made up after the stall: \(gaps.map { (($0 * 1000).rounded()) })")
        #expect((67...72).contains(slow.times.count), "10 Hz for the 7 s not stalled: \(slow.times.count)")
    }

    /// A consumer that is done after three updates.
    final class ThreeThenGone: LiveConsumer {
        var seen = 0
        func update(_ update: LiveUpdate, loop: LiveLoop) throws -> LiveStep {
            guard update.fresh else { return .proceed }
            seen += 1
            return seen == 3 ? .finish : .proceed
        }
    }

    @Test("a consumer that is done ends the loop, and the others are told")
    func consumerFinishes() throws {
        let h = try SessionHarness("live-finish")
        let runtime = h.runtime("watch")
        let inbox = ControlInbox(runtime.events)
        let live = try LiveSession.open(LiveRequest(sensors: SensorSelection(simulate: true), heading: Self.settings, gnss: .none),
                                        runtime: runtime, inbox: inbox)
        let gone = ThreeThenGone()
        #expect(try LiveLoop(live: live, runtime: runtime, inbox: inbox, rate: 10).run([gone]) == .finished)
        #expect(gone.seen == 3)
        #expect(h.clock.now() < 1)
    }
}
