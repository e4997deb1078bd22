// Decimal text for numbers, without Foundation. The project's only number formatters: use these
// rather than scaling by powers of ten and rounding by hand.
//
// Two forms, one set of rules:
// - `fixed(value, decimals)`: exactly `decimals` digits after the point, for people (terminal,
//   reports, SVG coordinates).
// - `plain(value)` and `plain(value, decimals:)`: the shortest text that reads back as the value
//   (optionally rounded first to at most `decimals` places), without exponent notation, for files
//   that programs read (CSV, JSON).
//
// Rules shared by both:
// - Rounding is half away from zero, applied to the shortest decimal form of the `Double` (the
//   digits `print` shows), so `fixed(2.675, 2)` is "2.68" and `fixed(1.005, 2)` is "1.01", as a
//   person reading the value would round it.
// - No negative zero: a value that is, or rounds to, zero is written without a sign ("0.0", "0").
// - Any finite magnitude is written in full, never in exponent notation:
//   `fixed(1e20, 1)` is "100000000000000000000.0".
// - Non-finite values are not numbers and are never dressed up as one: NaN is "nan", +∞ is "inf"
//   and −∞ is "-inf", from every function here. Callers that want a placeholder ("-", an empty CSV
//   cell, JSON `null`) check `isFinite` first.
//
// How: the digits are made from an integer, `n = round(|value| × 10^d)`, written straight into the
// caller's buffer (`appendFixed`, `appendPlain`) or a stack buffer (`fixed`, `plain`), without
// going through `Double.description`. That is exact whenever the scaled value is far enough from a
// rounding tie that the shortest decimal form and the binary value round the same way (the two
// differ by less than 2⁻⁵¹ of it), and `n` is below 2⁵¹. A value nearer a tie is told by the tie
// itself (`FastDecimal.nearTie`): the decimal k + ½ in the last kept place, read as a `Double` (an
// exact division), is the value when the shortest digits are that tie (rounded away from zero),
// and otherwise lies on the other side of the value than the shortest digits do. Coordinates
// given to 9 places and written to 8 (gpsd's, the simulated receiver's) are such ties one time in
// ten. Huge or tiny values take the reference path over `Double.description`'s digits. The shortest form of
// `plain(value)` is the first `d` for which `round(|value| × 10^d) / 10^d` is `value` again (an
// exact test: both operands are exact and the division rounds correctly, as reading the text
// back does).

/// `value` with exactly `decimals` digits after the point (a negative `decimals` counts as 0),
/// rounded half away from zero; see the rules above for NaN, ±∞ and −0.
///
/// ```swift
/// fixed(12.345, 2)   // "12.35"
/// fixed(9.96, 1)     // "10.0"
/// fixed(-0.001, 1)   // "0.0"
/// out.write("declination " + fixed(field.declination, 2) + "°\n")
/// ```
public func fixed(_ value: Double, _ decimals: Int) -> String {
    let decimals = max(0, decimals)
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: FastDecimal.capacity) { buffer in
        if let count = FastDecimal.write(value, decimals: decimals, trimmed: false, into: buffer) {
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
        return referenceFixed(value, decimals)
    }
}

/// The shortest text that reads back as the same `Double`, without exponent notation so
/// spreadsheets read it as a plain number; see the rules above for NaN, ±∞ and −0.
///
/// ```swift
/// plain(151.199)   // "151.199"
/// plain(3.0)       // "3"
/// plain(1.5e-5)    // "0.000015"
/// ```
public func plain(_ value: Double) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: FastDecimal.capacity) { buffer in
        if let count = FastDecimal.writeShortest(value, into: buffer) {
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
        return referencePlain(value)
    }
}

/// `value` rounded half away from zero to at most `decimals` places, in its shortest form: trailing
/// zeros are dropped, so this is `fixed(value, decimals)` without them. For CSV and JSON columns
/// with a fixed resolution; see the rules above for NaN, ±∞ and −0.
///
/// ```swift
/// plain(151.19949, decimals: 3)   // "151.199"
/// plain(2.5, decimals: 3)         // "2.5"
/// plain(-0.0004, decimals: 3)     // "0"
/// ```
public func plain(_ value: Double, decimals: Int) -> String {
    let decimals = max(0, decimals)
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: FastDecimal.capacity) { buffer in
        if let count = FastDecimal.write(value, decimals: decimals, trimmed: true, into: buffer) {
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
        return referencePlain(value, decimals: decimals)
    }
}

