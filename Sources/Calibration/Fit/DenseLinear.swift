/// A small dense square matrix (row-major) for normal equations of at most ~10 unknowns.
struct DenseMatrix: Sendable {
    let n: Int
    var a: [Double]

    init(n: Int) {
        self.n = n
        a = [Double](repeating: 0, count: n * n)
    }

    subscript(i: Int, j: Int) -> Double {
        get { a[i * n + j] }
        set { a[i * n + j] = newValue }
    }

    /// Adds `w · row rowᵀ` (upper triangle only; call `symmetrize()` when done).
    mutating func addOuterUpper(_ row: [Double], weight w: Double = 1) {
        for i in 0..<n {
            let ri = w * row[i]
            if ri == 0 { continue }
            for j in i..<n { a[i * n + j] += ri * row[j] }
        }
    }

    mutating func symmetrize() {
        for i in 0..<n { for j in 0..<i { a[i * n + j] = a[j * n + i] } }
    }

    var diagonal: [Double] { (0..<n).map { a[$0 * n + $0] } }

    var isFinite: Bool { a.allSatisfy(\.isFinite) }
}

extension DenseMatrix {
    /// The inverse, column by column, or nil when singular or not finite.
    func inverse() -> DenseMatrix? {
        var result = DenseMatrix(n: n)
        for j in 0..<n {
            var e = [Double](repeating: 0, count: n)
            e[j] = 1
            guard let column = solve(e) else { return nil }
            for i in 0..<n { result[i, j] = column[i] }
        }
        return result
    }

    /// Every entry times `s`.
    static func * (m: DenseMatrix, s: Double) -> DenseMatrix {
        var r = m
        for i in r.a.indices { r.a[i] *= s }
        return r
    }

    /// Solves `self · x = b` by Gaussian elimination with partial pivoting. Returns nil when the
    /// matrix is singular to working precision or the result is not finite.
    func solve(_ b: [Double]) -> [Double]? {
        guard b.count == n, isFinite, b.allSatisfy(\.isFinite) else { return nil }
        var m = a
        var x = b
        let scale = m.map { abs($0) }.max() ?? 0
        guard scale > 0 else { return nil }
        for col in 0..<n {
            var pivot = col
            for r in (col + 1)..<max(col + 1, n) where abs(m[r * n + col]) > abs(m[pivot * n + col]) { pivot = r }
            guard abs(m[pivot * n + col]) > 1e-14 * scale else { return nil }
            if pivot != col {
                for k in 0..<n { m.swapAt(col * n + k, pivot * n + k) }
                x.swapAt(col, pivot)
            }
            let inv = 1 / m[col * n + col]
            for r in (col + 1)..<max(col + 1, n) {
                let f = m[r * n + col] * inv
                if f == 0 { continue }
                for k in col..<n { m[r * n + k] -= f * m[col * n + k] }
                x[r] -= f * x[col]
            }
        }
        for col in stride(from: n - 1, through: 0, by: -1) {
            var s = x[col]
            for k in (col + 1)..<max(col + 1, n) { s -= m[col * n + k] * x[k] }
            x[col] = s / m[col * n + col]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }

    /// Eigenvalues of a symmetric matrix (cyclic Jacobi), ascending. Empty for non-finite input.
    func symmetricEigenvalues() -> [Double] {
        guard isFinite else { return [] }
        var m = a
        let scale = m.map { abs($0) }.max() ?? 0
        if scale > 0 {
            for _ in 0..<60 {
                var off = 0.0
                for p in 0..<n { for q in (p + 1)..<max(p + 1, n) { off += abs(m[p * n + q]) } }
                if off <= 1e-14 * scale { break }
                for p in 0..<n {
                    for q in (p + 1)..<max(p + 1, n) where m[p * n + q] != 0 {
                        let theta = (m[q * n + q] - m[p * n + p]) / (2 * m[p * n + q])
                        let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                        let c = 1 / (t * t + 1).squareRoot(), s = t * c
                        for k in 0..<n {
                            let kp = m[k * n + p], kq = m[k * n + q]
                            m[k * n + p] = c * kp - s * kq
                            m[k * n + q] = s * kp + c * kq
                        }
                        for k in 0..<n {
                            let pk = m[p * n + k], qk = m[q * n + k]
                            m[p * n + k] = c * pk - s * qk
                            m[q * n + k] = s * pk + c * qk
                        }
                    }
                }
            }
        }
        return (0..<n).map { m[$0 * n + $0] }.sorted()
    }

    /// The reciprocal condition number of the correlation form D^-½·A·D^-½ (D = diag(A)):
    /// smallest over largest eigenvalue, 0 when a diagonal entry is not positive.
    func correlationConditionReciprocal() -> Double {
        let d = diagonal
        guard d.allSatisfy({ $0 > 0 && $0.isFinite }) else { return 0 }
        var c = DenseMatrix(n: n)
        for i in 0..<n { for j in 0..<n { c[i, j] = self[i, j] / (d[i] * d[j]).squareRoot() } }
        let ev = c.symmetricEigenvalues()
        guard let lo = ev.first, let hi = ev.last, hi > 0 else { return 0 }
        return max(0, lo / hi)
    }
}
