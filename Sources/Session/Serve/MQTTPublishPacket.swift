/// An MQTT 3.1.1 PUBLISH packet at QoS 0, not retained (the protocol libmosquitto speaks by default):
/// the fixed header (0x30 and the remaining length, 7 bits a byte, low first), the topic (a 16-bit
/// big-endian length, then its bytes) and the payload. No packet identifier at QoS 0. `MQTTSink`
/// writes the heading updates this way itself while it can (see `MQTTSink.publish`).
///
/// ```swift
/// var packet: [UInt8] = []
/// MQTTPublishPacket.append(topic: Array("boat/heading".utf8), payload: Array("{}".utf8), to: &packet)
/// // 0x30, 0x10, 0x00, 0x0C, "boat/heading", "{}"
/// ```
enum MQTTPublishPacket {
    /// The longest remaining length the protocol can say (four length bytes).
    static let maximumRemainingLength = 268_435_455

    /// Appends the packet to `out`; false (nothing appended) when the topic is longer than 65,535
    /// bytes or the packet longer than the protocol allows.
    @discardableResult
    static func append(topic: [UInt8], payload: [UInt8], to out: inout [UInt8]) -> Bool {
        guard topic.count <= 0xFFFF else { return false }
        var remaining = 2 + topic.count + payload.count
        guard remaining <= maximumRemainingLength else { return false }
        out.append(0x30)
        repeat {
            var byte = UInt8(remaining & 0x7F)
            remaining >>= 7
            if remaining > 0 { byte |= 0x80 }
            out.append(byte)
        } while remaining > 0
        out.append(UInt8(topic.count >> 8))
        out.append(UInt8(topic.count & 0xFF))
        out.append(contentsOf: topic)
        out.append(contentsOf: payload)
        return true
    }
}
