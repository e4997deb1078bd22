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
    guard let digits = DecimalDigits(value) else { return nonFiniteText(value) }
    return digits.rounded(to: max(0, decimals)).text(decimals: max(0, decimals))
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
    guard let digits = DecimalDigits(value) else { return nonFiniteText(value) }
    return digits.text(decimals: nil)
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
    guard let digits = DecimalDigits(value) else { return nonFiniteText(value) }
    return digits.rounded(to: max(0, decimals)).text(decimals: nil)
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
    return Double(plain(value, decimals: decimals)) ?? value
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
