import Linear

/// Closed-form least-squares fits used to start the iterative refinement.
enum AlgebraicFit {
    /// Sphere through the points: solves |x|² = 2c·x + k, radius² = k + |c|².
    static func sphere(_ points: [Vector3]) -> UnitSphereParameters? {
        guard points.count >= 4 else { return nil }
        var normal = DenseMatrix(n: 4)
        var rhs = [Double](repeating: 0, count: 4)
        var row = [Double](repeating: 0, count: 4)
        for x in points {
            row[0] = 2 * x.x; row[1] = 2 * x.y; row[2] = 2 * x.z; row[3] = 1
            let t = x.squaredNorm
            for i in 0..<4 { rhs[i] += row[i] * t }
            normal.addOuterUpper(row)
        }
        normal.symmetrize()
        guard let s = normal.solve(rhs) else { return nil }
        let c = Vector3(s[0], s[1], s[2])
        let r2 = s[3] + c.squaredNorm
        guard r2 > 0, r2.isFinite else { return nil }
        let m = 1 / r2.squareRoot()
        return UnitSphereParameters(offset: c, matrix: Matrix3.diagonal(Vector3(m, m, m)))
    }

    /// General ellipsoid xᵀAx + 2bᵀx = 1 by linear least squares, then the centre c = −A⁻¹b and
    /// the unit-sphere matrix M = (A / (1 + cᵀAc))^½. Returns nil when the quadric is not an
    /// ellipsoid (A not positive definite) or the system is singular.
    static func ellipsoid(_ points: [Vector3]) -> UnitSphereParameters? {
        guard points.count >= 9 else { return nil }
        var normal = DenseMatrix(n: 9)
        var rhs = [Double](repeating: 0, count: 9)
        var row = [Double](repeating: 0, count: 9)
        for p in points {
            row[0] = p.x * p.x; row[1] = p.y * p.y; row[2] = p.z * p.z
            row[3] = 2 * p.x * p.y; row[4] = 2 * p.x * p.z; row[5] = 2 * p.y * p.z
            row[6] = 2 * p.x; row[7] = 2 * p.y; row[8] = 2 * p.z
            for i in 0..<9 { rhs[i] += row[i] }
            normal.addOuterUpper(row)
        }
        normal.symmetrize()
        guard let s = normal.solve(rhs) else { return nil }
        let a = Matrix3(rows: Vector3(s[0], s[3], s[4]), Vector3(s[3], s[1], s[5]), Vector3(s[4], s[5], s[2]))
        let b = Vector3(s[6], s[7], s[8])
        guard let aInverse = a.inverse else { return nil }
        let c = -(aInverse * b)
        let k = 1 + c.dot(a * c)
        guard k > 0, k.isFinite else { return nil }
        guard let m = (a / k).symmetricSquareRoot(), m.isFinite else { return nil }
        return UnitSphereParameters(offset: c, matrix: m)
    }
}