/// Appends `fixed(value, decimals)` to `out` without making a `String`: for writers that build a
/// line of bytes (the log, JSON, NMEA).
///
/// ```swift
/// var line: [UInt8] = []
/// appendFixed(12.345, 2, to: &line)   // "12.35"
/// ```
public func appendFixed(_ value: Double, _ decimals: Int, to out: inout [UInt8]) {
    let decimals = max(0, decimals)
    // The usual case written here, `FastDecimal.write`'s steps for a finite value; the rest (non-finite
    // values, the reference path) in a function of its own, so the code an NMEA sentence runs is short.
    if value.isFinite, let n = FastDecimal.scaledInteger(value.magnitude, decimals) {
        FastDecimal.append(n, places: decimals, negative: value < 0, to: &out)
        return
    }
    appendFixedRarely(value, decimals, to: &out)
}

/// `appendFixed` for a non-finite value or one the fast path cannot tell.
@inline(never)
private func appendFixedRarely(_ value: Double, _ decimals: Int, to out: inout [UInt8]) {
    out.append(contentsOf: (value.isFinite ? referenceFixed(value, decimals) : nonFiniteText(value)).utf8)
}

/// Appends `plain(value, decimals: decimals)` to `out` without making a `String`.
///
/// ```swift
/// appendPlain(151.19949, decimals: 3, to: &line)   // "151.199"
/// ```
public func appendPlain(_ value: Double, decimals: Int, to out: inout [UInt8]) {
    let decimals = max(0, decimals)
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: FastDecimal.capacity) { buffer in
        if let count = FastDecimal.write(value, decimals: decimals, trimmed: true, into: buffer) {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        } else {
            out.append(contentsOf: referencePlain(value, decimals: decimals).utf8)
        }
    }
}

/// Appends `plain(value)` (the shortest text that reads back as `value`) to `out`.
///
/// ```swift
/// appendPlain(-33.8694, to: &line)   // "-33.8694"
/// ```
public func appendPlain(_ value: Double, to out: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: FastDecimal.capacity) { buffer in
        if let count = FastDecimal.writeShortest(value, into: buffer) {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        } else {
            out.append(contentsOf: referencePlain(value).utf8)
        }
    }
}

/// Appends `plain(roundedToDecimals(value, decimals))` to `out`: the shortest text of the value
/// rounded to `decimals` places (a JSON number at a fixed resolution), made from the rounded digits
/// directly. Those are the shortest text whenever they have at most 15 significant digits (two
/// decimals that short never read back as the same `Double`); longer ones go through
/// `roundedToDecimals`, so the bytes are always the same.
///
/// ```swift
/// appendRounded(151.19949, 3, to: &line)   // "151.199"
/// appendRounded(-0.0004, 3, to: &line)     // "0"
/// ```
public func appendRounded(_ value: Double, _ decimals: Int, to out: inout [UInt8]) {
    let decimals = max(0, decimals)
    if value.isFinite, var n = FastDecimal.scaledInteger(value.magnitude, decimals) {
        var places = decimals
        while places > 0, n % 10 == 0 { n /= 10; places -= 1 }
        if n < 1_000_000_000_000_000 {
            FastDecimal.append(n, places: places, negative: value < 0, to: &out)
            return
        }
    }
    appendPlain(roundedToDecimals(value, decimals), to: &out)
}

/// The `Double` nearest to `plain(value, decimals: decimals)`: `value` rounded to `decimals` places
/// as a number (for JSON values and simulated readings of printed digits). Non-finite values are
/// returned unchanged, and zero is always +0.
///
/// ```swift
/// roundedToDecimals(151.19949, 3)   // 151.199
/// ```
public func roundedToDecimals(_ value: Double, _ decimals: Int) -> Double {
    guard value.isFinite else { return value }
    let decimals = max(0, decimals)
    if let n = FastDecimal.scaledInteger(value.magnitude, decimals) {
        // n and 10^d are exact, so the quotient is the double nearest to the decimal, as reading it is.
        let magnitude = Double(n) / FastDecimal.powerOfTen(decimals)
        return n == 0 ? 0 : (value < 0 ? -magnitude : magnitude)
    }
    return Double(referencePlain(value, decimals: decimals)) ?? value
}

/// The fast path: decimal digits from one rounded integer, straight into a byte buffer.
enum FastDecimal {
    /// Bytes a fast result may need: a sign, 16 integer digits, the point, 22 decimals.
    static let capacity = 48
    /// The largest scale with an exact power of ten (10²² is the last one a `Double` holds).
    static let maximumDecimals = 22
    /// 10^d for 0 ≤ d ≤ 22 (`maximumDecimals`), all exact. A switch over constants (a table in the
    /// binary's read-only data), not a lazily made array: each of serve's two dozen numbers an
    /// update paid a `swift_once` check and a read of the array's heap storage for it.
    @inline(__always)
    static func powerOfTen(_ d: Int) -> Double {
        switch d {
        case 0: return 1
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        default: return 1e22
        }
    }
    /// Scaled values at or above this take the reference path: below it, the shortest decimal form
    /// and the binary value differ by less than a quarter in the last kept place.
    static let limit = 0x1p51

