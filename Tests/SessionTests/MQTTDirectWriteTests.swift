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

    @Test("a broker that stops reading: updates dropped and counted, and every byte it gets is whole packets")
    func stalledBroker() throws {
        // The scripted broker: a small receive buffer (inherited by the accepted socket), so the
        // window closes after a few updates.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var small: Int32 = 2048
        setsockopt(listener, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound && listen(listener, 1) == 0)
        let port = UInt16(bigEndian: address.sin_port)

        let h = try SessionHarness("mqtt-direct")
        let sink = try MQTTSink(MQTTEndpoint(host: "127.0.0.1", port: port, prefix: "t"), runtime: h.runtime("serve"))
        defer { sink.close() }
        let client = accept(listener, nil, nil)
        #expect(client >= 0)
        defer { close(client) }
        // The CONNECT, then CONNACK (session not present, accepted).
        var received: [UInt8] = []
        for _ in 0..<200 where Self.packets(received)?.first?.type != 0x10 {
            Self.drain(client, into: &received)
            usleep(1000)
        }
        #expect(Self.packets(received)?.first?.type == 0x10, "the CONNECT: \(received.prefix(16))")
        received.removeAll()
        let connack: [UInt8] = [0x20, 0x02, 0x00, 0x00]
        #expect(send(client, connack, connack.count, 0) == 4)
        var now = 0.0
        for _ in 0..<200 where !sink.isConnected {
            now += MQTTSink.readInterval
            sink.service(now: now)
            usleep(1000)
        }
        #expect(sink.isConnected)
        // The broker stops reading: 6000 updates (about 2.5 MB, past what the kernel buffers), a turn every few.
        let updates = 6000
        for k in 0..<updates {
            sink.publish(Self.report(k), fix: nil)
            if k % 5 == 4 { now += 0.1; sink.service(now: now) }
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
}
