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

/// Shortest text that reads back as the same `Double` (for CSV and JSON), without exponent for
/// ordinary magnitudes: `plain(151.199)` is "151.199", `plain(3.0)` is "3".
public func plain(_ value: Double) -> String {
    guard value.isFinite else { return "" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    let s = String(value)
    guard s.contains("e") else { return s }
    // Expand exponent notation (1e-05 → 0.00001) so spreadsheets read it as a plain number.
    var digits = 17
    while digits > 1, Double(fixed(value, digits - 1)) == value { digits -= 1 }
    return fixed(value, digits)
}
