import Linear

/// The accelerometer and gyroscope of the LSM9DS1 (ST datasheet DocID025715), at 0x6A (SDO_AG low:
/// Sense HAT, BerryIMU v2) or 0x6B. Its magnetometer is a separate I²C device at 0x1C/0x1E with the
/// LIS3MDL's register map (`LIS3MDL(model: .lsm9ds1)`).
///
/// Both run together at 119 Hz (with the gyro on, the accelerometer follows the gyro's ODR): gyro
/// ±500 °/s (17.5 m°/s per count) with BW_G 01, a 31 Hz low-pass (under the 59.5 Hz Nyquist limit);
/// accelerometer ±2 g (0.061 mg per count). Block data update is on and IF_ADD_INC (register pointer
/// auto-increment, on by default) is kept. STATUS_REG's XLDA says a new sample is ready; the gyro
/// (0x18–0x1D) and accelerometer (0x28–0x2D) words are little-endian.
///
/// ```swift
/// let imu = try LSM9DS1AccelGyro(bus: bus)                        // 0x6A
/// if let m = try imu.readMotionIfReady() { print(m.acceleration, m.rotationRate!) }   // g, °/s, chip axes
/// ```
public final class LSM9DS1AccelGyro: Accelerometer {
    public static let defaultAddress: I2CAddress = 0x6A
    public static let alternateAddress: I2CAddress = 0x6B
    /// WHO_AM_I (0x0F) reads 0x68.
    public static let identity: UInt8 = 0x68

    public enum Register {
        public static let whoAmI: UInt8 = 0x0F
        public static let control1G: UInt8 = 0x10    // ODR_G[7:5] FS_G[4:3] BW_G[1:0]
        public static let control3G: UInt8 = 0x12    // HP_EN[6]
        public static let status: UInt8 = 0x17       // TDA[2] GDA[1] XLDA[0]
        public static let gyroXLow: UInt8 = 0x18     // X, Y, Z little-endian, 0x18–0x1D
        public static let control4: UInt8 = 0x1E     // Zen_G Yen_G Xen_G [5:3]
        public static let control5XL: UInt8 = 0x1F   // Zen_XL Yen_XL Xen_XL [5:3]
        public static let control6XL: UInt8 = 0x20   // ODR_XL[7:5] FS_XL[4:3] BW_SCAL_ODR[2] BW_XL[1:0]
        public static let control8: UInt8 = 0x22     // BOOT[7] BDU[6] … IF_ADD_INC[2] BLE[1] SW_RESET[0]
        public static let accelXLow: UInt8 = 0x28    // X, Y, Z little-endian, 0x28–0x2D
    }

    public enum Status {
        public static let accelerometerReady: UInt8 = 0x01
        public static let gyroReady: UInt8 = 0x02
    }

    public enum Control8 {
        public static let blockDataUpdate: UInt8 = 0x40
        public static let autoIncrement: UInt8 = 0x04
        public static let softReset: UInt8 = 0x01
    }

    /// All three axes on (CTRL_REG4 and CTRL_REG5_XL).
    public static let allAxes: UInt8 = 0x38

    /// Output data rates (ODR_G; ODR_XL uses the same codes from 119 Hz up).
    public enum Rate: UInt8, CaseIterable, Sendable {
        case hz14_9 = 1, hz59_5, hz119, hz238, hz476, hz952
        public var hertz: Double { [0, 14.9, 59.5, 119, 238, 476, 952][Int(rawValue)] }
        /// Gyro low-pass bandwidth for BW_G 01 (datasheet table 47).
        public var gyroBandwidth: Double { [0, 5, 16, 31, 29, 28, 40][Int(rawValue)] }
    }

    /// Accelerometer full scale (FS_XL) and sensitivity.
    public enum Range: UInt8, CaseIterable, Sendable {
        case g2 = 0, g16 = 1, g4 = 2, g8 = 3
        public var gPerCount: Double { [0.061, 0.732, 0.122, 0.244][Int(rawValue)] / 1000 }
        public var fullScale: Double { [2, 16, 4, 8][Int(rawValue)] }
    }

