#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// A unit quaternion that rotates body-frame vectors into the NED earth frame (`w` scalar first).
///
/// `q.rotate(v)` is `q ⊗ v ⊗ q*`: a body vector expressed in NED. Composition reads right to left:
/// `a * b` first applies `b`, then `a`.
///
/// ```swift
/// let yaw90 = Quaternion(axis: Vector3(0, 0, 1), angle: .pi / 2)   // nose from north to east
/// let nose = yaw90.rotate(Vector3(1, 0, 0))                         // ≈ (0, 1, 0): east
/// ```
public struct Quaternion: Sendable, Hashable, CustomStringConvertible {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w; self.x = x; self.y = y; self.z = z
    }

    /// The identity rotation (body axes aligned with north, east, down).
    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// A rotation of `angle` radians about `axis` (right-handed); identity for a zero or non-finite axis.
    @inlinable public init(axis: Vector3, angle: Double) {
        guard let u = axis.normalized, angle.isFinite else { self = .identity; return }
        let s = sin(angle / 2)
        self.init(w: cos(angle / 2), x: u.x * s, y: u.y * s, z: u.z * s)
    }

    /// The rotation by the rotation vector `r` (axis × angle, radians), exact for any angle.
    @inlinable @inline(__always) public init(rotationVector r: Vector3) {
        let square = r.squaredNorm
        if square < 0.04 {
            // Angles below 0.2 rad (every gyro step): Taylor series of cos(θ/2) and sin(θ/2)/θ,
            // exact to rounding (next terms below 1e-16), without sin, cos, a square root or a division.
            // The terms in h and h² summed in pairs (Estrin's scheme): a short chain of multiplications.
            let h = square * 0.25, h2 = h * h
            let c = (1 - h * 0.5) + h2 * ((1.0 / 24 - h * (1.0 / 720)) + h2 * (1.0 / 40320))
            let s = 0.5 * ((1 - h * (1.0 / 6)) + h2 * ((1.0 / 120 - h * (1.0 / 5040)) + h2 * (1.0 / 362880)))
            self.init(w: c, x: r.x * s, y: r.y * s, z: r.z * s)
        } else {
            let angle = square.squareRoot()
            let s = sin(angle / 2) / angle
            self.init(w: cos(angle / 2), x: r.x * s, y: r.y * s, z: r.z * s)
        }
    }

    /// The rotation about the down axis by `heading` radians (clockwise seen from above).
    @inlinable public init(headingRadians heading: Double) {
        self.init(w: cos(heading / 2), x: 0, y: 0, z: sin(heading / 2))
    }

    /// The rotation from roll, pitch and heading in degrees (aerospace Z-Y-X order).
    public init(rollDegrees roll: Double, pitchDegrees pitch: Double, headingDegrees heading: Double) {
        let qz = Quaternion(headingRadians: radians(heading))
        let qy = Quaternion(w: cos(radians(pitch) / 2), x: 0, y: sin(radians(pitch) / 2), z: 0)
        let qx = Quaternion(w: cos(radians(roll) / 2), x: sin(radians(roll) / 2), y: 0, z: 0)
        self = qz * qy * qx
    }

    /// The smallest rotation that turns the unit vector `up` onto NED "up" (0, 0, −1): the
    /// levelling that makes a measured specific force point straight up. A vector pointing down
    /// (upside down) is turned half a turn about north.
    @inlinable @inline(__always) public static func levelling(up e: Vector3) -> Quaternion {
        levelling(up: e, norm: 1)
    }

    /// The same for a vector `up` of any length, given its length `n` (> 0): without dividing it
    /// first. (1 + e·(0, 0, −1), e × (0, 0, −1)) is the rotation at twice its half angle, of squared
    /// length 2(1 − e.z); times n, (n − up.z, −up.y, up.x, 0) is of squared length 2n(n − up.z):
    /// one square root and one division.
    @inlinable @inline(__always) public static func levelling(up: Vector3, norm n: Double) -> Quaternion {
        let (rotation, scale) = unnormalisedLevelling(up: up, norm: n)
        return Quaternion(w: rotation.w * scale, x: rotation.x * scale, y: rotation.y * scale, z: 0)
    }

    /// `levelling(up:norm:)` before it is brought to unit length, (n − up.z, −up.y, up.x, 0), and the
    /// factor that does it: a product with it need not wait for the square root and the division
    /// (the factor scales the product instead).
    @inlinable @inline(__always)
    public static func unnormalisedLevelling(up: Vector3, norm n: Double) -> (rotation: Quaternion, scale: Double) {
        // Axis up × (0, 0, −1) = (−up.y, up.x, 0); cos(angle) = −up.z / n.
        guard up.z < 0.999999 * n else { return (Quaternion(w: 0, x: 1, y: 0, z: 0), 1) }
        let m = n - up.z
        // 1/√x as √x · (1/x): the root and the division side by side rather than one after the other.
        let square = 2 * n * m
        return (Quaternion(w: m, x: -up.y, y: up.x, z: 0), square.squareRoot() * (1 / square))
    }

    /// Hamilton product: `a * b` applies `b` first. (Each component's four products summed in
    /// pairs: two additions after the products rather than three in a row, on the chain a filter
    /// update waits on.)
    @inlinable @inline(__always) public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            w: (a.w * b.w - a.x * b.x) - (a.y * b.y + a.z * b.z),
            x: (a.w * b.x + a.x * b.w) + (a.y * b.z - a.z * b.y),
            y: (a.w * b.y - a.x * b.z) + (a.y * b.w + a.z * b.x),
            z: (a.w * b.z + a.x * b.y) - (a.y * b.x - a.z * b.w))
    }

    /// The inverse rotation (for a unit quaternion).
    @inlinable @inline(__always) public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    /// w² + x² + y² + z² (summed in pairs).
    @inlinable @inline(__always) public var squaredNorm: Double { (w * w + x * x) + (y * y + z * z) }

    /// True when every component is finite.
    @inlinable public var isFinite: Bool { w.isFinite && x.isFinite && y.isFinite && z.isFinite }

    /// The same rotation with unit norm; identity when the norm is zero or not finite.
    @inlinable @inline(__always) public var normalized: Quaternion {
        let n = (w * w + x * x + y * y + z * z).squareRoot()
        guard n > 1e-12, n.isFinite else { return .identity }
        let k = 1 / n
        return Quaternion(w: w * k, x: x * k, y: y * k, z: z * k)
    }

    /// Brings a nearly unit quaternion (one that a product of unit quaternions left a rounding error
    /// away from 1) back to unit norm without a square root: q · (3 − |q|²) / 2, exact to second
    /// order. Anything further off (or not finite) goes through `normalized`.
    @inlinable @inline(__always) public var renormalized: Quaternion {
        guard let k = Self.renormalisingFactor(squaredNorm: squaredNorm) else { return normalized }
        return Quaternion(w: w * k, x: x * k, y: y * k, z: z * k)
    }

    /// The factor that brings a quaternion of squared norm `n2`, a rounding error from 1, back to unit
    /// length without a square root (`renormalized`'s), or nil when it is further off.
    @inlinable @inline(__always) public static func renormalisingFactor(squaredNorm n2: Double) -> Double? {
        abs(n2 - 1) < 1e-6 ? (3 - n2) / 2 : nil
    }

    /// `v` rotated by this quaternion (body → NED for an attitude).
    @inlinable @inline(__always) public func rotate(_ v: Vector3) -> Vector3 {
        let tx = 2 * (y * v.z - z * v.y)
        let ty = 2 * (z * v.x - x * v.z)
        let tz = 2 * (x * v.y - y * v.x)
        // (Summed in pairs: a shorter chain of additions.)
        return Vector3((v.x + w * tx) + (y * tz - z * ty),
                       (v.y + w * ty) + (z * tx - x * tz),
                       (v.z + w * tz) + (x * ty - y * tx))
    }

    /// `v` rotated by the inverse (NED → body for an attitude).
    @inlinable @inline(__always) public func inverseRotate(_ v: Vector3) -> Vector3 { conjugate.rotate(v) }

    /// The rotation matrix (body → NED): its columns are the body axes expressed in NED.
    public var matrix: Matrix3 {
        Matrix3(rows:
            Vector3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            Vector3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            Vector3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))
    }

    /// The angle in degrees of the rotation between two attitudes (0…180).
    public func angleDegrees(to other: Quaternion) -> Double {
        let d = conjugate * other
        let vector = (d.x * d.x + d.y * d.y + d.z * d.z).squareRoot()
        return degrees(2 * atan2(vector, abs(d.w)))
    }

    public var description: String { "(w: \(w), x: \(x), y: \(y), z: \(z))" }
}
