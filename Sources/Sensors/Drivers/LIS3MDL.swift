import Linear

/// LIS3MDL (ST), at 0x1C (SA1 low, Adafruit boards) or 0x1E (SA1 high, Pololu boards). The
/// magnetometer of the LSM9DS1 (Sense HAT, BerryIMU v2) has the same register map and WHO_AM_I, and
/// is driven by this class with `model: .lsm9ds1`: its own sensitivity (0.14 mG/LSB at ±4 G), and its
/// Y and Z axes turned to the accelerometer/gyro's (the die measures (x, −y, −z) of them), so the field
/// shares one frame with `LSM9DS1AccelGyro`.
///
/// Continuous mode, ultra-high-performance on all three axes, block data update. Multi-byte reads set
/// bit 7 of the register address (`autoIncrement`): without it the chip repeats the first register.
/// Output words sitting on a rail (±32767/−32768) mean the field exceeded the range: `.overflow`.
///
/// ```swift
/// let chip = try LIS3MDL(bus: bus)                         // 0x1C, 80 Hz, ±4 G, UHP
/// if let field = try chip.readIfReady() { print(field) }   // µT, chip axes
/// ```
public final class LIS3MDL: Magnetometer {
    public static let defaultAddress: I2CAddress = 0x1C
    public static let alternateAddress: I2CAddress = 0x1E
    /// WHO_AM_I (0x0F) reads 0x3D.
    public static let identity: UInt8 = 0x3D
    /// OR-ed into the register address of a multi-byte read to make the chip auto-increment.
    public static let autoIncrement: UInt8 = 0x80

    public enum Register {
        public static let whoAmI: UInt8 = 0x0F
        public static let control1: UInt8 = 0x20    // TEMP_EN[7] OM[6:5] DO[4:2] FAST_ODR[1] ST[0]
        public static let control2: UInt8 = 0x21    // FS[6:5] REBOOT[3] SOFT_RST[2]
        public static let control3: UInt8 = 0x22    // LP[5] SIM[2] MD[1:0]: 00 continuous, 01 single, 1x off
        public static let control4: UInt8 = 0x23    // OMZ[3:2] BLE[1]
        public static let control5: UInt8 = 0x24    // FAST_READ[7] BDU[6]
        public static let status: UInt8 = 0x27      // ZYXOR[7] … ZYXDA[3] …
        public static let outXL: UInt8 = 0x28       // X, Y, Z little-endian, 0x28–0x2D
        public static let temperatureL: UInt8 = 0x2E
        public static let interruptConfig: UInt8 = 0x30
        public static let interruptSource: UInt8 = 0x31
    }

    public enum Status {
        public static let xyzDataAvailable: UInt8 = 0x08
        public static let xyzOverrun: UInt8 = 0x80
    }

    public enum Control2 {
        public static let reboot: UInt8 = 0x08
        public static let softReset: UInt8 = 0x04
    }

    /// Block data update (control 5): the output registers change only after both bytes were read.
    public static let blockDataUpdate: UInt8 = 0x40

    /// Which part carries this register map.
    public enum Model: Sendable, Equatable {
        case lis3mdl, lsm9ds1

        public var chip: ChipKind { self == .lis3mdl ? .lis3mdl : .lsm9ds1 }

        /// Datasheet sensitivity: LIS3MDL 6842/3421/2281/1711 LSB/G; LSM9DS1 0.14/0.29/0.43/0.58 mG/LSB.
        public func countsPerGauss(_ range: Range) -> Double {
            switch self {
            case .lis3mdl: return range.countsPerGauss
            case .lsm9ds1: return 1000 / [0.14, 0.29, 0.43, 0.58][Int(range.rawValue)]
            }
        }

        /// The field in the board's frame from the die's axes (the LSM9DS1's magnetometer has Y and Z
        /// opposite to its accelerometer/gyro). Its own inverse.
        @inlinable
        public func boardAxes(_ die: Vector3) -> Vector3 { self == .lis3mdl ? die : Vector3(die.x, -die.y, -die.z) }
    }

    /// Full-scale range (FS bits) with the datasheet sensitivity.
    public enum Range: UInt8, CaseIterable, Sendable {
        case gauss4 = 0, gauss8, gauss12, gauss16
        public var countsPerGauss: Double { [6842, 3421, 2281, 1711][Int(rawValue)] }
        public var fullScaleMicrotesla: Double { [400, 800, 1200, 1600][Int(rawValue)] }
    }

