import Linear

/// Which magnetometer error model a calibration fitted.
///
/// - `offset`: hard iron only (a sphere: offset and one scale).
/// - `diagonal`: hard iron and per-axis gain (an axis-aligned ellipsoid).
/// - `full`: hard iron and a full symmetric soft-iron matrix (a general ellipsoid).
public enum CalibrationModel: String, Sendable, Hashable, CaseIterable, Comparable {
    case offset
    case diagonal
    case full

    /// Number of free parameters in the unit-sphere form |M·(x − o)| = 1.
    public var parameterCount: Int {
        switch self {
        case .offset: return 4
        case .diagonal: return 6
        case .full: return 9
        }
    }

    public static func < (a: CalibrationModel, b: CalibrationModel) -> Bool { a.parameterCount < b.parameterCount }
}

/// The fitted correction: `corrected = matrix · (raw − offset)`, whose magnitude is
/// `fieldStrength` on average.
///
/// The matrix is symmetric and normalised to determinant 1, so `fieldStrength` is the fitted
/// field in the input unit and the corrected output keeps the input's scale.
///
/// ```swift
/// let corrected = fit.apply(Vector3(12.0, -30.5, 41.2))
/// ```
public struct EllipsoidFit: Sendable, Hashable {
    public var offset: Vector3
    public var matrix: Matrix3
    public var fieldStrength: Double
    public var model: CalibrationModel

    public init(offset: Vector3, matrix: Matrix3, fieldStrength: Double, model: CalibrationModel) {
        self.offset = offset; self.matrix = matrix; self.fieldStrength = fieldStrength; self.model = model
    }

    /// The corrected field for a raw reading.
    @inlinable public func apply(_ raw: Vector3) -> Vector3 { matrix * (raw - offset) }

    /// A plain algebraic ellipsoid fit (linear least squares on the quadric, no refinement, no
    /// outlier rejection): the reference a calibration's spread of |B| is compared with.
    ///
    /// ```swift
    /// let reference = EllipsoidFit.algebraic(samples)
    /// ```
    public static func algebraic(_ samples: [Vector3]) -> EllipsoidFit? {
        let finite = samples.filter(\.isFinite)
        guard finite.count >= 9 else { return nil }
        let (centre, scale) = CalibrationSolver.centreAndScale(finite)
        guard scale > 0, scale.isFinite, let p = AlgebraicFit.ellipsoid(finite.map { ($0 - centre) / scale }) else { return nil }
        let matrix = p.matrix / scale
        let det = matrix.determinant
        guard det > 0, det.isFinite else { return nil }
        let d = cubeRoot(det)
        return EllipsoidFit(offset: centre + p.offset * scale, matrix: matrix / d, fieldStrength: 1 / d, model: .full)
    }
}

/// The unit-sphere parameterisation used by the optimiser: |M·(x − o)| = 1.
struct UnitSphereParameters: Sendable {
    var offset: Vector3
    var matrix: Matrix3

    /// Packs the parameters of `model` (offset first, then the matrix entries the model frees).
    func packed(_ model: CalibrationModel) -> [Double] {
        let o = [offset.x, offset.y, offset.z]
        switch model {
        case .offset: return o + [(matrix[0, 0] + matrix[1, 1] + matrix[2, 2]) / 3]
        case .diagonal: return o + [matrix[0, 0], matrix[1, 1], matrix[2, 2]]
        case .full:
            return o + [matrix[0, 0], matrix[1, 1], matrix[2, 2],
                        0.5 * (matrix[0, 1] + matrix[1, 0]), 0.5 * (matrix[0, 2] + matrix[2, 0]),
                        0.5 * (matrix[1, 2] + matrix[2, 1])]
        }
    }

    init(offset: Vector3, matrix: Matrix3) {
        self.offset = offset; self.matrix = matrix
    }

    init(packed p: [Double], model: CalibrationModel) {
        offset = Vector3(p[0], p[1], p[2])
        switch model {
        case .offset: matrix = Matrix3.diagonal(Vector3(p[3], p[3], p[3]))
        case .diagonal: matrix = Matrix3.diagonal(Vector3(p[3], p[4], p[5]))
        case .full:
            matrix = Matrix3(rows: Vector3(p[3], p[6], p[7]), Vector3(p[6], p[4], p[8]), Vector3(p[7], p[8], p[5]))
        }
    }

    /// Per-iteration constants for `residual`: g = det(M)^⅓ and ∂ln g/∂p for each matrix parameter.
    struct Scale {
        var g: Double
        var logGradient: [Double]
    }

    /// The scale factor g = det(M)^⅓ and its log-derivatives, or nil when M is not invertible
    /// with positive determinant.
    func scale(_ model: CalibrationModel) -> Scale? {
        let det = matrix.determinant
        guard det > 0, det.isFinite, let inv = matrix.inverse else { return nil }
        let g = cubeRoot(det)
        var c = [Double](repeating: 0, count: model.parameterCount)
        switch model {
        case .offset:
            c[3] = 1 / matrix[0, 0]
        case .diagonal:
            c[3] = inv[0, 0] / 3; c[4] = inv[1, 1] / 3; c[5] = inv[2, 2] / 3
        case .full:
            c[3] = inv[0, 0] / 3; c[4] = inv[1, 1] / 3; c[5] = inv[2, 2] / 3
            c[6] = 2 * inv[0, 1] / 3; c[7] = 2 * inv[0, 2] / 3; c[8] = 2 * inv[1, 2] / 3
        }
        return Scale(g: g, logGradient: c)
    }

    /// The geometric radial residual (|M·(x − o)| − 1) / g, i.e. |Mₙ·(x − o)| − r with
    /// Mₙ = M/g (determinant 1) and r = 1/g, in the units of x; and its gradient with respect
    /// to the packed parameters. Returns nil when the point coincides with the centre.
    @inline(__always)
    func residual(_ x: Vector3, model: CalibrationModel, scale: Scale, gradient: inout [Double]) -> Double? {
        let v = x - offset
        let u = matrix * v
        let n = u.norm
        guard n > 1e-300 else { return nil }
        let inv = 1 / (n * scale.g)
        let f = (n - 1) / scale.g
        let go = (matrix * u) * (-inv)
        gradient[0] = go.x; gradient[1] = go.y; gradient[2] = go.z
        switch model {
        case .offset:
            gradient[3] = u.dot(v) * inv
        case .diagonal:
            gradient[3] = u.x * v.x * inv; gradient[4] = u.y * v.y * inv; gradient[5] = u.z * v.z * inv
        case .full:
            gradient[3] = u.x * v.x * inv; gradient[4] = u.y * v.y * inv; gradient[5] = u.z * v.z * inv
            gradient[6] = (u.x * v.y + u.y * v.x) * inv
            gradient[7] = (u.x * v.z + u.z * v.x) * inv
            gradient[8] = (u.y * v.z + u.z * v.y) * inv
        }
        for i in 3..<model.parameterCount { gradient[i] -= f * scale.logGradient[i] }
        return f
    }
}

/// The real cube root (libm's cbrt without importing it here).
func cubeRoot(_ x: Double) -> Double {
    guard x != 0, x.isFinite else { return x }
    var y = x < 0 ? -(-x).squareRoot().squareRoot() : x.squareRoot().squareRoot()   // rough start
    for _ in 0..<60 {
        let next = y - (y * y * y - x) / (3 * y * y)
        if next == y || !next.isFinite { break }
        y = next
    }
    return y
}
