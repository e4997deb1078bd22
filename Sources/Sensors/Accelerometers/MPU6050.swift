import Linear

/// MPU-6050 accelerometer (InvenSense register map rev. 4.2), the IMU on GY-521 boards.
///
/// Chosen as the standalone accelerometer because the GY-521 is the most common hobby IMU board wired
/// to a Raspberry Pi: cheap, 3.3 V-friendly, and the same register family as the ICM-20948's
/// predecessors. It has no magnetometer, so it pairs with any of the magnetometer boards; the gyro is
/// left running but not read. Address 0x68 (AD0 low) or 0x69 (AD0 high — use this when a DS3231 clock
/// module already sits at 0x68).
///
/// ```swift
/// let accel = try MPU6050(bus: bus)                 // 0x68, ±2 g, 100 Hz
/// if let g = try accel.readIfReady() { print(g) }    // g, chip axes
/// ```
public final class MPU6050: Accelerometer {
    public static let defaultAddress: I2CAddress = 0x68
    /// WHO_AM_I reads 0x68 whatever the AD0 strap.
    public static let identity: UInt8 = 0x68

    public enum Register {
        public static let sampleRateDivider: UInt8 = 0x19   // rate = 1 kHz / (1 + div) with the DLPF on
        public static let config: UInt8 = 0x1A              // DLPF_CFG[2:0]
        public static let accelConfig: UInt8 = 0x1C         // AFS_SEL[4:3]
        public static let interruptPinConfig: UInt8 = 0x37
        public static let interruptEnable: UInt8 = 0x38     // bit0 DATA_RDY_EN
        public static let interruptStatus: UInt8 = 0x3A     // bit0 DATA_RDY_INT, cleared by reading
        public static let accelXHigh: UInt8 = 0x3B          // X, Y, Z big-endian, 0x3B–0x40
        public static let powerManagement1: UInt8 = 0x6B    // bit7 DEVICE_RESET, bit6 SLEEP, CLKSEL[2:0]
        public static let powerManagement2: UInt8 = 0x6C
        public static let whoAmI: UInt8 = 0x75
    }

    /// Full-scale range (AFS_SEL).
    public typealias Range = InvenSenseAccelerometerRange

    public let bus: any I2CBus
    public let address: I2CAddress
    public let range: Range
    /// Sample-rate divider: output rate = 1000 / (1 + divider) Hz.
    public let divider: UInt8
    public private(set) var info: AccelerometerInfo

    /// Probes WHO_AM_I and configures: wake on the X-gyro PLL clock, DLPF 44 Hz, 100 Hz, data-ready flag.
    public init(bus: any I2CBus, address: I2CAddress = MPU6050.defaultAddress, range: Range = .g2,
                divider: UInt8 = 9) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.range = range
        self.divider = divider
        info = AccelerometerInfo(kind: .mpu6050, bus: bus.busNumber, address: address,
                                 fullScale: range.fullScale, outputRate: 1000 / (1 + Double(divider)))
        try probe()
        try configure()
    }

    /// Checks WHO_AM_I (0x75 reads 0x68).
    public func probe() throws(SensorError) {
        try bus.checkIdentity(address: address, register: Register.whoAmI, expected: Self.identity, accelerometer: .mpu6050)
    }

    /// Writes every register the driver relies on (no device reset, which needs a 100 ms pause).
    public func configure() throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: Register.powerManagement1, value: 0x01)
            try bus.writeRegister(address: address, register: Register.powerManagement2, value: 0x00)
            try bus.writeRegister(address: address, register: Register.config, value: 0x03)
            try bus.writeRegister(address: address, register: Register.sampleRateDivider, value: divider)
            try bus.writeRegister(address: address, register: Register.accelConfig, value: range.rawValue << 3)
            try bus.writeRegister(address: address, register: Register.interruptEnable, value: 0x01)
        } catch { throw .bus(error) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.interruptStatus, ready: 0x01,
                                                    start: Register.accelXHigh, count: 6)
        else { return nil }
        // Big-endian X, Y, Z counts from registers 0x3B–0x40.
        guard let g = RegisterBytes.unsaturatedVector(bytes, littleEndian: false, scale: 1 / range.countsPerG) else {
            throw .accelerometerSaturated(.mpu6050)
        }
        return g
    }
}
