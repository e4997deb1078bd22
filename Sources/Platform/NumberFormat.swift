/// Fixed-point formatting without Foundation: `fixed(12.345, 2)` is "12.35", `fixed(-0.001, 1)` is "0.0".
///
/// ```swift
/// out.write("declination " + fixed(field.declination, 2) + "°\n")
/// ```
public func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
    let digits = max(0, min(decimals, 15))
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return String(value) }
    let n = Int64(scaled)
    let whole = n / Int64(scale)
    let fraction = n % Int64(scale)
    var text = String(whole)
    if digits > 0 {
        let f = String(fraction)
        text += "." + String(repeating: "0", count: digits - f.count) + f
    }
    return (value < 0 && n != 0 ? "-" : "") + text
}

/// Shortest text that reads back as the same `Double` (for CSV and JSON), without exponent notation
/// so spreadsheets read it as a plain number: `plain(151.199)` is "151.199", `plain(3.0)` is "3",
/// `plain(1.5e-5)` is "0.000015". Non-finite values give "".
public func plain(_ value: Double) -> String {
    guard value.isFinite else { return "" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    let text = String(value)
    guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...])
    else { return text }
    // Move the decimal point of the shortest digits by the exponent.
    var mantissa = String(text[..<e])
    let negative = mantissa.hasPrefix("-")
    if negative { mantissa.removeFirst() }
    let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    let whole = String(parts[0])
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    let digits = whole + fraction
    let point = whole.count + exponent
    var out: String
    if point <= 0 {
        out = "0." + String(repeating: "0", count: -point) + digits
    } else if point >= digits.count {
        out = digits + String(repeating: "0", count: point - digits.count)
    } else {
        out = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
    }
    while out.contains("."), out.hasSuffix("0") { out.removeLast() }
    if out.hasSuffix(".") { out.removeLast() }
    return (negative ? "-" : "") + out
}
