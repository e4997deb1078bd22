import Linear

/// The magnetometer chips Lodestone drives.
public enum ChipKind: String, CaseIterable, Sendable, Codable {
    case qmc5883l, hmc5883l, lis3mdl, lis2mdl, mmc5983ma, bmm150, ak09916
    /// The magnetometer of the LSM9DS1 (Sense HAT, BerryIMU v2): the LIS3MDL's register map.
    case lsm9ds1
    /// The AK8963 inside the MPU-9250/MPU-9255, reached through the MPU's I²C bypass.
    case ak8963

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
        case .ak8963: return "AK8963"
        }
    }
}

extension ChipKind {
    /// Board and IMU names `--sensor` also accepts, each meaning the magnetometer on it.
    public static let aliases: [(name: String, chip: ChipKind)] = [
        ("mpu9250", .ak8963), ("mpu9255", .ak8963), ("icm20948", .ak09916),
        ("sense-hat", .lsm9ds1), ("sensehat", .lsm9ds1), ("gy271", .qmc5883l),
    ]

    /// The chip for a `--sensor` name: a chip's raw value or an alias, case ignored.
    ///
    /// ```swift
    /// ChipKind.named("MPU9250")   // .ak8963, the MPU-9250's magnetometer
    /// ```
    public static func named(_ text: String) -> ChipKind? {
        let key = text.lowercased()
        return ChipKind(rawValue: key) ?? aliases.first { $0.name == key }?.chip
    }

    /// Every name `named` accepts: the chips, then the aliases.
    public static var acceptedNames: [String] { allCases.map(\.rawValue) + aliases.map(\.name) }
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
