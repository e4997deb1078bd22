import Platform

/// A percentage with precision that suits its size: "140", "4.8", "0.62".
func formatPercent(_ x: Double) -> String {
    let a = abs(x)
    return fixed(x, a >= 100 ? 0 : (a >= 10 ? 1 : (a >= 1 ? 1 : 2)))
}
