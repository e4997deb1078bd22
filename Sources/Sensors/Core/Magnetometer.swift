import Linear

/// The magnetometer chips Lodestone drives.
public enum ChipKind: String, CaseIterable, Sendable, Codable {
    case qmc5883l, hmc5883l, lis3mdl, lis2mdl, mmc5983ma, bmm150, ak09916
    /// The magnetometer of the LSM9DS1 (Sense HAT, BerryIMU v2): the LIS3MDL's register map.
    case lsm9ds1
    /// The AK8963 inside the MPU-9250/MPU-9255, reached through the MPU's I²C bypass.
    case ak8963
    /// The BNO055 read as a raw 9-axis sensor (AMG mode).
    case bno055
    /// The CMPS14/CMPS12 compass module, read for its raw magnetometer.
    case cmps14

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
        case .bno055: return "BNO055"
        case .cmps14: return "CMPS14"
        }
    }
}

/// A board or IMU name `--sensor` accepts: the magnetometer on it and, where the board carries one,
/// its accelerometer/gyro.
///
/// ```swift
/// let board = SensorAlias.named("berryimu-v3")   // LIS3MDL beside an LSM6DSL
/// ```
public struct SensorAlias: Sendable, Equatable {
    public var name: String
    public var chip: ChipKind
    public var accelerometer: AccelerometerKind?

    public static let all: [SensorAlias] = [
        SensorAlias(name: "mpu9250", chip: .ak8963, accelerometer: .mpu9250),
        SensorAlias(name: "mpu9255", chip: .ak8963, accelerometer: .mpu9250),
        SensorAlias(name: "icm20948", chip: .ak09916, accelerometer: .icm20948),
        SensorAlias(name: "sense-hat", chip: .lsm9ds1, accelerometer: .lsm9ds1),
        SensorAlias(name: "berryimu-v2", chip: .lsm9ds1, accelerometer: .lsm9ds1),
        SensorAlias(name: "berryimu-v3", chip: .lis3mdl, accelerometer: .lsm6dsl),
        SensorAlias(name: "lsm6dsl", chip: .lis3mdl, accelerometer: .lsm6dsl),
        SensorAlias(name: "lsm6dsox", chip: .lis3mdl, accelerometer: .lsm6dsox),
        SensorAlias(name: "gy271", chip: .qmc5883l, accelerometer: nil),
        SensorAlias(name: "bno055", chip: .bno055, accelerometer: .bno055),
        SensorAlias(name: "cmps12", chip: .cmps14, accelerometer: nil),
    ]

    /// The alias for `text` (case ignored), or a chip's own name with no partner; nil when unknown.
    public static func named(_ text: String) -> SensorAlias? {
        let key = text.lowercased()
        if let chip = ChipKind(rawValue: key) { return SensorAlias(name: key, chip: chip, accelerometer: nil) }
        return all.first { $0.name == key }
    }

    /// Every name `named` accepts: the chips, then the aliases.
    public static var acceptedNames: [String] { ChipKind.allCases.map(\.rawValue) + all.map(\.name) }
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
