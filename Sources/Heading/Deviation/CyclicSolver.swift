/// Solves M · x = r for a symmetric positive-definite cyclic tridiagonal matrix M, in O(n):
/// `diagonal[i]` = M[i][i] and `offDiagonal[i]` = M[i][(i + 1) mod n] (the last one is the corner
/// element that closes the circle). The cyclic corner is removed by a rank-one (Sherman–Morrison)
/// correction of two plain tridiagonal (Thomas) solves. Returns nil for n < 3 or a singular system.
///
/// ```swift
/// let x = CyclicTridiagonal.solve(diagonal: [4, 4, 4], offDiagonal: [1, 1, 1], rhs: [6, 6, 6]) // [1, 1, 1]
/// ```
public enum CyclicTridiagonal {
    public static func solve(diagonal d: [Double], offDiagonal e: [Double], rhs r: [Double]) -> [Double]? {
        let n = d.count
        guard n >= 3, e.count == n, r.count == n, d[0] != 0 else { return nil }
        let corner = e[n - 1]
        let gamma = -d[0]
        var b = d
        b[0] = d[0] - gamma
        b[n - 1] = d[n - 1] - corner * corner / gamma
        var u = Array(repeating: 0.0, count: n)
        u[0] = gamma
        u[n - 1] = corner
        guard let x = solveTridiagonal(diagonal: b, offDiagonal: e, rhs: r),
              let z = solveTridiagonal(diagonal: b, offDiagonal: e, rhs: u) else { return nil }
        let denominator = 1 + z[0] + corner * z[n - 1] / gamma
        guard denominator != 0 else { return nil }
        let factor = (x[0] + corner * x[n - 1] / gamma) / denominator
        let solution = (0..<n).map { x[$0] - factor * z[$0] }
        return solution.allSatisfy(\.isFinite) ? solution : nil
    }
}

/// Thomas algorithm for a symmetric tridiagonal system; `offDiagonal[i]` couples i and i + 1
/// (its last element is ignored).
private func solveTridiagonal(diagonal b: [Double], offDiagonal e: [Double], rhs r: [Double]) -> [Double]? {
    let n = b.count
    var c = Array(repeating: 0.0, count: n), y = Array(repeating: 0.0, count: n)
    guard b[0] != 0 else { return nil }
    c[0] = e[0] / b[0]
    y[0] = r[0] / b[0]
    for i in 1..<n {
        let m = b[i] - e[i - 1] * c[i - 1]
        guard m != 0, m.isFinite else { return nil }
        c[i] = i < n - 1 ? e[i] / m : 0
        y[i] = (r[i] - e[i - 1] * y[i - 1]) / m
    }
    var x = y
    for i in stride(from: n - 2, through: 0, by: -1) { x[i] = y[i] - c[i] * x[i + 1] }
    return x
}
