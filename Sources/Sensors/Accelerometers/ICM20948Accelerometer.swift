import Linear

/// The accelerometer of the ICM-20948 9-axis IMU (TDK datasheet DS-000189), at 0x68 or 0x69.
/// Its magnetometer, the AK09916, is reached through the chip's I²C bypass and has its own driver.
///
/// The register file has four banks chosen by REG_BANK_SEL (0x7F); this driver always leaves bank 0
/// selected, never resets the chip, and keeps INT_PIN_CFG's bypass bit, so the magnetometer stays
/// reachable while both drivers share the chip. ±2 g, about 102 Hz (1125 / 11), DLPF on.
///
/// The gyroscope runs at ±500 °/s (65.5 counts per °/s; see `InvenSenseGyroRange`) with
/// GYRO_DLPFCFG 4, a 23.9 Hz low-pass (under the 50 Hz Nyquist limit, about 8 ms delay), at
/// 1100 / (1 + 10) = 100 Hz. `readMotionIfReady` reads accelerometer and gyro (0x2D–0x38) in one
/// transfer, so both come from the same instant.
///
/// ```swift
/// let accel = try ICM20948Accelerometer(bus: bus)    // 0x69 on most breakout boards
/// if let g = try accel.readIfReady() { print(g) }     // g, chip axes
/// if let m = try accel.readMotionIfReady() { print(m.rotationRate!) }   // °/s, chip axes
/// ```
public final class ICM20948Accelerometer: Accelerometer {
    public static let defaultAddress: I2CAddress = 0x69
    /// WHO_AM_I (bank 0, 0x00) reads 0xEA.
    public static let identity: UInt8 = 0xEA

    /// Bank 0 registers.
    public enum Register {
        public static let whoAmI: UInt8 = 0x00
        public static let userControl: UInt8 = 0x03
        public static let powerManagement1: UInt8 = 0x06   // bit7 DEVICE_RESET, bit6 SLEEP, CLKSEL[2:0]
        public static let powerManagement2: UInt8 = 0x07   // DISABLE_ACCEL[5:3], DISABLE_GYRO[2:0]
        public static let interruptPinConfig: UInt8 = 0x0F // bit1 BYPASS_EN
        public static let interruptEnable1: UInt8 = 0x11   // bit0 RAW_DATA_0_RDY_EN
        public static let interruptStatus1: UInt8 = 0x1A   // bit0 RAW_DATA_0_RDY_INT, cleared by reading
        public static let accelXHigh: UInt8 = 0x2D         // X, Y, Z big-endian, 0x2D–0x32
        public static let gyroXHigh: UInt8 = 0x33          // X, Y, Z big-endian, 0x33–0x38
        /// Present in every bank: USER_BANK[5:4].
        public static let bankSelect: UInt8 = 0x7F
    }

    /// Bank 2 registers.
    public enum Bank2 {
        public static let gyroRateDivider: UInt8 = 0x00    // GYRO_SMPLRT_DIV: rate = 1100 / (1 + div)
        public static let gyroConfig1: UInt8 = 0x01        // GYRO_DLPFCFG[5:3] GYRO_FS_SEL[2:1] GYRO_FCHOICE[0]
        public static let accelRateDivider1: UInt8 = 0x10  // ACCEL_SMPLRT_DIV[11:8]
        public static let accelRateDivider2: UInt8 = 0x11  // ACCEL_SMPLRT_DIV[7:0]
        public static let accelConfig: UInt8 = 0x14        // DLPFCFG[5:3] FS_SEL[2:1] FCHOICE[0]
    }

    /// Full-scale range (ACCEL_FS_SEL).
    public typealias Range = InvenSenseAccelerometerRange
    /// Gyroscope full-scale range (GYRO_FS_SEL).
    public typealias GyroRange = InvenSenseGyroRange
    /// GYRO_DLPFCFG 4: 23.9 Hz bandwidth.
    public static let gyroLowPassSetting: UInt8 = 4
    public static let gyroBandwidth = 23.9
    /// GYRO_SMPLRT_DIV 10: 1100 / 11 = 100 Hz.
    public static let gyroDivider: UInt8 = 10

