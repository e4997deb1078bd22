import Linear

/// The LSM6DSL and LSM6DSOX (ST) accelerometer + gyroscope, at 0x6A (SA0 low: BerryIMU v3) or 0x6B.
/// The two share the registers Lodestone uses; WHO_AM_I tells them apart (0x6A, 0x6C). Neither has a
/// magnetometer: on the BerryIMU v3 a LIS3MDL sits beside it at 0x1C.
///
/// Both run at 104 Hz: accelerometer ±2 g (0.061 mg per count), gyro ±500 °/s (17.5 m°/s per count).
/// The gyro's optional LPF1 stays off, leaving the chip's own ODR-dependent filter (about 33 Hz at
/// 104 Hz in the datasheets' bandwidth tables), under the 52 Hz Nyquist limit. Block data update and
/// IF_INC (register auto-increment) are on, so gyro (0x22–0x27) and accelerometer (0x28–0x2D) words,
/// little-endian, come in one 12-byte read after STATUS_REG (0x1E) shows XLDA.
///
/// ```swift
/// let imu = try LSM6DSL(bus: bus)                                  // 0x6A; an LSM6DSOX too
/// if let m = try imu.readMotionIfReady() { print(m.acceleration, m.rotationRate!) }   // g, °/s, chip axes
/// ```
public final class LSM6DSL: Accelerometer {
    public static let defaultAddress: I2CAddress = 0x6A
    public static let alternateAddress: I2CAddress = 0x6B

    /// Which part: the identity differs, the registers used here do not.
    public enum Model: Sendable, Equatable, CaseIterable {
        case lsm6dsl, lsm6dsox

        public var kind: AccelerometerKind { self == .lsm6dsl ? .lsm6dsl : .lsm6dsox }
        /// WHO_AM_I (0x0F).
        public var identity: UInt8 { self == .lsm6dsl ? 0x6A : 0x6C }
    }

    public enum Register {
        public static let whoAmI: UInt8 = 0x0F
        public static let control1XL: UInt8 = 0x10   // ODR_XL[7:4] FS_XL[3:2]
        public static let control2G: UInt8 = 0x11    // ODR_G[7:4] FS_G[3:2] FS_125[1]
        public static let control3C: UInt8 = 0x12    // BOOT[7] BDU[6] … IF_INC[2] BLE[1] SW_RESET[0]
        public static let status: UInt8 = 0x1E       // TDA[2] GDA[1] XLDA[0]
        public static let gyroXLow: UInt8 = 0x22     // X, Y, Z little-endian, 0x22–0x27
        public static let accelXLow: UInt8 = 0x28    // X, Y, Z little-endian, 0x28–0x2D
    }

    public enum Status {
        public static let accelerometerReady: UInt8 = 0x01
        public static let gyroReady: UInt8 = 0x02
    }

    public enum Control3 {
        public static let blockDataUpdate: UInt8 = 0x40
        public static let autoIncrement: UInt8 = 0x04
        public static let softReset: UInt8 = 0x01
    }

    /// ODR code 4 (ODR_XL and ODR_G): 104 Hz.
    public static let rateCode: UInt8 = 4
    public static let rate = 104.0
    public static let gyroBandwidth = 33.0
    /// Output rates by ODR code (0: power-down).
    public static let rates: [Double] = [0, 12.5, 26, 52, 104, 208, 416, 833, 1660, 3330, 6660]

    /// Accelerometer full scale (FS_XL) and sensitivity.
    public enum Range: UInt8, CaseIterable, Sendable {
        case g2 = 0, g16 = 1, g4 = 2, g8 = 3
        public var gPerCount: Double { [0.061, 0.488, 0.122, 0.244][Int(rawValue)] / 1000 }
        public var fullScale: Double { [2, 16, 4, 8][Int(rawValue)] }
    }

    /// Gyro full scale (FS_G) and sensitivity.
    public enum GyroRange: UInt8, CaseIterable, Sendable {
        case dps250 = 0, dps500 = 1, dps1000 = 2, dps2000 = 3
        public var degreesPerSecondPerCount: Double { [0.00875, 0.0175, 0.035, 0.07][Int(rawValue)] }
        public var fullScale: Double { [250, 500, 1000, 2000][Int(rawValue)] }
    }

    public let bus: any I2CBus
    public let address: I2CAddress
    public let range: Range
    public let gyroRange: GyroRange
    /// The part WHO_AM_I named at probe.
    public private(set) var model: Model
    public private(set) var info: AccelerometerInfo
    public var gyroscope: GyroscopeInfo? {
        GyroscopeInfo(fullScale: gyroRange.fullScale, bandwidth: Self.gyroBandwidth, outputRate: Self.rate)
    }

    /// Probes WHO_AM_I (either part) and configures: 104 Hz, ±2 g, ±500 °/s, BDU.
    public init(bus: any I2CBus, address: I2CAddress = LSM6DSL.defaultAddress, range: Range = .g2,
                gyroRange: GyroRange = .dps500) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.range = range
        self.gyroRange = gyroRange
        model = .lsm6dsl
        info = AccelerometerInfo(kind: .lsm6dsl, bus: bus.busNumber, address: address,
                                 fullScale: range.fullScale, outputRate: Self.rate)
        try probe()
        try configure()
    }

    /// Checks WHO_AM_I: 0x6A (LSM6DSL) or 0x6C (LSM6DSOX), and notes which.
    public func probe() throws(SensorError) {
        let id = try bus.checkIdentity(address: address, register: Register.whoAmI,
                                       expected: Model.allCases.map(\.identity), accelerometer: .lsm6dsl)
        model = Model.allCases.first { $0.identity == id } ?? .lsm6dsl
        info.kind = model.kind
    }

    public var control1XLValue: UInt8 { Self.rateCode << 4 | range.rawValue << 2 }
    public var control2GValue: UInt8 { Self.rateCode << 4 | gyroRange.rawValue << 2 }

    public func configure() throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: Register.control3C,
                                  value: Control3.blockDataUpdate | Control3.autoIncrement)
            try bus.writeRegister(address: address, register: Register.control1XL, value: control1XLValue)
            try bus.writeRegister(address: address, register: Register.control2G, value: control2GValue)
        } catch { throw .bus(error) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        try readMotionIfReady()?.acceleration
    }

    public func readMotionIfReady() throws(SensorError) -> MotionReading? {
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.status,
                                                    ready: Status.accelerometerReady, start: Register.gyroXLow, count: 12)
        else { return nil }
        guard let g = RegisterBytes.unsaturatedVector(Array(bytes[6..<12]), littleEndian: true, scale: range.gPerCount)
        else { throw .accelerometerSaturated(model.kind) }
        guard let rate = RegisterBytes.unsaturatedVector(bytes, littleEndian: true, scale: gyroRange.degreesPerSecondPerCount)
        else { throw .gyroscopeSaturated(model.kind) }
        return MotionReading(acceleration: g, rotationRate: rate)
    }
}
