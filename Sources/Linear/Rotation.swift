#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Matrix3 {
    /// The body-to-NED rotation for aerospace Euler angles (radians): yaw about z (down), then pitch
    /// about the new y (right), then roll about x (forward).
    ///
    /// `ned = Matrix3.rotation(roll:pitch:yaw:) * body`, and its transpose maps NED vectors into the
    /// body frame:
    /// ```swift
    /// let bodyToNED = Matrix3.rotation(roll: 0, pitch: 0, yaw: radians(30))
    /// let fieldInBody = bodyToNED.transposed * earthFieldNED
    /// ```
    public static func rotation(roll: Double, pitch: Double, yaw: Double) -> Matrix3 {
        let (sr, cr) = (sin(roll), cos(roll))
        let (sp, cp) = (sin(pitch), cos(pitch))
        let (sy, cy) = (sin(yaw), cos(yaw))
        return Matrix3(
            rows: Vector3(cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr),
            Vector3(sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr),
            Vector3(-sp, cp * sr, cp * cr))
    }
}
