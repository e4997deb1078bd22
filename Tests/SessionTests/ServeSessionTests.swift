import Foundation
import JSON
import Outputs
import Platform
@testable import Session
import Testing
import TestSupport

/// Whole `serve` sessions on the simulator, in simulated time, with sockets in memory: consumers
/// that read, stall or hang up, and UDP peers. Nothing sleeps and no port is opened.
@Suite("serve session on a manual clock")
struct ServeSessionTests {
    static func request(nmea: [ServeEndpoint] = [], signalK: [ServeEndpoint] = [], json: [String] = [],
                        rate: Double = 10, duration: Double? = nil) -> ServeRequest {
        let settings = HeadingSettings(declinationSource: .location(latitude: -33.87, longitude: 151.21))
        return ServeRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), heading: settings, gnss: .none),
                            rate: rate, duration: duration, nmea: nmea, signalK: signalK, json: json)
    }

    /// The sentences in a byte stream; fails the test on a partial or invalid one.
    static func sentences(_ text: String) throws -> [NMEASentence] {
        var lines = text.components(separatedBy: "\r\n")
        #expect(lines.removeLast() == "", "the stream ends with a whole sentence")
        return try lines.map { try NMEASentence.parse($0 + "\r\n") }
    }

    @Test("NMEA over TCP: every client gets every update as whole, valid sentences")
    func nmeaTCP() throws {
        let h = try SessionHarness("serve-nmea")
        let sockets = FakeSockets(clock: h.clock)
        let a = sockets.connect(to: 10110)
        let b = sockets.connect(to: 10110)
        let summary = try ServeSession.run(Self.request(nmea: [.tcp(host: "", port: 10110)], duration: 3),
                                           runtime: h.runtime("serve"), sockets: sockets)
        #expect((29...31).contains(summary.updates), "10 Hz for 3 s: \(summary.updates)")
        for peer in [a, b] {
            let s = try Self.sentences(peer.text)
            #expect(s.filter { $0.type == "HDM" }.count == summary.updates)
            #expect(s.filter { $0.type == "HDT" }.count == summary.updates, "the declination is known from --location")
            #expect(s.allSatisfy { $0.talker == "HC" })
            #expect(Set(s.map(\.type)).isSuperset(of: ["HDG", "HDM", "HDT", "XDR"]))
        }
        #expect(summary.dropped.values.allSatisfy { $0 == 0 })
        #expect(sockets.allClosed, "listener and clients closed at the end")
        #expect(h.diagnostics.text.contains("publishing NMEA 0183 on tcp://0.0.0.0:10110"), "\(h.diagnostics.text)")
    }

    @Test("at 50 Hz: one send per update to each reading client, and housekeeping four times a second")
    func systemCallsPerUpdate() throws {
        let h = try SessionHarness("serve-calls")
        let sockets = FakeSockets(clock: h.clock)
        sockets.connect(to: 10110)
        sockets.connect(to: 10110)
        let summary = try ServeSession.run(Self.request(nmea: [.tcp(host: "", port: 10110)], signalK: [.udp(host: "127.0.0.1", port: 8375)],
                                                        rate: 50, duration: 10),
                                           runtime: h.runtime("serve"), sockets: sockets)
        #expect((495...501).contains(summary.updates), "50 Hz for 10 s: \(summary.updates)")
        // The two clients and the UDP socket: one send each per update (and the started and stopping events, none on NMEA).
        let perSocket = sockets.sendCalls.values.sorted()
        #expect(perSocket.count == 3, "\(sockets.sendCalls)")
        for calls in perSocket { #expect((summary.updates...summary.updates + 2).contains(calls), "\(sockets.sendCalls)") }
        // A turn every quarter second: about 40 in 10 s, one accept each (two more for the clients), one read per client.
        let turns = 10 / 0.25
        #expect(Double(sockets.acceptCalls) <= turns + 4, "accept asked \(sockets.acceptCalls) times")
        #expect(Double(sockets.acceptCalls) >= turns - 2, "accept asked \(sockets.acceptCalls) times")
        #expect(Double(sockets.drainCalls) <= 2 * (turns + 2), "input read \(sockets.drainCalls) times")
    }

    @Test("a client that stops reading for 60 s costs no sample, no memory growth, and nothing to the others")
    func stalledClient() throws {
        // The same session without the stalled client, for the sample count.
        let base = try SessionHarness("serve-base")
        let baseSockets = FakeSockets(clock: base.clock)
        baseSockets.connect(to: 10110)
        let reference = try ServeSession.run(Self.request(nmea: [.tcp(host: "", port: 10110)], duration: 70),
                                             runtime: base.runtime("serve"), sockets: baseSockets)

        let h = try SessionHarness("serve-stall")
        let sockets = FakeSockets(clock: h.clock)
        let reader = sockets.connect(to: 10110)
        let stalled = sockets.connect(to: 10110, capacity: 8192, readsFrom: 60)
        let limit = 16 * 1024
        var request = Self.request(nmea: [.tcp(host: "", port: 10110)], duration: 70)
        request.clientQueueLimit = limit
        let summary = try ServeSession.run(request, runtime: h.runtime("serve"), sockets: sockets)

        #expect(summary.samples == reference.samples, "no sensor sample lost: \(summary.samples) vs \(reference.samples)")
        #expect(summary.updates == reference.updates)
        // The reading client saw every update.
        let all = try Self.sentences(reader.text)
        #expect(all.filter { $0.type == "HDM" }.count == summary.updates)
        // The stalled one lost updates (counted), whole ones only, and got them again once it read.
        let dropped = summary.dropped.values.reduce(0, +)
        #expect(dropped > 300, "\(dropped)")
        let got = try Self.sentences(stalled.text)
        #expect(got.filter { $0.type == "HDM" }.count + dropped == summary.updates)
        #expect(got.filter { $0.type == "HDM" }.count > 90, "10 s of updates after it read again, plus its buffers")
        #expect(summary.peakQueuedBytes <= limit, "bounded queue: \(summary.peakQueuedBytes) bytes")
        #expect(h.diagnostics.text.contains("dropped (slow or absent consumers): NMEA 0183 on tcp://0.0.0.0:10110: \(dropped)"),
                "\(h.diagnostics.text)")
    }

    @Test("a client that hangs up is forgotten; the others go on")
    func hangUp() throws {
        let h = try SessionHarness("serve-hangup")
        let sockets = FakeSockets(clock: h.clock)
        let leaver = sockets.connect(to: 10110, hangsUpAt: 1)
        let stayer = sockets.connect(to: 10110)
        let summary = try ServeSession.run(Self.request(nmea: [.tcp(host: "", port: 10110)], duration: 3),
                                           runtime: h.runtime("serve"), sockets: sockets)
        let left = try Self.sentences(leaver.text).filter { $0.type == "HDM" }.count
        #expect((8...11).contains(left), "\(left)")
        #expect(try Self.sentences(stayer.text).filter { $0.type == "HDM" }.count == summary.updates)
        #expect(summary.dropped.values.allSatisfy { $0 == 0 }, "a hang-up is not a drop")
    }

    @Test("UDP: one sentence per datagram; Signal K: one delta per datagram, in radians")
    func datagrams() throws {
        let h = try SessionHarness("serve-udp")
        let sockets = FakeSockets(clock: h.clock)
        let summary = try ServeSession.run(
            Self.request(nmea: [.udp(host: "127.0.0.1", port: 10110)], signalK: [.udp(host: "127.0.0.1", port: 8375)], duration: 2),
            runtime: h.runtime("serve"), sockets: sockets)
        let nmea = try #require(sockets.udp[10110]).datagrams
        let deltas = try #require(sockets.udp[8375]).datagrams
        #expect(deltas.count == summary.updates)
        var hdm: [Double] = []
        for d in nmea {
            let s = try NMEASentence.parse(String(decoding: d, as: UTF8.self))
            if s.type == "HDM" { hdm.append(try #require(Double(s.fields[0]))) }
        }
        #expect(hdm.count == summary.updates)
        for (d, heading) in zip(deltas, hdm) {
            let v = try JSONValue.parse(String(decoding: d, as: UTF8.self))
            let values = v["updates"]?[0]?["values"]?.array ?? []
            let magnetic = values.first { $0["path"]?.string == "navigation.headingMagnetic" }?["value"]?.double
            let radians = try #require(magnetic)
            var diff = abs(radians * 180 / .pi - heading)
            diff = min(diff, 360 - diff)
            #expect(diff < 0.051, "the same update in NMEA and Signal K: \(heading)° vs \(radians) rad")
            #expect(values.contains { $0["path"]?.string == "navigation.headingTrue" })
        }
    }

    @Test("Signal K over TCP: one delta per line to each client")
    func signalKTCP() throws {
        let h = try SessionHarness("serve-signalk-tcp")
        let sockets = FakeSockets(clock: h.clock)
        let client = sockets.connect(to: 8375)
        let summary = try ServeSession.run(Self.request(signalK: [.tcp(host: "127.0.0.1", port: 8375)], duration: 2),
                                           runtime: h.runtime("serve"), sockets: sockets)
        var lines = client.text.components(separatedBy: "\r\n")
        #expect(lines.removeLast() == "")
        #expect(lines.count == summary.updates)
        for line in lines {
            let v = try JSONValue.parse(line)
            #expect(v["updates"]?[0]?["$source"]?.string == "lodestone.HC")
        }
    }

    @Test("--json -: one object per update on standard output")
    func jsonLines() throws {
        let h = try SessionHarness("serve-json")
        let summary = try ServeSession.run(Self.request(json: ["-"], rate: 20, duration: 2), runtime: h.runtime("serve"),
                                           sockets: FakeSockets(clock: h.clock))
        let lines = h.output.lines
        #expect(lines.count == summary.updates && (39...41).contains(lines.count), "\(lines.count)")
        var last = -1.0
        for line in lines {
            let o = try JSONValue.parse(line)
            let t = try #require(o["monotonic_s"]?.double)
            #expect(t > last)
            last = t
            #expect(o["heading_true_deg"]?.double != nil && o["declination_source"]?.string == "location")
        }
    }

    @Test("--json - and MQTT: each update's JSON written once, the same bytes to both (without a fix)")
    func jsonWrittenOnce() throws {
        let h = try SessionHarness("serve-json-once")
        var request = Self.request(json: ["-"], rate: 20, duration: 2)
        request.mqtt = [try MQTTEndpoint.parse("mqtt://127.0.0.1/boat")]
        let mqtt = HeadingBytesSink()
        let summary = try ServeSession.run(request, runtime: h.runtime("serve"), sockets: FakeSockets(clock: h.clock),
                                           mqtt: { _, _ in mqtt })
        #expect(summary.updates > 30)
        #expect(mqtt.payloads.count == summary.updates)
        #expect(mqtt.writes == Array(1...summary.updates), "written by the JSON sink, once an update, and not again for MQTT")
        #expect(h.output.lines == mqtt.payloads, "the same bytes: no fix here, so \"fix\":null in both")
        #expect(mqtt.payloads.allSatisfy { $0.hasSuffix(",\"fix\":null}") })
    }

    /// MQTT's `…/heading` is the JSON line's object, the current fix included (heading-update's
    /// schema: "fix" is null only without one). It carried "fix": null with a fix.
    @Test("--json - and MQTT with the simulated receiver: the same bytes, the fix in both")
    func mqttHeadingCarriesTheFix() throws {
        let h = try SessionHarness("serve-json-fix")
        var request = Self.request(json: ["-"], rate: 10, duration: 4)
        request.live.gnss = .automatic
        request.mqtt = [try MQTTEndpoint.parse("mqtt://127.0.0.1/boat")]
        let mqtt = HeadingBytesSink()
        let summary = try ServeSession.run(request, runtime: h.runtime("serve"), sockets: FakeSockets(clock: h.clock),
                                           mqtt: { _, _ in mqtt })
        #expect(mqtt.payloads.count == summary.updates)
        #expect(h.output.lines == mqtt.payloads)
        let withFix = try mqtt.payloads.filter { try JSONValue.parse($0)["fix"]?["lat_deg"]?.double != nil }
        #expect(withFix.count >= summary.updates / 2, "the receiver's first fix comes within the first second: \(withFix.count)")
    }

    @Test("a port already in use stops serve with a clear message and exit 69 (real sockets)")
    func portInUse() throws {
        let h = try SessionHarness("serve-port")
        let sockets = LinuxSockets()
        let holder = try sockets.listen(host: "127.0.0.1", port: 0)
        defer { sockets.close(holder) }
        let port = try #require(sockets.localPort(holder))
        do {
            _ = try ServeSession.run(Self.request(nmea: [.tcp(host: "127.0.0.1", port: port)], duration: 1),
                                     runtime: h.runtime("serve"))
            Issue.record("serve started on a port in use")
        } catch let error as ServeError {
            #expect(error == .portInUse(host: "127.0.0.1", port: port))
            #expect(error.exitCode == .unavailable)
            #expect(error.message.contains("port \(port) on 127.0.0.1 is already in use"), "\(error.message)")
        }
    }

    @Test("no sink: a usage error before any sensor is opened")
    func nothingToServe() throws {
        let h = try SessionHarness("serve-nothing")
        #expect(throws: InvalidRequest.self) {
            try ServeSession.run(Self.request(duration: 1), runtime: h.runtime("serve"), sockets: FakeSockets(clock: h.clock))
        }
        #expect(h.diagnostics.text.isEmpty, "\(h.diagnostics.text)")
        #expect(h.clock.now() == 0)
    }

    @Test("watch --json: one JSON object per line instead of the plain line")
    func watchJSON() throws {
        let h = try SessionHarness("watch-json")
        h.events.schedule(.stop, at: 2)
        _ = h.attachTerminal()   // JSON even on a terminal: no dashboard
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none), json: true)
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        let lines = h.output.lines
        #expect((19...21).contains(lines.count), "\(lines.count)")
        for line in lines {
            let o = try JSONValue.parse(line)
            let heading = try #require(o["heading_mag_deg"]?.double)
            #expect(heading >= 0 && heading < 360)
            #expect(o["flags"]?.array?.contains(.string("noDeclination")) == true)
        }
    }
}

/// Stands in for the MQTT client: keeps each heading's JSON as MQTT sends it and how many times the
/// update's JSON had been written when it got it.
private final class HeadingBytesSink: ServeSink {
    let label = "heading bytes"
    var payloads: [String] = []
    var writes: [Int] = []
    var dropped: Int { 0 }
    func publish(_ report: HeadingReport, fix: FixReport?) { Issue.record("serve hands sinks the shared message") }
    func publish(_ message: HeadingMessage) {
        var bytes: [UInt8] = []
        message.appendJSON(to: &bytes)
        payloads.append(String(decoding: bytes, as: UTF8.self))
        writes.append(message.jsonWrites)
    }
    func close() {}
}
