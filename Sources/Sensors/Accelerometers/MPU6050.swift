import Linear

/// MPU-6050 accelerometer (InvenSense register map rev. 4.2), the IMU on GY-521 boards.
///
/// Chosen as the standalone accelerometer because the GY-521 is the most common hobby IMU board wired
/// to a Raspberry Pi: cheap, 3.3 V-friendly, and the same register family as the ICM-20948's
/// predecessors. It has no magnetometer, so it pairs with any of the magnetometer boards. Address 0x68
/// (AD0 low) or 0x69 (AD0 high — use this when a DS3231 clock module already sits at 0x68).
///
/// The gyroscope runs at ±500 °/s (65.5 counts per °/s: quick hand turns stay in range, 0.015 °/s
/// resolution) behind the same digital low-pass filter as the accelerometer, DLPF_CFG 3: 42 Hz for
/// the gyro (44 Hz accelerometer), under the 50 Hz Nyquist limit of the 100 Hz output rate, with
/// about 5 ms of delay. `readMotionIfReady` reads accelerometer, temperature and gyro (0x3B–0x48) in
/// one transfer, so both come from the same sample.
///
/// The MPU-9250/MPU-9255 (`model: .mpu9250`, WHO_AM_I 0x71/0x73) has the same accelerometer and gyro
/// registers; its accelerometer has its own low-pass (ACCEL_CONFIG2, set to 44.8 Hz) and DLPF_CFG 3
/// gives its gyro 41 Hz. Its AK8963 magnetometer is a separate driver (`AK8963`) behind the bypass,
/// which this driver never touches (no reset, INT_PIN_CFG and USER_CTRL left as they are).
///
/// ```swift
/// let accel = try MPU6050(bus: bus)                 // 0x68, ±2 g, ±500 °/s, 100 Hz
/// if let g = try accel.readIfReady() { print(g) }    // g, chip axes
/// if let m = try accel.readMotionIfReady() { print(m.rotationRate!) }   // °/s, chip axes
/// ```
public final class MPU6050: Accelerometer {
    public static let defaultAddress: I2CAddress = 0x68
    /// WHO_AM_I reads 0x68 whatever the AD0 strap.
    public static let identity: UInt8 = 0x68

    public enum Register {
        public static let sampleRateDivider: UInt8 = 0x19   // rate = 1 kHz / (1 + div) with the DLPF on
        public static let config: UInt8 = 0x1A              // DLPF_CFG[2:0]
        public static let gyroConfig: UInt8 = 0x1B          // FS_SEL[4:3]
        public static let accelConfig: UInt8 = 0x1C         // AFS_SEL[4:3]
        public static let accelConfig2: UInt8 = 0x1D        // MPU-9250 only: ACCEL_FCHOICE_B[3] A_DLPFCFG[2:0]
        public static let interruptPinConfig: UInt8 = 0x37
        public static let interruptEnable: UInt8 = 0x38     // bit0 DATA_RDY_EN
        public static let interruptStatus: UInt8 = 0x3A     // bit0 DATA_RDY_INT, cleared by reading
        public static let accelXHigh: UInt8 = 0x3B          // X, Y, Z big-endian, 0x3B–0x40
        public static let temperatureHigh: UInt8 = 0x41     // 0x41–0x42
        public static let gyroXHigh: UInt8 = 0x43           // X, Y, Z big-endian, 0x43–0x48
        public static let userControl: UInt8 = 0x6A         // I2C_MST_EN[5]
        public static let powerManagement1: UInt8 = 0x6B    // bit7 DEVICE_RESET, bit6 SLEEP, CLKSEL[2:0]
        public static let powerManagement2: UInt8 = 0x6C
        public static let whoAmI: UInt8 = 0x75
    }

    /// Which InvenSense part: the register map is shared, the identity and the accelerometer's filter differ.
    public enum Model: Sendable, Equatable {
        case mpu6050, mpu9250

        public var kind: AccelerometerKind { self == .mpu6050 ? .mpu6050 : .mpu9250 }
        /// WHO_AM_I values: 0x68; 0x71 (MPU-9250) or 0x73 (MPU-9255).
        public var identities: [UInt8] { self == .mpu6050 ? [0x68] : [0x71, 0x73] }
        public var gyroBandwidth: Double { self == .mpu6050 ? 42 : 41 }
    }

