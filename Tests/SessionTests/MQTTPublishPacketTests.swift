@testable import Session
import Testing

/// The PUBLISH packets `MQTTSink` writes itself (MQTT 3.1.1, QoS 0): byte for byte, and the
/// remaining length's 7-bit groups at each boundary.
@Suite("MQTT publish packets")
struct MQTTPublishPacketTests {
    @Test("a short packet: 0x30, the remaining length, the topic's length and bytes, the payload")
    func shortPacket() {
        var packet: [UInt8] = [0xAA]   // appended after what is there
        #expect(MQTTPublishPacket.append(topic: Array("boat/heading".utf8), payload: Array("{}".utf8), to: &packet))
        #expect(packet == [0xAA, 0x30, 16, 0x00, 12] + Array("boat/heading".utf8) + Array("{}".utf8))
    }

    /// The remaining length read back from a packet (the protocol's decoding), and its length bytes.
    static func remainingLength(_ packet: [UInt8]) -> (value: Int, bytes: Int) {
        var value = 0, shift = 0, i = 1
        while true {
            let b = packet[i]
            value |= Int(b & 0x7F) << shift
            i += 1
            if b & 0x80 == 0 { break }
            shift += 7
        }
        return (value, i - 1)
    }

    @Test("the remaining length at the one-, two- and three-byte boundaries", arguments: [
        (124, 1), (125, 2), (16_380, 2), (16_381, 3), (0, 1),
    ])
    func lengthBoundaries(payloadCount: Int, lengthBytes: Int) {
        // Topic "t": 2 + 1 bytes before the payload, so the remaining length is payload + 3.
        var packet: [UInt8] = []
        let payload = [UInt8](repeating: 0x41, count: payloadCount)
        #expect(MQTTPublishPacket.append(topic: [0x74], payload: payload, to: &packet))
        let (value, bytes) = Self.remainingLength(packet)
        #expect(value == payloadCount + 3)
        #expect(bytes == lengthBytes)
        #expect(packet.count == 1 + bytes + value, "the remaining length counts every byte after it")
        #expect(Array(packet[(1 + bytes)...].prefix(3)) == [0x00, 0x01, 0x74])
        #expect(packet.last == (payloadCount > 0 ? 0x41 : 0x74))
    }

    @Test("a topic longer than its 16-bit length can say is refused, nothing appended")
    func topicTooLong() {
        var packet: [UInt8] = []
        #expect(!MQTTPublishPacket.append(topic: [UInt8](repeating: 0x61, count: 65_536), payload: [], to: &packet))
        #expect(packet.isEmpty)
        #expect(MQTTPublishPacket.append(topic: [UInt8](repeating: 0x61, count: 65_535), payload: [], to: &packet))
        #expect(Array(packet[4...5]) == [0xFF, 0xFF])
    }
}
