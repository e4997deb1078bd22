import Linear

/// One row of the log: a plain value with every field that can be absent optional.
///
/// The CLI fills it from the heading estimate and the latest GNSS fix; this module only formats,
/// writes, reads and analyses it. Angles in degrees, fields in µT, distances in metres.
///
/// ```swift
/// var row = LogRow(time: Clock.wall(), monotonic: Clock.monotonic())
/// row.rawField = Vector3(24.1, -3.2, -51.0)
/// row.magneticHeading = 7.5
/// row.flags = ["disturbed"]
/// try session.append(row)
/// ```
public struct LogRow: Sendable, Equatable {
    /// Wall-clock time of the sample, Unix seconds (UTC). Written to the millisecond.
    public var time: Double
    /// Monotonic clock reading of the sample, seconds. A `LogSession` writes it relative to the start
    /// of its run; a parsed row holds the value as written.
    public var monotonic: Double
    /// Measured field in body axes before calibration, µT.
    public var rawField: Vector3?
    /// Calibrated field in body axes, µT.
    public var calibratedField: Vector3?
    /// |B|, µT (calibrated when available).
    public var fieldStrength: Double?
    /// Roll, degrees, right side down positive.
    public var roll: Double?
    /// Pitch, degrees, nose up positive.
    public var pitch: Double?
    /// This sample's magnetic heading without smoothing, [0, 360).
    public var rawMagneticHeading: Double?
    /// Smoothed magnetic heading, [0, 360).
    public var magneticHeading: Double?
    /// Declination used, degrees east positive.
    public var declination: Double?
    /// Where the declination comes from: "wmm", "location", "manual" or "none".
    public var declinationSource: String?
    /// True heading, [0, 360).
    public var trueHeading: Double?
    /// Estimated heading accuracy, degrees.
    public var accuracy: Double?
    /// Condition names, e.g. ["disturbed", "tiltHeld"]; written joined by "|".
    public var flags: [String]
    /// GNSS fix mode: "2d", "3d" or "no_fix"; nil without GNSS.
    public var gnssMode: String?
    /// Latitude, degrees north.
    public var latitude: Double?
    /// Longitude, degrees east.
    public var longitude: Double?
    /// Altitude, metres.
    public var altitude: Double?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// Course over ground, degrees from true north.
    public var course: Double?
    /// Estimated horizontal position error, metres.
    public var horizontalError: Double?
    /// Geodesic distance from the previous fix, metres.
    public var fixDistance: Double?
    /// Initial bearing from the previous fix, degrees from true north.
    public var fixBearing: Double?
    /// Specific force measured by the accelerometer in body axes, g, before calibration.
    public var acceleration: Vector3?
    /// Rotation rate measured by the gyroscope in body axes, °/s, bias not removed.
    public var rotationRate: Vector3?
    /// Roll and pitch accuracy (1σ-like), degrees; nil when unknown.
    public var rollAccuracy: Double?
    public var pitchAccuracy: Double?

    public init(time: Double, monotonic: Double, rawField: Vector3? = nil, calibratedField: Vector3? = nil,
                fieldStrength: Double? = nil, roll: Double? = nil, pitch: Double? = nil,
                rawMagneticHeading: Double? = nil, magneticHeading: Double? = nil, declination: Double? = nil,
                declinationSource: String? = nil, trueHeading: Double? = nil, accuracy: Double? = nil,
                flags: [String] = [], gnssMode: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
                altitude: Double? = nil, speed: Double? = nil, course: Double? = nil,
                horizontalError: Double? = nil, fixDistance: Double? = nil, fixBearing: Double? = nil,
                acceleration: Vector3? = nil, rotationRate: Vector3? = nil,
                rollAccuracy: Double? = nil, pitchAccuracy: Double? = nil) {
        self.rollAccuracy = rollAccuracy
        self.pitchAccuracy = pitchAccuracy
        self.time = time
        self.monotonic = monotonic
        self.rawField = rawField
        self.calibratedField = calibratedField
        self.fieldStrength = fieldStrength
        self.roll = roll
        self.pitch = pitch
        self.rawMagneticHeading = rawMagneticHeading
        self.magneticHeading = magneticHeading
        self.declination = declination
        self.declinationSource = declinationSource
        self.trueHeading = trueHeading
        self.accuracy = accuracy
        self.flags = flags
        self.gnssMode = gnssMode
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.horizontalError = horizontalError
        self.fixDistance = fixDistance
        self.fixBearing = fixBearing
        self.acceleration = acceleration
        self.rotationRate = rotationRate
    }

    /// True when the row carries a position (latitude and longitude).
    public var hasPosition: Bool { latitude != nil && longitude != nil }
}