    /// Full-scale range (AFS_SEL).
    public typealias Range = InvenSenseAccelerometerRange
    /// Gyroscope full-scale range (FS_SEL).
    public typealias GyroRange = InvenSenseGyroRange
    /// DLPF_CFG 3: 44 Hz accelerometer, 42 Hz gyro bandwidth, 1 kHz internal rate.
    public static let lowPassSetting: UInt8 = 0x03
    /// ACCEL_CONFIG2 on the MPU-9250: A_DLPFCFG 3, 44.8 Hz.
    public static let accelLowPassSetting: UInt8 = 0x03
    /// Bytes from ACCEL_XOUT_H to GYRO_ZOUT_L, and the gyro's offset in them.
    static let motionBlock = (count: 14, gyroOffset: 8)

    public let bus: any I2CBus
    public let address: I2CAddress
    public let range: Range
    /// Sample-rate divider: output rate = 1000 / (1 + divider) Hz.
    public let divider: UInt8
    public let gyroRange: GyroRange
    public let model: Model
    public private(set) var info: AccelerometerInfo
    public var gyroscope: GyroscopeInfo? {
        GyroscopeInfo(fullScale: gyroRange.fullScale, bandwidth: model.gyroBandwidth, outputRate: info.outputRate)
    }

    /// Probes WHO_AM_I and configures: wake on the X-gyro PLL clock, DLPF 44/42 Hz, 100 Hz, ±500 °/s,
    /// data-ready flag.
    public init(bus: any I2CBus, address: I2CAddress = MPU6050.defaultAddress, range: Range = .g2,
                divider: UInt8 = 9, gyroRange: GyroRange = .dps500, model: Model = .mpu6050) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.range = range
        self.divider = divider
        self.gyroRange = gyroRange
        self.model = model
        info = AccelerometerInfo(kind: model.kind, bus: bus.busNumber, address: address,
                                 fullScale: range.fullScale, outputRate: 1000 / (1 + Double(divider)))
        try probe()
        try configure()
    }

    /// Checks WHO_AM_I (0x75 reads 0x68; on the MPU-9250 0x71, or 0x73 for the MPU-9255).
    public func probe() throws(SensorError) {
        try bus.checkIdentity(address: address, register: Register.whoAmI, expected: model.identities,
                              accelerometer: model.kind)
    }

    /// Writes every register the driver relies on (no device reset, which needs a 100 ms pause).
    public func configure() throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: Register.powerManagement1, value: 0x01)
            try bus.writeRegister(address: address, register: Register.powerManagement2, value: 0x00)
            try bus.writeRegister(address: address, register: Register.config, value: Self.lowPassSetting)
            try bus.writeRegister(address: address, register: Register.sampleRateDivider, value: divider)
            try bus.writeRegister(address: address, register: Register.gyroConfig, value: gyroRange.rawValue << 3)
            try bus.writeRegister(address: address, register: Register.accelConfig, value: range.rawValue << 3)
            if model == .mpu9250 {
                try bus.writeRegister(address: address, register: Register.accelConfig2, value: Self.accelLowPassSetting)
            }
            try bus.writeRegister(address: address, register: Register.interruptEnable, value: 0x01)
        } catch { throw .bus(error) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.interruptStatus, ready: 0x01,
                                                    start: Register.accelXHigh, count: 6)
        else { return nil }
        // Big-endian X, Y, Z counts from registers 0x3B–0x40.
        guard let g = RegisterBytes.unsaturatedVector(bytes, littleEndian: false, scale: 1 / range.countsPerG) else {
            throw .accelerometerSaturated(model.kind)
        }
        return g
    }

    public func readMotionIfReady() throws(SensorError) -> MotionReading? {
        guard let bytes = try bus.readSampleBlockIfReady(address: address, status: Register.interruptStatus, ready: 0x01,
                                                         start: Register.accelXHigh, count: Self.motionBlock.count)
        else { return nil }
        return try InvenSenseMotion.decode(bytes, gyroOffset: Self.motionBlock.gyroOffset, accelerometer: range,
                                           gyro: gyroRange, kind: model.kind)
    }
}
