#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Eigenvalues and eigenvectors of a symmetric 3×3 matrix: `a = vectors · diag(values) · vectorsᵀ`.
public struct SymmetricEigen3: Sendable, Hashable {
    /// Eigenvalues in ascending order.
    public var values: Vector3
    /// Orthonormal eigenvectors as the COLUMNS of this matrix, in the order of `values`.
    public var vectors: Matrix3

    /// The eigenvector for eigenvalue `i` (0, 1 or 2).
    public func vector(_ i: Int) -> Vector3 { Vector3(vectors[0, i], vectors[1, i], vectors[2, i]) }
}

extension Matrix3 {
    /// Eigen-decomposition of the symmetric part of this matrix by cyclic Jacobi rotations.
    /// Returns nil for non-finite input.
    ///
    /// ```swift
    /// let e = Matrix3.diagonal(Vector3(3, 1, 2)).symmetricEigen()!
    /// e.values   // (1, 2, 3)
    /// ```
    public func symmetricEigen() -> SymmetricEigen3? {
        guard isFinite else { return nil }
        var a = [[r0.x, 0.5 * (r0.y + r1.x), 0.5 * (r0.z + r2.x)],
                 [0.5 * (r0.y + r1.x), r1.y, 0.5 * (r1.z + r2.y)],
                 [0.5 * (r0.z + r2.x), 0.5 * (r1.z + r2.y), r2.z]]
        var v: [[Double]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        let scale = max(abs(a[0][0]), abs(a[1][1]), abs(a[2][2]), abs(a[0][1]), abs(a[0][2]), abs(a[1][2]))
        if scale > 0 {
            for _ in 0..<50 {
                let off = abs(a[0][1]) + abs(a[0][2]) + abs(a[1][2])
                if off <= 1e-15 * scale { break }
                for (p, q) in [(0, 1), (0, 2), (1, 2)] where a[p][q] != 0 {
                    // Rotation angle that zeroes a[p][q] (Numerical-Recipes style, stable form).
                    let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                    let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0..<3 {
                        let akp = a[k][p], akq = a[k][q]
                        a[k][p] = c * akp - s * akq
                        a[k][q] = s * akp + c * akq
                    }
                    for k in 0..<3 {
                        let apk = a[p][k], aqk = a[q][k]
                        a[p][k] = c * apk - s * aqk
                        a[q][k] = s * apk + c * aqk
                    }
                    for k in 0..<3 {
                        let vkp = v[k][p], vkq = v[k][q]
                        v[k][p] = c * vkp - s * vkq
                        v[k][q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let order = [0, 1, 2].sorted { a[$0][$0] < a[$1][$1] }
        let values = Vector3(a[order[0]][order[0]], a[order[1]][order[1]], a[order[2]][order[2]])
        let vectors = Matrix3(rows: Vector3(v[0][order[0]], v[0][order[1]], v[0][order[2]]),
                              Vector3(v[1][order[0]], v[1][order[1]], v[1][order[2]]),
                              Vector3(v[2][order[0]], v[2][order[1]], v[2][order[2]]))
        guard values.isFinite, vectors.isFinite else { return nil }
        return SymmetricEigen3(values: values, vectors: vectors)
    }

    /// `f` applied to a symmetric matrix through its eigenvalues: V · diag(f(λ)) · Vᵀ.
    /// Returns nil when the decomposition fails or `f` gives a non-finite value.
    public func symmetricFunction(_ f: (Double) -> Double) -> Matrix3? {
        guard let e = symmetricEigen() else { return nil }
        let d = Vector3(f(e.values.x), f(e.values.y), f(e.values.z))
        guard d.isFinite else { return nil }
        return e.vectors * Matrix3.diagonal(d) * e.vectors.transposed
    }

    /// The symmetric positive square root of a symmetric positive-definite matrix, or nil when
    /// an eigenvalue is not positive.
    ///
    /// ```swift
    /// let s = Matrix3.diagonal(Vector3(4, 9, 16)).symmetricSquareRoot()   // diag(2, 3, 4)
    /// ```
    public func symmetricSquareRoot() -> Matrix3? {
        guard let e = symmetricEigen(), e.values.x > 0 else { return nil }
        return symmetricFunction { $0.squareRoot() }
    }
}
