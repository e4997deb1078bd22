/// 16-bit words from raw register bytes, shared by the drivers' `decode` functions.
///
/// ```swift
/// let x = RegisterBytes.int16LE(bytes, 0)   // bytes[0] low, bytes[1] high
/// ```
@usableFromInline
enum RegisterBytes {
    /// A signed word stored low byte first at `bytes[index]`, `bytes[index + 1]`.
    @inlinable
    static func int16LE(_ bytes: [UInt8], _ index: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
    }

    /// A signed word stored high byte first at `bytes[index]`, `bytes[index + 1]`.
    @inlinable
    static func int16BE(_ bytes: [UInt8], _ index: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
    }

    /// True when a 16-bit reading sits on either rail, i.e. the ADC saturated.
    @inlinable
    static func isSaturated(_ value: Int16) -> Bool { value == .max || value == .min }
}
