#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// The roll and pitch of the body (x forward, y right, z down), kept as sines and cosines so the
/// per-sample path needs no trigonometry.
///
/// Conventions follow `Matrix3.rotation(roll:pitch:yaw:)` (body → NED, yaw–pitch–roll): roll is positive
/// right side down, pitch positive nose up. A still accelerometer measures the reaction to gravity,
/// `Rᵀ · (0, 0, −1)` = (sin p, −cos p · sin r, −cos p · cos r) g, which `init?(gravity:)` inverts:
/// roll = atan2(−a_y, −a_z), pitch = atan2(a_x, √(a_y² + a_z²)).
///
/// ```swift
/// let tilt = Tilt(gravity: Vector3(0, 0, -1))!          // level: roll 0°, pitch 0°
/// let level = tilt.levelled(Vector3(24.5, 0, -51.6))    // field in the local level frame
/// let heading = Tilt.heading(ofLevelled: level)         // 0° (north)
/// ```
public struct Tilt: Sendable, Hashable {
    public let sinRoll: Double
    public let cosRoll: Double
    public let sinPitch: Double
    public let cosPitch: Double

    /// Level: roll 0, pitch 0.
    public static let level = Tilt(sinRoll: 0, cosRoll: 1, sinPitch: 0, cosPitch: 1)

    @inlinable init(sinRoll: Double, cosRoll: Double, sinPitch: Double, cosPitch: Double) {
        self.sinRoll = sinRoll; self.cosRoll = cosRoll; self.sinPitch = sinPitch; self.cosPitch = cosPitch
    }

    /// From angles in degrees (non-finite angles are treated as 0).
    public init(roll: Double, pitch: Double) {
        let r = roll.isFinite ? rad(roll) : 0, p = pitch.isFinite ? rad(pitch) : 0
        self.init(sinRoll: sin(r), cosRoll: cos(r), sinPitch: sin(p), cosPitch: cos(p))
    }

    /// From an accelerometer reading (any scale; only its direction is used). Nil for a zero or
    /// non-finite vector. At pitch ±90° roll is undefined and taken as 0.
    @inlinable public init?(gravity a: Vector3) {
        let h2 = a.y * a.y + a.z * a.z
        let n2 = a.x * a.x + h2
        guard n2.isFinite, n2 > 1e-18 else { return nil }
        let h = h2.squareRoot(), inverseN = 1 / n2.squareRoot()
        let sp = a.x * inverseN, cp = h * inverseN
        if cp > 1e-9 {
            let inverseH = 1 / h
            self.init(sinRoll: -a.y * inverseH, cosRoll: -a.z * inverseH, sinPitch: sp, cosPitch: cp)
        } else {
            self.init(sinRoll: 0, cosRoll: 1, sinPitch: sp > 0 ? 1 : -1, cosPitch: 0)
        }
    }

    /// Roll in degrees, (−180, 180], positive right side down.
    public var roll: Double { deg(atan2(sinRoll, cosRoll)) }
    /// Pitch in degrees, [−90, 90], positive nose up.
    public var pitch: Double { deg(atan2(sinPitch, cosPitch)) }

    /// Rotates a body-frame vector into the local level frame (x along the heading, y to its right,
    /// z down): `Ry(pitch) · Rx(roll) · v`, which equals `Rz(yaw)ᵀ · v_NED`.
    @inlinable public func levelled(_ v: Vector3) -> Vector3 {
        let yz = sinRoll * v.y + cosRoll * v.z       // z after undoing roll
        return Vector3(cosPitch * v.x + sinPitch * yz,
                       cosRoll * v.y - sinRoll * v.z,
                       -sinPitch * v.x + cosPitch * yz)
    }

    /// Heading in degrees [0, 360) of a level-frame field: atan2(−y, x). A zero vector gives 0.
    @inlinable public static func heading(ofLevelled v: Vector3) -> Double {
        var h = atan2Degrees(-v.y, v.x)
        if h < 0 { h += 360 }
        if h >= 360 { h -= 360 }
        return h
    }

    /// Inclination (dip) in degrees of a level-frame field, positive downward: atan2(z, √(x² + y²)).
    @inlinable public static func inclination(ofLevelled v: Vector3) -> Double {
        atan2Degrees(v.z, (v.x * v.x + v.y * v.y).squareRoot())
    }

    /// Tilt-compensated magnetic heading in degrees [0, 360) of a body-frame field.
    public func heading(of magnetic: Vector3) -> Double { Tilt.heading(ofLevelled: levelled(magnetic)) }

    /// The heading error (degrees) of level-only mode: a sensor rolled by `tilt` degrees while facing
    /// along the horizontal field, where the field dips by `inclination` degrees, reads
    /// atan(sin(tilt) · |tan(inclination)|) off — about tilt × tan(inclination) for small tilts, the
    /// worst case over headings for small tilts.
    ///
    /// ```swift
    /// Tilt.levelOnlyError(tilt: 5, inclination: -64)   // ≈ 10.1°
    /// ```
    public static func levelOnlyError(tilt: Double, inclination: Double) -> Double {
        guard tilt.isFinite, inclination.isFinite else { return 90 }
        let dip = Swift.min(abs(inclination), 90)
        if dip >= 90 { return tilt == 0 ? 0 : 90 }
        return deg(atan(abs(sin(rad(tilt))) * tan(rad(dip))))
    }

    /// The angle in degrees between the body z axis and the vertical (0 when level).
    public var tiltAngle: Double { deg(acos(Swift.max(-1, Swift.min(1, cosRoll * cosPitch)))) }
}
