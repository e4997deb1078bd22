#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// The filter's output for one sample.
///
/// ```swift
/// let e = filter.estimate
/// if let heading = e.headingDegrees { print(heading, "±", e.accuracyDegrees) }
/// ```
public struct AttitudeEstimate: Sendable, Hashable {
    /// Body → NED (magnetic north).
    public var quaternion: Quaternion
    /// Magnetic heading of the body x axis projected on the horizontal plane, degrees in [0, 360);
    /// nil when |pitch| exceeds `headingPitchLimit` (the projection vanishes) or before any heading.
    public var headingDegrees: Double?
    /// Roll, right side down positive, degrees in (−180, 180].
    public var rollDegrees: Double
    /// Pitch, nose up positive, degrees in [−90, 90].
    public var pitchDegrees: Double
    /// Rate of turn about the vertical, °/s, positive turning to starboard (clockwise seen from
    /// above); nil without a gyro.
    public var rateOfTurnDegreesPerSecond: Double?
    /// Heading accuracy (degrees): the error stays within it about 90 % of the time.
    public var accuracyDegrees: Double
    /// Roll accuracy (degrees, same coverage), from the filter's covariance.
    public var rollAccuracyDegrees: Double
    /// Pitch accuracy (degrees, same coverage).
    public var pitchAccuracyDegrees: Double
    /// The larger of the roll and pitch accuracies (degrees).
    public var tiltAccuracyDegrees: Double { max(rollAccuracyDegrees, pitchAccuracyDegrees) }
    /// Gyro bias currently subtracted (°/s, body axes).
    public var gyroBias: Vector3
    public var flags: AttitudeFlags
    /// The share (0–1) of a calibration's error variance the heading keeps. A calibration's error
    /// (a hard-iron offset or soft iron left over) turns the field's heading by an amount that
    /// depends on the orientation; as the body keeps turning, it changes sign over a radian of net
    /// rotation (1 / ω s at ω rad/s), and the heading, which follows the field over its time
    /// constant τ, averages it: about 1 / (1 + ω τ) of its variance is left (a sinusoid keeps
    /// 1 / (1 + ω² τ²), less). 1 while the net rotation is nil (still, or rolling about one
    /// heading). `accuracyDegrees` does not include the calibration; whoever adds it scales its
    /// variance by this.
    public var calibrationErrorShare: Double

    /// Roll, pitch and heading (Z-Y-X) of a body → NED quaternion; heading nil beyond `pitchLimit`.
    @inline(__always)
    public static func angles(of q: Quaternion, pitchLimit: Double) -> (roll: Double, pitch: Double, heading: Double?) {
        var roll = SlowAngle(), heading = SlowAngle()     // no anchors: atan2 for both
        return angles(of: q, pitchLimit: pitchLimit, roll: &roll, heading: &heading)
    }

    /// The same, roll and heading by a series from the angles last worked out (`SlowAngle`, to
    /// rounding) while they are within 0.1 rad of them, which become the anchors otherwise.
    @inline(__always)
    static func angles(of q: Quaternion, pitchLimit: Double, roll rollAngle: inout SlowAngle,
                       heading headingAngle: inout SlowAngle) -> (roll: Double, pitch: Double, heading: Double?) {
        // Third row of the matrix: the down axis in body coordinates.
        let r20 = 2 * (q.x * q.z - q.w * q.y)
        let r21 = 2 * (q.y * q.z + q.w * q.x)
        let r22 = 1 - 2 * (q.x * q.x + q.y * q.y)
        // First column: the body x axis in NED.
        let r00 = 1 - 2 * (q.y * q.y + q.z * q.z)
        let r10 = 2 * (q.x * q.y + q.w * q.z)
        let pitch = asin(max(-1, min(1, -r20))) * degreesPerRadian
        let roll = rollAngle.wrappedRadians(y: r21, x: r22) * degreesPerRadian
        var heading: Double?
        if abs(pitch) <= pitchLimit, r00 * r00 + r10 * r10 > 1e-12 {
            var h = headingAngle.wrappedRadians(y: r10, x: r00) * degreesPerRadian
            if h < 0 { h += 360 }
            if h >= 360 { h -= 360 }
            heading = h
        }
        return (roll, pitch, heading)
    }
}