    /// Gyro full scale (FS_G; code 2 is not available) and sensitivity.
    public enum GyroRange: UInt8, CaseIterable, Sendable {
        case dps245 = 0, dps500 = 1, dps2000 = 3
        public var degreesPerSecondPerCount: Double {
            switch self {
            case .dps245: return 0.00875
            case .dps500: return 0.0175
            case .dps2000: return 0.07
            }
        }
        public var fullScale: Double {
            switch self {
            case .dps245: return 245
            case .dps500: return 500
            case .dps2000: return 2000
            }
        }
    }

    public let bus: any I2CBus
    public let address: I2CAddress
    public let rate: Rate
    public let range: Range
    public let gyroRange: GyroRange
    public private(set) var info: AccelerometerInfo
    public var gyroscope: GyroscopeInfo? {
        GyroscopeInfo(fullScale: gyroRange.fullScale, bandwidth: rate.gyroBandwidth, outputRate: rate.hertz)
    }

    /// Probes WHO_AM_I and configures: 119 Hz, ±2 g, ±500 °/s, BDU.
    public init(bus: any I2CBus, address: I2CAddress = LSM9DS1AccelGyro.defaultAddress, rate: Rate = .hz119,
                range: Range = .g2, gyroRange: GyroRange = .dps500) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.rate = rate
        self.range = range
        self.gyroRange = gyroRange
        info = AccelerometerInfo(kind: .lsm9ds1, bus: bus.busNumber, address: address,
                                 fullScale: range.fullScale, outputRate: rate.hertz)
        try probe()
        try configure()
    }

    /// Checks WHO_AM_I (0x0F reads 0x68).
    public func probe() throws(SensorError) {
        try bus.checkIdentity(address: address, register: Register.whoAmI, expected: Self.identity, accelerometer: .lsm9ds1)
    }

    /// CTRL_REG1_G: rate, gyro range, BW_G 01.
    public var control1GValue: UInt8 { rate.rawValue << 5 | gyroRange.rawValue << 3 | 0x01 }
    /// CTRL_REG6_XL: rate, accelerometer range, bandwidth from the ODR.
    public var control6XLValue: UInt8 { rate.rawValue << 5 | range.rawValue << 3 }

    public func configure() throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: Register.control8,
                                  value: Control8.blockDataUpdate | Control8.autoIncrement)
            try bus.writeRegister(address: address, register: Register.control4, value: Self.allAxes)
            try bus.writeRegister(address: address, register: Register.control5XL, value: Self.allAxes)
            try bus.writeRegister(address: address, register: Register.control3G, value: 0x00)   // no high-pass
            try bus.writeRegister(address: address, register: Register.control6XL, value: control6XLValue)
            try bus.writeRegister(address: address, register: Register.control1G, value: control1GValue)
        } catch { throw .bus(error) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.status,
                                                    ready: Status.accelerometerReady, start: Register.accelXLow, count: 6)
        else { return nil }
        return try decodeAcceleration(bytes)
    }

    /// Gyro words (0x18–0x1D), then the accelerometer's (0x28–0x2D), once XLDA says a sample is ready.
    public func readMotionIfReady() throws(SensorError) -> MotionReading? {
        guard let gyro = try bus.readSampleIfReady(address: address, status: Register.status,
                                                   ready: Status.accelerometerReady, start: Register.gyroXLow, count: 6)
        else { return nil }
        let accel = try bus.readSensorBlock(address: address, start: Register.accelXLow, count: 6)
        let g = try decodeAcceleration(accel)
        guard let rate = RegisterBytes.unsaturatedVector(gyro, littleEndian: true, scale: gyroRange.degreesPerSecondPerCount)
        else { throw .gyroscopeSaturated(.lsm9ds1) }
        return MotionReading(acceleration: g, rotationRate: rate)
    }

    private func decodeAcceleration(_ bytes: [UInt8]) throws(SensorError) -> Vector3 {
        guard let g = RegisterBytes.unsaturatedVector(bytes, littleEndian: true, scale: range.gPerCount) else {
            throw .accelerometerSaturated(.lsm9ds1)
        }
        return g
    }
}
