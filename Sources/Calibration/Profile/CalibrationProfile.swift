import Linear

/// Which sensor a profile belongs to.
///
/// ```swift
/// let id = SensorIdentity(chip: "qmc5883l", bus: 1, address: 0x0D)
/// ```
public struct SensorIdentity: Sendable, Hashable, CustomStringConvertible {
    /// Driver name of the chip, e.g. "qmc5883l" or "simulated".
    public var chip: String
    /// I²C bus number, when on a bus.
    public var bus: Int?
    /// 7-bit I²C address, when on a bus.
    public var address: Int?

    public init(chip: String, bus: Int? = nil, address: Int? = nil) {
        self.chip = chip; self.bus = bus; self.address = address
    }

    /// "qmc5883l on bus 1 at 0x0d".
    public var description: String {
        var s = chip
        if let bus { s += " on bus \(bus)" }
        if let address {
            let hex = String(address, radix: 16)
            s += " at 0x" + (hex.count < 2 ? "0" + hex : hex)
        }
        return s
    }
}

/// A stored magnetometer calibration (plus optional orientation, heading alignment, accelerometer
/// calibration and deviation card) for one sensor.
///
/// ```swift
/// let corrected = profile.apply(rawMicrotesla)     // matrix · (raw − offset)
/// let text = profile.jsonValue.serialized(pretty: true)
/// ```
public struct CalibrationProfile: Sendable, Hashable {
    /// The profile format version this code writes.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var sensor: SensorIdentity
    /// Hard-iron offset (unit of `unit`).
    public var offset: Vector3
    /// Soft-iron correction, symmetric, determinant 1.
    public var matrix: Matrix3
    /// Fitted field strength (unit of `unit`).
    public var fieldStrength: Double
    public var residualPercent: Double
    public var coveragePercent: Double
    public var spreadBeforePercent: Double
    public var spreadAfterPercent: Double
    public var wobblePercent: Double
    /// Samples used in the fit.
    public var sampleCount: Int
    /// Samples rejected as outliers.
    public var rejectedCount: Int
    public var model: CalibrationModel
    /// When the calibration was made (ISO 8601 text supplied by the caller).
    public var created: String
    /// Unit of the raw readings the profile applies to, e.g. "uT".
    public var unit: String
    /// Optional custom mounting rotation (sensor → body), applied by the reader's pipeline.
    public var mounting: Matrix3?
    /// Optional heading alignment added to the magnetic heading, degrees.
    public var yawOffsetDegrees: Double?
    /// Optional accelerometer calibration from the six-position procedure.
    public var accelerometer: AccelerometerCalibration?
    /// Optional residual deviation card.
    public var deviation: DeviationCard?

    public init(schemaVersion: Int = CalibrationProfile.currentSchemaVersion, sensor: SensorIdentity,
                offset: Vector3, matrix: Matrix3, fieldStrength: Double, residualPercent: Double = 0,
                coveragePercent: Double = 0, spreadBeforePercent: Double = 0, spreadAfterPercent: Double = 0,
                wobblePercent: Double = 0, sampleCount: Int = 0, rejectedCount: Int = 0,
                model: CalibrationModel = .full, created: String, unit: String = "uT",
                mounting: Matrix3? = nil, yawOffsetDegrees: Double? = nil,
                accelerometer: AccelerometerCalibration? = nil, deviation: DeviationCard? = nil) {
        self.schemaVersion = schemaVersion; self.sensor = sensor; self.offset = offset; self.matrix = matrix
        self.fieldStrength = fieldStrength; self.residualPercent = residualPercent
        self.coveragePercent = coveragePercent; self.spreadBeforePercent = spreadBeforePercent
        self.spreadAfterPercent = spreadAfterPercent; self.wobblePercent = wobblePercent
        self.sampleCount = sampleCount; self.rejectedCount = rejectedCount; self.model = model
        self.created = created; self.unit = unit; self.mounting = mounting
        self.yawOffsetDegrees = yawOffsetDegrees; self.accelerometer = accelerometer; self.deviation = deviation
    }

    /// A profile that changes nothing (identity matrix, zero offset).
    public static func identity(sensor: SensorIdentity, created: String, unit: String = "uT",
                                fieldStrength: Double = 50) -> CalibrationProfile {
        CalibrationProfile(sensor: sensor, offset: .zero, matrix: .identity, fieldStrength: fieldStrength,
                           model: .offset, created: created, unit: unit)
    }

    /// The corrected magnetometer reading: matrix · (raw − offset). Mounting and yaw offset are
    /// not applied here (they belong to the orientation stage).
    @inlinable public func apply(_ raw: Vector3) -> Vector3 { matrix * (raw - offset) }

    /// The fit this profile stores.
    public var fit: EllipsoidFit {
        EllipsoidFit(offset: offset, matrix: matrix, fieldStrength: fieldStrength, model: model)
    }
}

/// Residual heading corrections by sector (a classic compass deviation card), in degrees.
/// Entry `i` applies at heading `i · 360 / count`; in between, values are interpolated.
///
/// ```swift
/// let card = DeviationCard(corrections: Array(repeating: 0.5, count: 36))
/// let fixed = heading + card.correction(atHeading: heading)
/// ```
public struct DeviationCard: Sendable, Hashable {
    public var corrections: [Double]

    public init(corrections: [Double]) { self.corrections = corrections }

    /// The interpolated correction at a heading in degrees (0 for an empty card or bad input).
    public func correction(atHeading heading: Double) -> Double {
        guard !corrections.isEmpty, heading.isFinite else { return 0 }
        let n = Double(corrections.count)
        let h = wrap360(heading)
        let position = h / 360 * n
        let i = Int(position) % corrections.count
        let j = (i + 1) % corrections.count
        let f = position - position.rounded(.down)
        let value = corrections[i] * (1 - f) + corrections[j] * f
        return value.isFinite ? value : 0
    }
}
