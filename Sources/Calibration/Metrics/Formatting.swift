/// Fixed-decimal formatting without Foundation ("12.3", "-0.50", "140").
func formatNumber(_ x: Double, decimals: Int) -> String {
    guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
    let d = max(0, min(decimals, 9))
    var scale = 1.0
    for _ in 0..<d { scale *= 10 }
    let scaled = (abs(x) * scale).rounded()
    guard scaled < 9e15 else { return String(x) }
    let whole = Int64(scaled) / Int64(scale)
    let fraction = Int64(scaled) % Int64(scale)
    var text = (x < 0 && scaled > 0 ? "-" : "") + String(whole)
    if d > 0 {
        let f = String(fraction)
        text += "." + String(repeating: "0", count: d - f.count) + f
    }
    return text
}

/// A percentage with precision that suits its size: "140", "4.8", "0.62".
func formatPercent(_ x: Double) -> String {
    let a = abs(x)
    return formatNumber(x, decimals: a >= 100 ? 0 : (a >= 10 ? 1 : (a >= 1 ? 1 : 2)))
}