    /// `round(magnitude × 10^decimals)` half away from zero as the shortest decimal form rounds, or
    /// nil when that cannot be told here (out of range, or near a tie too large to tell).
    @inline(__always)
    static func scaledInteger(_ magnitude: Double, _ decimals: Int) -> UInt64? {
        guard decimals <= maximumDecimals else { return nil }
        let s = magnitude * powerOfTen(decimals)
        guard s < limit else { return nil }
        let whole = s.rounded(.down)
        let fraction = s - whole   // exact below 2⁵²
        // |shortest × 10^d − s| < 2⁻⁵¹·s (half an ulp of the value, and the product's rounding).
        guard abs(fraction - 0.5) > s * 0x1p-50 else { return nearTie(magnitude, decimals, whole: whole) }
        return UInt64(whole) + (fraction > 0.5 ? 1 : 0)
    }

    /// `scaledInteger` for a scaled value within 2⁻⁵⁰ of itself of `whole + ½`: the tie
    /// t = (10·whole + 5) / 10^(decimals+1), divided as reading its text does (both operands exact,
    /// the quotient correctly rounded), is `magnitude` exactly when t's digits are the shortest
    /// form (no shorter decimal lies within half an ulp: the scaled value is a quarter from any
    /// integer, and below 2⁴⁸ half an ulp is under a thirtieth); then it rounds away from zero.
    /// Otherwise t lies outside the values that read as `magnitude`, so the shortest digits are on
    /// the value's side of t, and rounding is monotonic: t read below the value means above the
    /// tie, up; above, down. Nil beyond 2⁴⁸ or at 22 places (10²³ is not exact): the reference path.
    @inline(never)
    static func nearTie(_ magnitude: Double, _ decimals: Int, whole: Double) -> UInt64? {
        guard decimals < maximumDecimals, whole < 0x1p48 else { return nil }
        let tie = (whole * 10 + 5) / powerOfTen(decimals + 1)
        return UInt64(whole) + (tie <= magnitude ? 1 : 0)
    }

    /// Writes `value` with `decimals` places (trailing zeros dropped when `trimmed`); the byte
    /// count, or nil when the reference path must answer.
    @inline(__always)
    static func write(_ value: Double, decimals: Int, trimmed: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard value.isFinite else { return nonFinite(value, into: buffer) }
        guard var n = scaledInteger(value.magnitude, decimals) else { return nil }
        var places = decimals
        if trimmed { while places > 0, n % 10 == 0 { n /= 10; places -= 1 } }
        return digits(n, places: places, negative: value < 0, into: buffer)
    }

    /// Writes the shortest text that reads back as `value`; nil for the reference path (values
    /// of 2⁵¹ and more, or needing more than 22 decimals).
    @inline(__always)
    static func writeShortest(_ value: Double, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard value.isFinite else { return nonFinite(value, into: buffer) }
        let magnitude = value.magnitude
        if magnitude == 0 { buffer[0] = UInt8(ascii: "0"); return 1 }
        for places in 0...maximumDecimals {
            let p = powerOfTen(places)
            let s = magnitude * p
            guard s < limit else { return nil }
            // Below 2⁵¹ at most one integer lies within half an ulp of s, and it is the nearest.
            let n = s.rounded(.toNearestOrAwayFromZero)
            if n / p == magnitude {
                return digits(UInt64(n), places: places, negative: value < 0, into: buffer)
            }
        }
        return nil
    }

    /// `n / 10^places` in decimal: the integer part (at least "0"), then the point and exactly
    /// `places` digits; a minus sign unless the number is zero.
    @inline(__always)
    static func digits(_ n: UInt64, places: Int, negative: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        // Written backwards from the end of the buffer, then moved to its start.
        let i = digitsAtEnd(n, places: places, negative: negative, into: buffer)
        let count = capacity - i
        if i > 0, let base = buffer.baseAddress { base.update(from: base + i, count: count) }
        return count
    }

