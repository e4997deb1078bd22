import Attitude
import Linear

/// One calibrated sample: the input of the heading filter.
///
/// ```swift
/// let s = CalibratedSample(monotonic: 12.34, wall: 1_750_000_000,
///                          magnetic: Vector3(24.5, 0, -51.6), acceleration: Vector3(0, 0, -1))
/// ```
public struct CalibratedSample: Sendable, Hashable {
    /// Monotonic time, seconds (the filters use this).
    public var monotonic: Double
    /// Wall-clock time, Unix seconds.
    public var wall: Double
    /// Calibrated magnetic field in body axes (x forward, y right, z down), µT.
    public var magnetic: Vector3
    /// Calibrated acceleration in body axes, g (still and level: (0, 0, −1)); nil without accelerometer.
    public var acceleration: Vector3?
    /// True when the magnetometer reported an overflow for this sample.
    public var saturated: Bool
    /// Rotation rate in body axes, °/s; nil without a gyroscope. With it, the heading comes from the
    /// gyro-aided attitude filter.
    public var rotationRate: Vector3?

    public init(monotonic: Double, wall: Double, magnetic: Vector3, acceleration: Vector3? = nil,
                saturated: Bool = false, rotationRate: Vector3? = nil) {
        self.monotonic = monotonic
        self.wall = wall
        self.magnetic = magnetic
        self.acceleration = acceleration
        self.saturated = saturated
        self.rotationRate = rotationRate
    }
}

/// A heading and everything needed to judge it: what the display, the log and the analysis consume.
/// Angles in degrees; headings in [0, 360); never NaN.
///
/// ```swift
/// if let e = filter.update(sample: sample) {
///     print(e.trueHeading ?? e.magneticHeading, "±", e.accuracy, e.declinationSource.label, e.flags.names)
/// }
/// ```
public struct HeadingEstimate: Sendable, Hashable {
    /// Monotonic time of the sample, seconds.
    public var monotonic: Double
    /// Wall-clock time of the sample, Unix seconds.
    public var wall: Double
    /// Smoothed magnetic heading (tilt-compensated, deviation-corrected).
    public var magneticHeading: Double
    /// Magnetic heading + declination; nil when no declination is known.
    public var trueHeading: Double?
    /// The same sample's magnetic heading without smoothing (tilt-compensated, deviation-corrected).
    public var rawMagneticHeading: Double
    /// 1σ-like accuracy of `magneticHeading`, degrees; `AccuracyModel.unavailable` (180) when none.
    public var accuracy: Double
    /// Accuracy of `trueHeading` (adds the declination uncertainty); nil without true heading.
    public var trueAccuracy: Double?
    /// Declination used, degrees east positive; nil when none.
    public var declination: Double?
    /// Where the declination comes from.
    public var declinationSource: DeclinationSource
    /// Deviation-card correction applied, degrees (0 when none).
    public var deviation: Double
    /// |B|, µT.
    public var fieldStrength: Double
    /// Horizontal field, µT (level frame when the tilt is known).
    public var horizontalField: Double
    /// Measured inclination (dip), degrees positive down; nil when the tilt is unknown.
    public var inclination: Double?
    /// The tilt used, nil without accelerometer (level-only).
    public var tilt: Tilt?
    /// Rate of turn of the smoothed heading, degrees/s, positive clockwise.
    public var turnRate: Double
    public var flags: HeadingFlags
    /// The orientation, body → NED (magnetic north), from the gyro-aided attitude filter; nil without
    /// a gyroscope.
    public var attitude: Quaternion?

    /// Roll and pitch accuracy, degrees (the gyro-aided path: the attitude filter's 90 % bounds;
    /// without a gyro, the tilt error the heading's accuracy assumes); nil without accelerometer.
    public var rollAccuracy: Double?
    public var pitchAccuracy: Double?

    /// Roll, degrees (positive right side down); nil without accelerometer.
    public var roll: Double? { tilt?.roll }
    /// Pitch, degrees (positive nose up); nil without accelerometer.
    public var pitch: Double? { tilt?.pitch }

    /// False when the accuracy is `AccuracyModel.unavailable`.
    public var isAccuracyAvailable: Bool { accuracy < AccuracyModel.unavailable }

    public init(monotonic: Double, wall: Double, magneticHeading: Double, trueHeading: Double?,
                rawMagneticHeading: Double, accuracy: Double, trueAccuracy: Double?, declination: Double?,
                declinationSource: DeclinationSource, deviation: Double, fieldStrength: Double,
                horizontalField: Double, inclination: Double?, tilt: Tilt?,
                turnRate: Double, flags: HeadingFlags, attitude: Quaternion? = nil,
                rollAccuracy: Double? = nil, pitchAccuracy: Double? = nil) {
        self.rollAccuracy = rollAccuracy
        self.pitchAccuracy = pitchAccuracy
        self.monotonic = monotonic
        self.wall = wall
        self.magneticHeading = magneticHeading
        self.trueHeading = trueHeading
        self.rawMagneticHeading = rawMagneticHeading
        self.accuracy = accuracy
        self.trueAccuracy = trueAccuracy
        self.declination = declination
        self.declinationSource = declinationSource
        self.deviation = deviation
        self.fieldStrength = fieldStrength
        self.horizontalField = horizontalField
        self.inclination = inclination
        self.tilt = tilt
        self.turnRate = turnRate
        self.flags = flags
        self.attitude = attitude
    }
}
