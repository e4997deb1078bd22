import Linear

/// 16-bit words from raw register bytes, shared by the drivers' `decode` functions.
///
/// ```swift
/// let x = RegisterBytes.int16LE(bytes, 0)   // bytes[0] low, bytes[1] high
/// let field = RegisterBytes.unsaturatedVector(bytes, littleEndian: true, scale: 0.15)   // X, Y, Z words
/// ```
@usableFromInline
enum RegisterBytes {
    /// A signed word stored low byte first at `bytes[index]`, `bytes[index + 1]`.
    @inlinable @inline(__always)
    static func int16LE<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ index: Int) -> Int16 where Bytes.Index == Int {
        Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
    }

    /// A signed word stored high byte first at `bytes[index]`, `bytes[index + 1]`.
    @inlinable @inline(__always)
    static func int16BE<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ index: Int) -> Int16 where Bytes.Index == Int {
        Int16(bitPattern: UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
    }

    /// True when a 16-bit reading sits on either rail, i.e. the ADC saturated.
    @inlinable
    static func isSaturated(_ value: Int16) -> Bool { value == .max || value == .min }

    /// Three counts times `scale`, as a vector.
    @inlinable
    static func scaled(_ x: Int16, _ y: Int16, _ z: Int16, by scale: Double) -> Vector3 {
        Vector3(Double(x) * scale, Double(y) * scale, Double(z) * scale)
    }

    /// X, Y, Z 16-bit words in `bytes[offset..<offset + 6]` (low byte first when `littleEndian`)
    /// times `scale`. Nil when `bytes` is short or any axis sits on a rail (saturated).
    @inlinable @inline(__always)
    static func unsaturatedVector<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at offset: Int = 0, littleEndian: Bool,
                                                                       scale: Double) -> Vector3? where Bytes.Index == Int {
        guard offset >= 0, bytes.count >= offset + 6 else { return nil }
        let x, y, z: Int16
        if littleEndian {
            x = int16LE(bytes, offset); y = int16LE(bytes, offset + 2); z = int16LE(bytes, offset + 4)
        } else {
            x = int16BE(bytes, offset); y = int16BE(bytes, offset + 2); z = int16BE(bytes, offset + 4)
        }
        if isSaturated(x) || isSaturated(y) || isSaturated(z) { return nil }
        return scaled(x, y, z, by: scale)
    }
}
