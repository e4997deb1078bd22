/// A 3×3 matrix of `Double`, row-major. Used for soft-iron correction and mounting rotations.
///
/// ```swift
/// let m = Matrix3.rotation(roll: 0, pitch: 0, yaw: radians(90))
/// let v = m * Vector3(1, 0, 0)   // ≈ (0, 1, 0)
/// ```
public struct Matrix3: Sendable, Hashable, CustomStringConvertible {
    /// Rows of the matrix.
    public var r0: Vector3
    public var r1: Vector3
    public var r2: Vector3

    @inlinable public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        self.r0 = r0; self.r1 = r1; self.r2 = r2
    }

    /// From nested rows; returns nil unless exactly 3×3 and finite.
    public init?(_ rows: [[Double]]) {
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 && $0.allSatisfy(\.isFinite) }) else { return nil }
        r0 = Vector3(rows[0][0], rows[0][1], rows[0][2])
        r1 = Vector3(rows[1][0], rows[1][1], rows[1][2])
        r2 = Vector3(rows[2][0], rows[2][1], rows[2][2])
    }

    public static let identity = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    /// A diagonal matrix.
    @inlinable public static func diagonal(_ d: Vector3) -> Matrix3 {
        Matrix3(rows: Vector3(d.x, 0, 0), Vector3(0, d.y, 0), Vector3(0, 0, d.z))
    }

    /// Element at row `i`, column `j`.
    @inlinable public subscript(i: Int, j: Int) -> Double {
        get { (i == 0 ? r0 : (i == 1 ? r1 : r2))[j] }
        set {
            switch i {
            case 0: r0[j] = newValue
            case 1: r1[j] = newValue
            default: r2[j] = newValue
            }
        }
    }

    public var rows: [[Double]] { [r0.array, r1.array, r2.array] }

    @inlinable public var transposed: Matrix3 {
        Matrix3(rows: Vector3(r0.x, r1.x, r2.x), Vector3(r0.y, r1.y, r2.y), Vector3(r0.z, r1.z, r2.z))
    }

    @inlinable public var determinant: Double { r0.dot(r1.cross(r2)) }

    /// The inverse, or nil when singular (|det| below `1e-12` times the scale).
    public var inverse: Matrix3? {
        let det = determinant
        let scale = max(r0.squaredNorm, r1.squaredNorm, r2.squaredNorm)
        guard det.isFinite, abs(det) > 1e-12 * scale * scale.squareRoot() else { return nil }
        let c0 = r1.cross(r2), c1 = r2.cross(r0), c2 = r0.cross(r1)
        return Matrix3(rows: c0, c1, c2).transposed / det
    }

    public var isFinite: Bool { r0.isFinite && r1.isFinite && r2.isFinite }

    @inlinable public static func * (m: Matrix3, v: Vector3) -> Vector3 {
        Vector3(m.r0.dot(v), m.r1.dot(v), m.r2.dot(v))
    }

    @inlinable public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let bt = b.transposed
        return Matrix3(rows: Vector3(a.r0.dot(bt.r0), a.r0.dot(bt.r1), a.r0.dot(bt.r2)),
                       Vector3(a.r1.dot(bt.r0), a.r1.dot(bt.r1), a.r1.dot(bt.r2)),
                       Vector3(a.r2.dot(bt.r0), a.r2.dot(bt.r1), a.r2.dot(bt.r2)))
    }

    @inlinable public static func * (m: Matrix3, s: Double) -> Matrix3 { Matrix3(rows: m.r0 * s, m.r1 * s, m.r2 * s) }
    @inlinable public static func / (m: Matrix3, s: Double) -> Matrix3 { Matrix3(rows: m.r0 / s, m.r1 / s, m.r2 / s) }
    @inlinable public static func + (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.r0 + b.r0, a.r1 + b.r1, a.r2 + b.r2) }
    @inlinable public static func - (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.r0 - b.r0, a.r1 - b.r1, a.r2 - b.r2) }

    public var description: String { "[\(r0), \(r1), \(r2)]" }
}
