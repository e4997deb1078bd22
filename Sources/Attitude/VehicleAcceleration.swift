#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// The vehicle's own acceleration (g), removed from the specific force before it is taken as gravity.
///
/// From GNSS, the acceleration along the ground track is the rate of change of speed and the one
/// across it is centripetal: speed × rate of turn of the course.
///
/// ```swift
/// let a = VehicleAcceleration.fromGroundTrack(speed: 20, speedRate: 0.5,
///                                             courseDegrees: 90, courseRateDegreesPerSecond: 3)
/// filter.setVehicleAcceleration(a, time: now)
/// ```
public enum VehicleAcceleration: Sendable, Hashable {
    /// In body axes (x forward, y right, z down), g.
    case body(Vector3)
    /// In the earth frame (north, east, down), g.
    case ned(Vector3)

    /// Standard gravity (m/s²), to convert m/s² to g.
    public static let standardGravity = 9.80665

    /// The horizontal acceleration of a vehicle following a ground track: speed (m/s), its rate of
    /// change (m/s²), course over ground (degrees clockwise from north) and the course's rate of
    /// change (°/s, positive turning to starboard). Non-finite inputs count as zero.
    public static func fromGroundTrack(speed: Double, speedRate: Double, courseDegrees: Double,
                                       courseRateDegreesPerSecond: Double) -> VehicleAcceleration {
        let v = speed.isFinite ? speed : 0
        let along = (speedRate.isFinite ? speedRate : 0) / standardGravity
        let across = v * (courseRateDegreesPerSecond.isFinite ? radians(courseRateDegreesPerSecond) : 0) / standardGravity
        let c = courseDegrees.isFinite ? radians(courseDegrees) : 0
        return .ned(Vector3(along * cos(c) - across * sin(c), along * sin(c) + across * cos(c), 0))
    }
}
