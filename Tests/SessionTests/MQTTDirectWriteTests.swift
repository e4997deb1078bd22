import Glibc
import Heading
import JSON
import Outputs
@testable import Session
import Testing
import TestSupport

/// `MQTTSink` writes heading updates to the broker's socket itself (plain TCP): against a scripted
/// broker on loopback that answers the CONNECT and then stops reading, with a tiny receive window,
/// the packets the socket takes only in part must never be interleaved with anything else.
@Suite("MQTT heading updates written directly")
struct MQTTDirectWriteTests {
    /// One MQTT packet: its first byte and its body.
    struct Packet { var type: UInt8; var body: [UInt8] }

    /// Splits a byte stream into MQTT packets; nil when it is not a whole sequence of packets.
    static func packets(_ bytes: [UInt8]) -> [Packet]? {
        var out: [Packet] = []
        var i = 0
        while i < bytes.count {
            let type = bytes[i]
            var length = 0, shift = 0, j = i + 1
            while true {
                guard j < bytes.count, shift <= 21 else { return nil }
                length |= Int(bytes[j] & 0x7F) << shift
                j += 1
                if bytes[j - 1] & 0x80 == 0 { break }
                shift += 7
            }
            guard j + length <= bytes.count else { return nil }
            out.append(Packet(type: type, body: Array(bytes[j..<(j + length)])))
            i = j + length
        }
        return out
    }

    static func report(_ k: Int) -> HeadingReport {
        let e = HeadingEstimate(monotonic: Double(k), wall: 1_795_000_000 + Double(k), magneticHeading: Double(k % 360), trueHeading: nil,
                                rawMagneticHeading: Double(k % 360), accuracy: 1.1, trueAccuracy: nil, declination: nil,
                                declinationSource: .none, deviation: 0, fieldStrength: 57, horizontalField: 24,
                                inclination: -64, tilt: Tilt(roll: 1.5, pitch: -2.5), turnRate: 3.2, flags: [])
        return HeadingReport(e)
    }

    /// Reads what is there now, without waiting.
    static func drain(_ fd: Int32, into bytes: inout [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { return }
            bytes += buffer[..<n]
        }
    }

    /// A scripted broker on loopback with a tiny receive window (inherited by the accepted socket).
    final class ScriptedBroker {
        let listener: Int32
        let port: UInt16

        init() {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var small: Int32 = 2048
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            Glibc.listen(fd, 4)
            listener = fd
            port = UInt16(bigEndian: address.sin_port)
        }

        deinit { close(listener) }

