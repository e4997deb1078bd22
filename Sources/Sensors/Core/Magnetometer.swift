import Linear

/// The magnetometer chips Lodestone drives.
public enum ChipKind: String, CaseIterable, Sendable, Codable {
    case qmc5883l, hmc5883l, lis3mdl, lis2mdl, mmc5983ma, bmm150, ak09916
    /// The magnetometer of the LSM9DS1 (Sense HAT, BerryIMU v2): the LIS3MDL's register map.
    case lsm9ds1

    /// The name as printed on datasheets.
    public var displayName: String {
        switch self {
        case .qmc5883l: return "QMC5883L"
        case .hmc5883l: return "HMC5883L"
        case .lis3mdl: return "LIS3MDL"
        case .lis2mdl: return "LIS2MDL"
        case .mmc5983ma: return "MMC5983MA"
        case .bmm150: return "BMM150"
        case .ak09916: return "AK09916"
        case .lsm9ds1: return "LSM9DS1"
        }
    }
}

/// What a driver knows about the chip it is talking to.
public struct SensorInfo: Sendable, Equatable {
    public var chip: ChipKind
    public var bus: Int
    public var address: I2CAddress
    /// Largest field the configured range measures, per axis, in µT.
    public var fullScale: Double
    /// Typical RMS noise per axis at the configured rate, in µT.
    public var noise: Double
    /// Configured output data rate in Hz.
    public var outputRate: Double
    /// Warnings from the probe worth showing once (e.g. a QMC5883L revision 1.0 identity).
    public var notes: [String]

    public init(chip: ChipKind, bus: Int, address: I2CAddress, fullScale: Double, noise: Double, outputRate: Double,
                notes: [String] = []) {
        self.chip = chip
        self.bus = bus
        self.address = address
        self.fullScale = fullScale
        self.noise = noise
        self.outputRate = outputRate
        self.notes = notes
    }

    /// "QMC5883L on bus 1 at 0x0d".
    public var summary: String { "\(chip.displayName) on bus \(bus) at \(hexAddress(address))" }
}

/// A magnetometer driver. Output is in microtesla, in the chip's own axes as printed on the board
/// (the mounting orientation maps them to body axes).
///
/// ```swift
/// let chip = try QMC5883L(bus: bus)          // probes identity and configures
/// if let field = try chip.readIfReady() { … } // nil: no new sample yet
/// ```
public protocol Magnetometer: AnyObject {
    var info: SensorInfo { get }
    /// (Re)initialises the chip: reset, rate, range, mode. Called after the device returns from a fault.
    func configure() throws(SensorError)
    /// The newest sample in µT (chip axes), or nil when no new data is ready.
    /// Throws `.overflow` when the field exceeded the range: the sample is dropped, never clipped.
    func readIfReady() throws(SensorError) -> Vector3?
}
