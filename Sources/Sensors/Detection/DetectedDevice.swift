/// What answered at an address, as far as its identity registers tell.
public enum DetectedChip: Sendable, Equatable {
    /// A magnetometer Lodestone drives.
    case magnetometer(ChipKind)
    /// An accelerometer Lodestone drives (for tilt).
    case accelerometer(AccelerometerKind)
    /// A part recognised by its identity register that Lodestone does not drive (e.g. "ADXL345").
    case unsupported(String)
    /// Something answered, but no identity register matched.
    case unknown

    /// The name for tables: "QMC5883L", "ICM-20948", "unknown device".
    public var name: String {
        switch self {
        case .magnetometer(let chip): return chip.displayName
        case .accelerometer(let kind): return kind.displayName
        case .unsupported(let name): return name
        case .unknown: return "unknown device"
        }
    }

    /// "magnetometer", "accelerometer", "unsupported" or "unknown" (for JSON).
    public var category: String {
        switch self {
        case .magnetometer: return "magnetometer"
        case .accelerometer: return "accelerometer"
        case .unsupported: return "unsupported"
        case .unknown: return "unknown"
        }
    }

    /// The name `--sensor` or `--accelerometer` takes for this chip, when Lodestone drives it.
    public var optionName: String? {
        switch self {
        case .magnetometer(let chip): return chip.rawValue
        case .accelerometer(let kind): return kind.rawValue
        case .unsupported, .unknown: return nil
        }
    }
}

/// How sure detection is of an identification.
public enum DetectionConfidence: String, Sendable, Comparable, CaseIterable {
    /// Partial evidence: one weak register, or an identity at an address the chip never uses.
    case low
    /// Identity registers match but are shared with another part or weak on their own.
    case medium
    /// A distinctive identity register at an address the chip uses (and, where the identity is weak,
    /// a sane data read too).
    case high

    private var rank: Int { self == .low ? 0 : (self == .medium ? 1 : 2) }
    public static func < (a: DetectionConfidence, b: DetectionConfidence) -> Bool { a.rank < b.rank }

    /// One step less sure (low stays low).
    public var lowered: DetectionConfidence { self == .high ? .medium : .low }
}

/// One row of a detection report.
///
/// ```swift
/// DetectedDevice(bus: 1, address: 0x0D, chip: .magnetometer(.qmc5883l), confidence: .high,
///                evidence: "reg 0x0d = 0xff, reg 0x0c = 0x01 (QMC5883L identity); data read 52.3 µT")
/// ```
public struct DetectedDevice: Sendable, Equatable {
    public var bus: Int
    public var address: I2CAddress
    public var chip: DetectedChip
    public var confidence: DetectionConfidence
    /// What the registers said, e.g. "reg 0x0f = 0x3d (LIS3MDL WHO_AM_I)".
    public var evidence: String

    public init(bus: Int, address: I2CAddress, chip: DetectedChip, confidence: DetectionConfidence, evidence: String) {
        self.bus = bus
        self.address = address
        self.chip = chip
        self.confidence = confidence
        self.evidence = evidence
    }

    /// The magnetometer kind when this row is a driven magnetometer.
    public var magnetometer: ChipKind? {
        if case .magnetometer(let chip) = chip { return chip }
        return nil
    }

    /// The accelerometer kind when this row is a driven accelerometer.
    public var accelerometer: AccelerometerKind? {
        if case .accelerometer(let kind) = chip { return kind }
        return nil
    }
}