        /// Accepts the next connection, reads its CONNECT and answers CONNACK (accepted); -1 when
        /// none came or it was not a CONNECT.
        func acceptSession() -> Int32 {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return -1 }
            var received: [UInt8] = []
            for _ in 0..<500 where MQTTDirectWriteTests.packets(received)?.first?.type != 0x10 {
                MQTTDirectWriteTests.drain(client, into: &received)
                usleep(1000)
            }
            let connack: [UInt8] = [0x20, 0x02, 0x00, 0x00]
            guard MQTTDirectWriteTests.packets(received)?.first?.type == 0x10, send(client, connack, 4, 0) == 4 else {
                close(client)
                return -1
            }
            return client
        }
    }

    /// Runs the sink's turns until the broker's CONNACK is taken; returns the time reached.
    static func serviceUntilConnected(_ sink: MQTTSink, from start: Double) -> Double {
        var now = start
        for _ in 0..<200 where !sink.isConnected {
            now += MQTTSink.readInterval
            sink.service(now: now)
            usleep(1000)
        }
        return now
    }

    @Test("a broker that stops reading: updates dropped and counted, and every byte it gets is whole packets")
    func stalledBroker() throws {
        let broker = ScriptedBroker()
        let h = try SessionHarness("mqtt-direct")
        let sink = try MQTTSink(MQTTEndpoint(host: "127.0.0.1", port: broker.port, prefix: "t"), runtime: h.runtime("serve"))
        defer { sink.close() }
        let client = broker.acceptSession()
        #expect(client >= 0, "the CONNECT")
        defer { close(client) }
        var received: [UInt8] = []
        var now = Self.serviceUntilConnected(sink, from: 0)
        #expect(sink.isConnected)
        // The broker stops reading: 6000 updates (about 2.5 MB, past what the kernel buffers), a turn every few.
        let updates = 6000
        for k in 0..<updates {
            sink.publish(Self.report(k), fix: nil)
            if k % 5 == 4 { now += 0.01; sink.service(now: now) }   // 12 s in all: within the stall limit
        }
        #expect(sink.dropped > 0, "the window closed: updates dropped and counted")
        #expect(sink.directlyWritten > 0)
        // It reads again: what was half sent is finished, then the rest flows.
        for _ in 0..<400 {
            Self.drain(client, into: &received)
            now += 0.1
            sink.service(now: now)
            usleep(2000)
        }
        for k in updates..<(updates + 20) {
            sink.publish(Self.report(k), fix: nil)
            Self.drain(client, into: &received)
        }
        for _ in 0..<20 { Self.drain(client, into: &received); usleep(2000) }
        let parsed = Self.packets(received)
        let packets = try #require(parsed, "the stream is whole packets (\(received.count) bytes)")
        let headings = packets.filter { $0.type == 0x30 }
        for p in headings {
            let topicLength = Int(p.body[0]) << 8 | Int(p.body[1])
            #expect(String(decoding: p.body[2..<(2 + topicLength)], as: UTF8.self) == "t/heading")
            let json = try JSONValue.parse(String(decoding: p.body[(2 + topicLength)...], as: UTF8.self))
            #expect(json["heading_mag_deg"]?.double != nil)
        }
        // Every update either reached the broker or was counted dropped.
        #expect(headings.count + sink.dropped == updates + 20, "\(headings.count) delivered, \(sink.dropped) dropped")
        #expect(headings.count >= 20, "the updates after the stall went out")
        #expect(packets.allSatisfy { [0x30, 0x33, 0xC0, 0xE0].contains($0.type) }, "\(Set(packets.map(\.type)))")
    }

    @Test("a broker that takes nothing for the stall limit: the connection is given up, said, and made again")
    func brokerStalledPastTheLimit() throws {
        let broker = ScriptedBroker()
        let h = try SessionHarness("mqtt-stall")
        let sink = try MQTTSink(MQTTEndpoint(host: "127.0.0.1", port: broker.port, prefix: "t"), runtime: h.runtime("serve"))
        defer { sink.close() }
        let first = broker.acceptSession()
        #expect(first >= 0)
        defer { close(first) }
        var now = Self.serviceUntilConnected(sink, from: 0)
        #expect(sink.isConnected)
        // Updates until a packet waits, then turns for just under the limit: still connected.
        for k in 0..<6000 where sink.dropped == 0 { sink.publish(Self.report(k), fix: nil) }
        #expect(sink.dropped > 0, "a packet waits for the socket")
        let stalledAt = now + 0.1
        now = stalledAt
        sink.service(now: now)
        sink.service(now: stalledAt + MQTTSink.stallLimit - 1)
        #expect(sink.isConnected)
        #expect(!h.diagnostics.text.contains("took nothing"))
        // At the limit: given up, said, and a new connection made (libmosquitto's keep-alive would have).
        sink.service(now: stalledAt + MQTTSink.stallLimit)
        #expect(!sink.isConnected)
        #expect(h.diagnostics.text.contains("the MQTT broker took nothing for 45 s; reconnecting"), "\(h.diagnostics.text)")
        let second = broker.acceptSession()
        #expect(second >= 0, "a second CONNECT")
        defer { close(second) }
        now = Self.serviceUntilConnected(sink, from: stalledAt + MQTTSink.stallLimit)
        #expect(sink.isConnected, "connected again")
        // The old connection was closed by the sink: its reader sees the end after what was sent.
        var rest: [UInt8] = []
        var ended = false
        for _ in 0..<2000 where !ended {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let n = buffer.withUnsafeMutableBytes { recv(first, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { rest += buffer[..<n] } else if n == 0 { ended = true } else { usleep(1000) }
        }
        #expect(ended, "the stalled connection was closed (\(rest.count) bytes read after the stall)")
        // The new connection carries whole packets from the first byte.
        let before = sink.directlyWritten
        for k in 0..<5 { sink.publish(Self.report(k), fix: nil) }
        #expect(sink.directlyWritten == before + 5)
        var fresh: [UInt8] = []
        for _ in 0..<50 { Self.drain(second, into: &fresh); usleep(1000) }
        let parsed = Self.packets(fresh)
        let packets = try #require(parsed, "whole packets (\(fresh.count) bytes)")
        #expect(packets.filter { $0.type == 0x30 }.count == 5)
    }
}
