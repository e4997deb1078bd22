import Foundation
import Glibc
import JSON
import Outputs
import Testing
import TestSupport

/// `lodestone serve` feeding real consumers at once: gpsd reading its NMEA over tcp://, a UDP
/// listener taking Signal K deltas, and a mosquitto broker with a subscriber. Everything on
/// 127.0.0.1, servers on free ports, generous time bounds.
@Suite("serve feeds real consumers", .serialized)
struct ServeIntegrationTests {
    static let location = ["--location", "-33.87,151.21"]

    /// Checks a sentence with a checksum computed here (not by Outputs), then parses it.
    static func checkedSentence(_ line: String) throws -> NMEASentence {
        let star = try #require(line.lastIndex(of: "*"), "\(line)")
        let body = line[line.index(after: line.startIndex)..<star]
        let sum = body.utf8.reduce(UInt8(0), ^)
        #expect(line.hasPrefix("$") && String(line[line.index(after: star)...]) == String(format: "%02X", sum), "\(line)")
        #expect(line.utf8.count + 2 <= 82)
        return try NMEASentence.parse(line + "\r\n")
    }

    @Test("gpsd, a UDP listener and mosquitto fed at once: ATT headings, Signal K deltas, MQTT messages and status",
          .enabled(if: gpsdPath != nil, Comment(rawValue: gpsdMissingMessage)),
          .enabled(if: mosquittoPath != nil && mosquittoSubPath != nil, Comment(rawValue: mosquittoMissingMessage)))
    func allSinksAtOnce() throws {
        let nmeaPort = freeTCPPort(), gpsdPort = freeTCPPort(), brokerPort = freeTCPPort()
        let udp = UDPListener()
        let broker = try MosquittoBroker(port: brokerPort)
        #expect(broker.waitUntilListening(), "mosquitto did not start: \(broker.log)")
        let subscriber = try mosquittoSubscriber(port: brokerPort, topic: "lodestone/#")
        _ = pollUntil(1) { false }   // let the subscription settle
        let serve = try BackgroundProcess(["serve", "--simulate", "--rate", "10", "--duration", "16",
                                           "--nmea", "tcp://127.0.0.1:\(nmeaPort)", "--signalk", "udp://127.0.0.1:\(udp.port)",
                                           "--mqtt", "mqtt://127.0.0.1:\(brokerPort)/lodestone",
                                           "--region", "here:-33.87,151.21,100"] + Self.location)   // where --location starts the simulated receiver
        #expect(pollUntil(15) { acceptsConnections(nmeaPort) }, "serve did not listen: \(serve.stderr)")
        let gpsd = try BackgroundProcess(executable: gpsdPath ?? "gpsd",
                                         ["-N", "-n", "-S", String(gpsdPort), "tcp://127.0.0.1:\(nmeaPort)"])
        defer { gpsd.stop(timeout: 0, signal: SIGKILL) }
        #expect(pollUntil(15) { acceptsConnections(gpsdPort) }, "gpsd did not start: \(gpsd.stderr)")

        // Our own NMEA client and gpsd's clients read the same seconds.
        let direct = LockedData()
        let reader = Thread { direct.append(Data(readTCP(port: nmeaPort, seconds: 7).utf8)) }
        reader.start()
        _ = pollUntil(0.5) { false }   // connected before gpsd's watch begins, so it sees every sentence gpsd reports
        let watch = readTCP(port: gpsdPort, seconds: 6, request: #"?WATCH={"enable":true,"json":true}"# + "\n") {
            $0.components(separatedBy: #""class":"ATT""#).count > 20
        }
        let datagrams = udp.receive(seconds: 2)
        _ = pollUntil(8) { reader.isFinished }

        // Every sentence valid; HDT present (the declination is known).
        let lines = String(decoding: direct.value, as: UTF8.self).components(separatedBy: "\r\n").dropLast()
        #expect(lines.count > 50, "\(lines.count) sentences")
        var trueHeadings: Set<String> = []
        for line in lines {
            let s = try Self.checkedSentence(line)
            #expect(["HDG", "HDM", "HDT", "ROT", "XDR"].contains(s.type) && s.talker == "HC", "\(line)")
            if s.type == "HDT" { trueHeadings.insert(s.fields[0]) }
        }
        #expect(!trueHeadings.isEmpty)

        // gpsd turns HDT into ATT reports whose heading is one Lodestone sent.
        let att = watch.split(whereSeparator: \.isNewline).filter { $0.contains(#""class":"ATT""#) }
        #expect(att.count >= 5, "gpsd's ATT reports: \(watch.prefix(600))")
        for line in att {
            let text = try #require(gpsdMemberText("heading", in: String(line)), "\(line)")
            let heading = try #require(Double(text))
            #expect(heading >= 0 && heading < 360)
            #expect(trueHeadings.contains(String(format: "%.1f", heading)), "gpsd's \(heading) was not sent: \(line)")
        }

        // Signal K deltas on UDP: one per datagram, the specification's paths, radians.
        #expect(datagrams.count >= 10, "\(datagrams.count) datagrams")
        for d in datagrams {
            let v = try JSONValue.parse(String(decoding: d, as: UTF8.self))
            let update = try #require(v["updates"]?[0])
            #expect(update["$source"]?.string == "lodestone.HC")
            let stamp = try #require(update["timestamp"]?.string)
            #expect(stamp.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil, "\(stamp)")
            var paths: [String: JSONValue] = [:]
            for item in update["values"]?.array ?? [] { paths[item["path"]?.string ?? ""] = item["value"] }
            for key in ["navigation.headingMagnetic", "navigation.headingTrue", "navigation.magneticVariation"] {
                let value = try #require(paths[key]?.double, "\(key) missing")
                #expect(abs(value) <= 2 * Double.pi)
            }
            let variation = paths["navigation.magneticVariation"]?.double ?? 0
            #expect(abs(variation - 12.8 * Double.pi / 180) < 0.01, "Sydney's variation in radians: \(variation)")
            #expect(paths["navigation.attitude"]?["roll"]?.double != nil)
        }

        // serve ends by itself; the broker got the stream and the status.
        #expect(serve.stop(timeout: 25, signal: 0) == 0, "\(serve.stderr)")   // it stops at --duration
        #expect(serve.stderr.contains("connected to the MQTT broker"), "\(serve.stderr)")
        // Updates before the broker's answer are counted as dropped; none to gpsd or the UDP listener.
        #expect(!serve.stderr.contains("NMEA 0183 on tcp://127.0.0.1:\(nmeaPort):") && !serve.stderr.contains("Signal K deltas on udp://127.0.0.1:\(udp.port): "),
                "\(serve.stderr)")
        _ = pollUntil(3) { subscriber.stdout.contains("lodestone/status offline") }
        subscriber.stop(timeout: 0, signal: SIGKILL)
        let messages = subscriber.stdout.split(separator: "\n").map(String.init)
        let headings = messages.filter { $0.hasPrefix("lodestone/heading ") }
        #expect(headings.count >= 100, "\(headings.count) heading messages of about 160")
        for m in headings.prefix(200) {
            let o = try JSONValue.parse(String(m.dropFirst("lodestone/heading ".count)))
            #expect(o["heading_mag_deg"]?.double != nil && o["heading_true_deg"]?.double != nil, "\(m)")
        }
        #expect(messages.first == "lodestone/status online", "\(messages.prefix(3))")
        // The simulated receiver's fixes, one message each.
        let fixes = messages.filter { $0.hasPrefix("lodestone/fix ") }
        #expect(!fixes.isEmpty)
        for m in fixes {
            let o = try JSONValue.parse(String(m.dropFirst("lodestone/fix ".count)))
            #expect(o["lat_deg"]?.double != nil && o["gnss_mode"]?.string != nil, "\(m)")
        }
        #expect(messages.contains { $0.hasPrefix("lodestone/event ") && $0.contains(#""event":"started""#) })
        #expect(messages.last == "lodestone/status offline", "\(messages.suffix(3))")
        // The status is retained: a late subscriber learns it at once.
        let late = try mosquittoSubscriber(port: brokerPort, topic: "lodestone/status", extra: ["-C", "1", "-W", "10"])
        _ = late.stop(timeout: 12, signal: 0)
        #expect(late.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "lodestone/status offline")
        // The region's first state: an event, and the state retained under the region's name.
        let regionEvents = messages.filter { $0.hasPrefix("lodestone/region ") }
        #expect(regionEvents.count == 1, "\(regionEvents)")
        let event = try JSONValue.parse(String(regionEvents.first?.dropFirst("lodestone/region ".count) ?? ""))
        #expect(event["region"]?.string == "here" && event["event"]?.string == "inside", "\(regionEvents)")
        #expect(event["lat_deg"]?.double != nil && event["distance_m"]?.double != nil)
        let state = try mosquittoSubscriber(port: brokerPort, topic: "lodestone/region/+", extra: ["-C", "1", "-W", "10"])
        _ = state.stop(timeout: 12, signal: 0)
        #expect(state.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "lodestone/region/here inside")
    }

    @Test("MQTT: the last will says offline when serve dies without a word",
          .enabled(if: mosquittoPath != nil && mosquittoSubPath != nil, Comment(rawValue: mosquittoMissingMessage)))
    func lastWill() throws {
        let port = freeTCPPort()
        let broker = try MosquittoBroker(port: port)
        #expect(broker.waitUntilListening(), "\(broker.log)")
        let serve = try BackgroundProcess(["serve", "--simulate", "--no-gnss", "--mqtt", "mqtt://127.0.0.1:\(port)/boat"])
        let subscriber = try mosquittoSubscriber(port: port, topic: "boat/status")
        #expect(pollUntil(15) { subscriber.stdout.contains("boat/status online") }, "\(serve.stderr)")
        serve.stop(timeout: 5, signal: SIGKILL)
        #expect(pollUntil(15) { subscriber.stdout.contains("boat/status offline") }, "\(subscriber.stdout)")
        subscriber.stop(timeout: 0, signal: SIGKILL)
    }

    @Test("MQTT: a broker not there yet, or gone for a while, is said on stderr and reached once it is back",
          .enabled(if: mosquittoPath != nil && mosquittoSubPath != nil, Comment(rawValue: mosquittoMissingMessage)))
    func reconnects() throws {
        let port = freeTCPPort()
        let serve = try BackgroundProcess(["serve", "--simulate", "--no-gnss", "--rate", "5",
                                           "--mqtt", "mqtt://127.0.0.1:\(port)/late"])
        #expect(pollUntil(15) { serve.stderr.contains("cannot reach the MQTT broker at mqtt://127.0.0.1:\(port)/late") },
                "\(serve.stderr)")
        let broker = try MosquittoBroker(port: port)
        #expect(broker.waitUntilListening(), "\(broker.log)")
        let subscriber = try mosquittoSubscriber(port: port, topic: "late/#")
        #expect(pollUntil(45) { subscriber.stdout.contains("late/heading {") }, "\(serve.stderr)")
        subscriber.stop(timeout: 0, signal: SIGKILL)
        // The broker goes away and comes back: serve says so and carries on by itself.
        broker.kill()
        #expect(pollUntil(15) { serve.stderr.contains("lost the MQTT broker") }, "\(serve.stderr)")
        let again = try MosquittoBroker(port: port)
        #expect(again.waitUntilListening(), "\(again.log)")
        let second = try mosquittoSubscriber(port: port, topic: "late/#")
        #expect(pollUntil(45) { second.stdout.contains("late/heading {") }, "\(serve.stderr)")
        second.stop(timeout: 0, signal: SIGKILL)
        #expect(serve.stop(timeout: 10) == 0)
        #expect(serve.stderr.contains("reconnected to the MQTT broker"), "\(serve.stderr)")
    }

    @Test("a real client that never reads: it loses counted updates, the reading client gets every one, memory stays flat")
    func stalledRealClient() throws {
        let port = freeTCPPort()
        let serve = try BackgroundProcess(["serve", "--simulate", "--no-gnss", "--rate", "50", "--duration", "14",
                                           "--nmea", "tcp://127.0.0.1:\(port)"] + Self.location)
        #expect(pollUntil(15) { acceptsConnections(port) }, "\(serve.stderr)")
        // A consumer that connects and never reads.
        let stalled = connectLoopback(port) { fd in
            var small: Int32 = 4096
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        }
        #expect(stalled >= 0)
        defer { close(stalled) }
        _ = pollUntil(2) { false }
        let rssEarly = residentKilobytes(serve.pid)
        let text = readTCP(port: port, seconds: 10)
        let rssLate = residentKilobytes(serve.pid)
        #expect(serve.stop(timeout: 20) == 0, "\(serve.stderr)")
        let hdm = text.components(separatedBy: "\r\n").filter { $0.hasPrefix("$HCHDM,") }
        #expect(hdm.count >= 450, "50 Hz for 10 s to the reading client: \(hdm.count)")
        // The stalled one lost updates once its queue and the kernel's small buffer were full: counted and said.
        #expect(serve.stderr.contains("dropped (slow or absent consumers): NMEA 0183 on tcp://127.0.0.1:\(port): "),
                "\(serve.stderr)")
        if let early = rssEarly, let late = rssLate {
            #expect(late - early < 2048, "resident memory grew from \(early) kB to \(late) kB")
        }
    }
}

/// VmRSS of a process, kilobytes.
func residentKilobytes(_ pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    }
    return nil
}