    /// Appends `digits`' text to `out`, from where it was written at the end of a stack buffer (no
    /// move): the byte writers' (`appendFixed`, `appendRounded`) one way of adding digits.
    @inline(__always)
    static func append(_ n: UInt64, places: Int, negative: Bool, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let start = digitsAtEnd(n, places: places, negative: negative, into: buffer)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<capacity]))
        }
    }

    /// `digits`' text at the end of the buffer (`capacity` bytes), not moved: where it starts.
    @inline(__always)
    static func digitsAtEnd(_ n: UInt64, places: Int, negative: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var i = capacity
        var rest = n
        if places > 0 {
            for _ in 0..<places {
                i -= 1
                buffer[i] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
                rest /= 10
            }
            i -= 1
            buffer[i] = UInt8(ascii: ".")
        }
        repeat {
            i -= 1
            buffer[i] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
            rest /= 10
        } while rest > 0
        if negative, n != 0 {
            i -= 1
            buffer[i] = UInt8(ascii: "-")
        }
        return i
    }

    @inline(__always)
    static func nonFinite(_ value: Double, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in nonFiniteText(value).utf8 { buffer[count] = byte; count += 1 }
        return count
    }
}

/// The reference `fixed`: rounds the digits of `Double.description`. Exact for every value; the
/// fast path hands it the values it cannot tell (and the tests compare the two).
func referenceFixed(_ value: Double, _ decimals: Int) -> String {
    guard let digits = DecimalDigits(value) else { return nonFiniteText(value) }
    return digits.rounded(to: max(0, decimals)).text(decimals: max(0, decimals))
}

/// The reference `plain(value)` and `plain(value, decimals:)`, over `Double.description`'s digits.
func referencePlain(_ value: Double, decimals: Int? = nil) -> String {
    guard let digits = DecimalDigits(value) else { return nonFiniteText(value) }
    return (decimals.map { digits.rounded(to: max(0, $0)) } ?? digits).text(decimals: nil)
}

private func nonFiniteText(_ value: Double) -> String {
    value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf")
}

/// A finite `Double` as its shortest decimal digits: value = ±0.d₁d₂…dₙ × 10^pointPosition.
private struct DecimalDigits {
    var negative: Bool
    /// Significant digits, most significant first, as values 0…9; empty for zero.
    var digits: [UInt8]
    /// How many of `digits` stand before the decimal point (may be negative or exceed the count).
    var point: Int

    init?(_ value: Double) {
        guard value.isFinite else { return nil }
        negative = value < 0
        digits = []
        point = 0
        // Swift's description is the shortest round-tripping form: "123.45", "1e-05", "1.5e+20".
        var mantissa = Substring(value.magnitude.description)
        var exponent = 0
        if let e = mantissa.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(mantissa[mantissa.index(after: e)...]) ?? 0
            mantissa = mantissa[..<e]
        }
        var beforePoint = 0
        var seenPoint = false
        for c in mantissa.utf8 {
            if c == UInt8(ascii: ".") { seenPoint = true; continue }
            digits.append(c &- UInt8(ascii: "0"))
            if !seenPoint { beforePoint += 1 }
        }
        point = beforePoint + exponent
        // Strip leading zeros (moving the point) and trailing zeros.
        while let first = digits.first, first == 0 { digits.removeFirst(); point -= 1 }
        while let last = digits.last, last == 0 { digits.removeLast() }
        if digits.isEmpty { negative = false; point = 0 }
    }

    /// Rounded half away from zero to `decimals` places after the point.
    func rounded(to decimals: Int) -> DecimalDigits {
        let keep = point + decimals   // digits that stay
        guard keep < digits.count else { return self }
        var r = self
        guard keep >= 0 else { r.digits = []; r.negative = false; r.point = 0; return r }
        let roundUp = digits[keep] >= 5
        r.digits = Array(digits[..<keep])
        if roundUp {
            var i = r.digits.count - 1
            while i >= 0, r.digits[i] == 9 { r.digits[i] = 0; i -= 1 }
            if i >= 0 {
                r.digits[i] += 1
            } else {
                r.digits.insert(1, at: 0)   // 9.96 → 10.0
                r.point += 1
            }
        }
        while let last = r.digits.last, last == 0 { r.digits.removeLast() }
        if r.digits.isEmpty { r.negative = false; r.point = 0 }
        return r
    }

    /// The digits with exactly `decimals` places after the point, or as few as needed when nil.
    func text(decimals: Int?) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(digits.count + 8)
        if negative { out.append(UInt8(ascii: "-")) }
        func digit(_ i: Int) -> UInt8 { i >= 0 && i < digits.count ? digits[i] + UInt8(ascii: "0") : UInt8(ascii: "0") }
        if point <= 0 {
            out.append(UInt8(ascii: "0"))
        } else {
            for i in 0..<point { out.append(digit(i)) }
        }
        let places = decimals ?? max(0, digits.count - point)
        if places > 0 {
            out.append(UInt8(ascii: "."))
            for i in point..<(point + places) { out.append(digit(i)) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