    /// Operating mode (OM bits for X/Y, OMZ for Z): more averaging inside the chip, less noise.
    public enum PerformanceMode: UInt8, CaseIterable, Sendable {
        case lowPower = 0, medium, high, ultraHigh
        /// Output rate with FAST_ODR set.
        public var fastRate: Double { [1000, 560, 300, 155][Int(rawValue)] }
        /// RMS noise per axis in µT. Datasheet: 3.2 mG (X, Y) and 4.1 mG (Z) in ultra-high-performance
        /// mode at ±4 G; the lower modes average less (estimated √2 more noise per step).
        public var noise: Double { 0.35 * [2.8, 2.0, 1.4, 1.0][Int(rawValue)] }
    }

    /// Output data rate: the DO bits, or `fast` (FAST_ODR, rate set by the performance mode).
    public enum Rate: UInt8, CaseIterable, Sendable {
        case hz0_625 = 0, hz1_25, hz2_5, hz5, hz10, hz20, hz40, hz80, fast
        public func hertz(in mode: PerformanceMode) -> Double {
            self == .fast ? mode.fastRate : [0.625, 1.25, 2.5, 5, 10, 20, 40, 80][Int(rawValue)]
        }
    }

    public let bus: any I2CBus
    public let address: I2CAddress
    public let rate: Rate
    public let range: Range
    public let mode: PerformanceMode
    public let model: Model
    public private(set) var info: SensorInfo

    /// Probes WHO_AM_I and configures the chip.
    public init(bus: any I2CBus, address: I2CAddress = LIS3MDL.defaultAddress, rate: Rate = .hz80,
                range: Range = .gauss4, mode: PerformanceMode = .ultraHigh, model: Model = .lis3mdl) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.rate = rate
        self.range = range
        self.mode = mode
        self.model = model
        info = SensorInfo(chip: model.chip, bus: bus.busNumber, address: address, fullScale: range.fullScaleMicrotesla,
                          noise: mode.noise, outputRate: rate.hertz(in: mode))
        try probe()
        try configure()
    }

    /// Checks that WHO_AM_I reads 0x3D.
    public func probe() throws(SensorError) {
        try bus.checkIdentity(address: address, register: Register.whoAmI, expected: Self.identity, chip: model.chip)
    }

    /// Control 1: X/Y performance mode, data rate, FAST_ODR.
    public var control1Value: UInt8 {
        let dataRate = rate == .fast ? Rate.hz80.rawValue : rate.rawValue
        return mode.rawValue << 5 | dataRate << 2 | (rate == .fast ? 0x02 : 0)
    }
    /// Control 2: full scale.
    public var control2Value: UInt8 { range.rawValue << 5 }
    /// Control 4: Z performance mode (little-endian output).
    public var control4Value: UInt8 { mode.rawValue << 2 }

    public func configure() throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: Register.control2, value: Control2.softReset)
            try bus.writeRegister(address: address, register: Register.control1, value: control1Value)
            try bus.writeRegister(address: address, register: Register.control2, value: control2Value)
            try bus.writeRegister(address: address, register: Register.control4, value: control4Value)
            try bus.writeRegister(address: address, register: Register.control5, value: Self.blockDataUpdate)
            try bus.writeRegister(address: address, register: Register.control3, value: 0x00)  // continuous
        } catch { throw .bus(error) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.status, ready: Status.xyzDataAvailable,
                                                    start: Register.outXL | Self.autoIncrement, count: 6)
        else { return nil }
        guard let field = Self.decode(bytes, range: range, model: model) else { throw .overflow(model.chip) }
        return field
    }

    /// Raw little-endian X, Y, Z counts (registers 0x28–0x2D) to µT (board axes, see `Model`).
    /// Nil when `bytes` is short or an axis sits on a rail (saturated).
    @inlinable
    public static func decode(_ bytes: [UInt8], range: Range, model: Model = .lis3mdl) -> Vector3? {
        RegisterBytes.unsaturatedVector(bytes, littleEndian: true, scale: 100 / model.countsPerGauss(range))
            .map(model.boardAxes)
    }
}
