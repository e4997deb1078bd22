import Glibc

/// Reads decimal numbers straight from bytes, exactly, without building Strings.
///
/// The common case — at most 15 significant digits and a power of ten up to 10²² — is converted with
/// one exact division or multiplication, which rounds correctly because both operands are exact
/// doubles. Anything longer goes through `strtod`. Only plain decimals are accepted (an optional sign,
/// digits, one point, an optional exponent); "nan", "inf" and hex floats are rejected.
///
/// ```swift
/// "151.199".utf8.withContiguousStorageIfAvailable { NumberParser.parse($0) }   // 151.199
/// ```
public enum NumberParser {
    /// The finite value of a non-empty field, or nil when it is not a plain decimal number.
    @inline(__always)
    public static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        let n = b.count
        guard n > 0, n < 64 else { return nil }
        var i = 0
        var negative = false
        if b[0] == 45 { negative = true; i = 1 } else if b[0] == 43 { i = 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        while i < n {
            let c = b[i]
            if c >= 48 && c <= 57 {
                sawDigit = true
                if mantissa != 0 || c != 48 { significant += 1 }
                if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(c - 48) }
                if sawPoint { fractionDigits += 1 }
            } else if c == 46 && !sawPoint {
                sawPoint = true
            } else {
                break
            }
            i += 1
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if i < n {
            guard b[i] == 101 || b[i] == 69 else { return nil }
            i += 1
            var expNegative = false
            if i < n && (b[i] == 45 || b[i] == 43) { expNegative = b[i] == 45; i += 1 }
            let start = i
            while i < n, b[i] >= 48, b[i] <= 57 {
                if exponent < 10_000 { exponent = exponent * 10 + Int(b[i] - 48) }
                i += 1
            }
            guard i == n, i > start else { return nil }
            if expNegative { exponent = -exponent }
        }
        let power = exponent - fractionDigits
        if significant <= 15 && power >= -22 && power <= 22 {
            var v = Double(mantissa)
            if power < 0 { v /= exactPowers[-power] } else if power > 0 { v *= exactPowers[power] }
            return negative ? -v : v
        }
        return slow(b)
    }

    /// The powers of ten that are exact doubles.
    private static let exactPowers: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Correctly rounded conversion of an already validated plain decimal.
    private static func slow(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var text = [CChar](repeating: 0, count: b.count + 1)
        for i in 0..<b.count { text[i] = CChar(bitPattern: b[i]) }
        let v = text.withUnsafeBufferPointer { strtod($0.baseAddress!, nil) }
        return v.isFinite ? v : nil
    }
}
