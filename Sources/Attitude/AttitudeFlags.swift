/// Conditions that qualify an `AttitudeEstimate`.
///
/// ```swift
/// if estimate.flags.contains(.magneticDisturbance) { print("heading from the gyro only") }
/// ```
public struct AttitudeFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The filter is still converging after a start or a restart.
    public static let initialising = AttitudeFlags(rawValue: 1 << 0)
    /// The specific force does not look like gravity: tilt is carried by the gyro.
    public static let accelerationRejected = AttitudeFlags(rawValue: 1 << 1)
    /// The field differs from the reference (|B| or dip): heading is carried by the gyro.
    public static let magneticDisturbance = AttitudeFlags(rawValue: 1 << 2)
    /// No usable gyro sample: orientation from accelerometer and magnetometer alone.
    public static let gyroscopeUnavailable = AttitudeFlags(rawValue: 1 << 3)
    /// No usable magnetometer sample: heading is carried by the gyro (or unavailable).
    public static let magnetometerUnavailable = AttitudeFlags(rawValue: 1 << 4)
    /// The gyro is believed at rest; its bias is being learned.
    public static let atRest = AttitudeFlags(rawValue: 1 << 5)
    /// A disturbance lasted too long and the current field became the new reference.
    public static let magneticReferenceChanged = AttitudeFlags(rawValue: 1 << 6)
}