    public let bus: any I2CBus
    public let address: I2CAddress
    public let range: Range
    /// Output rate = 1125 / (1 + divider) Hz.
    public let divider: UInt16
    public let gyroRange: GyroRange
    public private(set) var info: AccelerometerInfo
    public var gyroscope: GyroscopeInfo? {
        GyroscopeInfo(fullScale: gyroRange.fullScale, bandwidth: Self.gyroBandwidth,
                      outputRate: 1100 / (1 + Double(Self.gyroDivider)))
    }

    public init(bus: any I2CBus, address: I2CAddress = ICM20948Accelerometer.defaultAddress, range: Range = .g2,
                divider: UInt16 = 10, gyroRange: GyroRange = .dps500) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.range = range
        self.gyroRange = gyroRange
        self.divider = min(divider, 0x0FFF)
        info = AccelerometerInfo(kind: .icm20948, bus: bus.busNumber, address: address,
                                 fullScale: range.fullScale, outputRate: 1125 / (1 + Double(min(divider, 0x0FFF))))
        try probe()
        try configure()
    }

    /// Checks WHO_AM_I in bank 0 (selecting bank 0 first).
    public func probe() throws(SensorError) {
        do { try bus.writeRegister(address: address, register: Register.bankSelect, value: 0x00) } catch { throw .bus(error) }
        try bus.checkIdentity(address: address, register: Register.whoAmI, expected: Self.identity, accelerometer: .icm20948)
    }

    /// The ACCEL_CONFIG byte: DLPF setting 3 (about 50 Hz), the range, DLPF enabled.
    public var accelConfigValue: UInt8 { 3 << 3 | range.rawValue << 1 | 0x01 }
    /// The GYRO_CONFIG_1 byte: DLPF setting 4 (23.9 Hz), the range, DLPF enabled.
    public var gyroConfigValue: UInt8 { Self.gyroLowPassSetting << 3 | gyroRange.rawValue << 1 | 0x01 }

    public func configure() throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: Register.bankSelect, value: 0x00)
            try bus.writeRegister(address: address, register: Register.powerManagement1, value: 0x01)  // wake, auto clock
            try bus.writeRegister(address: address, register: Register.powerManagement2, value: 0x00)  // all axes on
            try bus.writeRegister(address: address, register: Register.interruptEnable1, value: 0x01)
            try bus.writeRegister(address: address, register: Register.bankSelect, value: 0x20)
            try bus.writeRegister(address: address, register: Bank2.gyroRateDivider, value: Self.gyroDivider)
            try bus.writeRegister(address: address, register: Bank2.gyroConfig1, value: gyroConfigValue)
            try bus.writeRegister(address: address, register: Bank2.accelRateDivider1, value: UInt8(divider >> 8))
            try bus.writeRegister(address: address, register: Bank2.accelRateDivider2, value: UInt8(divider & 0xFF))
            try bus.writeRegister(address: address, register: Bank2.accelConfig, value: accelConfigValue)
            try bus.writeRegister(address: address, register: Register.bankSelect, value: 0x00)
        } catch { throw .bus(error) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.interruptStatus1, ready: 0x01,
                                                    start: Register.accelXHigh, count: 6)
        else { return nil }
        // Big-endian X, Y, Z counts from registers 0x2D–0x32.
        guard let g = RegisterBytes.unsaturatedVector(bytes, littleEndian: false, scale: 1 / range.countsPerG) else {
            throw .accelerometerSaturated(.icm20948)
        }
        return g
    }

    public func readMotionIfReady() throws(SensorError) -> MotionReading? {
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.interruptStatus1, ready: 0x01,
                                                    start: Register.accelXHigh, count: 12)
        else { return nil }
        return try InvenSenseMotion.decode(bytes, gyroOffset: 6, accelerometer: range, gyro: gyroRange, kind: .icm20948)
    }
}
