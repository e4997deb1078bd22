import Linear

/// AK8963 (AKM), the magnetometer inside the MPU-9250 and MPU-9255, at 0x0C.
///
/// Like the ICM-20948's AK09916 it sits on the IMU's auxiliary bus: the driver first wakes an MPU-9250
/// found at 0x68 or 0x69 (WHO_AM_I 0x71, or 0x73 for the MPU-9255; anything else there is only read),
/// turns its I²C master off and sets INT_PIN_CFG.BYPASS_EN (bit 1). It then checks WIA (0x48), reads
/// the factory sensitivity adjustment from the fuse ROM (ASAX–ASAZ, 0x10–0x12; datasheet 8.3.11:
/// H_adj = H · ((ASA − 128) · 0.5 / 128 + 1)), soft-resets the chip and starts continuous measurement
/// mode 2 (100 Hz) with 16-bit output (0.15 µT per count). A sample is HXL…HZH plus ST2 in one read:
/// reading ST2 releases the data registers. ST2.HOFL (|X| + |Y| + |Z| beyond 4912 µT) is an overflow;
/// ST2.BITM says which output width the chip actually used, and the scale follows it.
///
/// Axes: the AK8963's X and Y are the accelerometer's Y and X, and its Z points the other way. The
/// driver reports the field in the accelerometer/gyro's (printed) axes, (y, x, −z) of the die, so it
/// shares one frame with `MPU6050(model: .mpu9250)`.
///
/// ```swift
/// let chip = try AK8963(bus: bus)                          // bypass via the MPU-9250, 100 Hz, 16-bit
/// if let field = try chip.readIfReady() { print(field) }   // µT, MPU-9250 axes, ASA applied
/// ```
public final class AK8963: Magnetometer {
    public static let defaultAddress: I2CAddress = 0x0C
    /// WIA (0x00) reads 0x48.
    public static let identity: UInt8 = 0x48
    /// 16-bit output: 0.15 µT per count (14-bit: 0.6).
    public static let microteslaPerCount = 0.15
    /// HOFL is set when |X| + |Y| + |Z| reaches this many µT.
    public static let overflowSum = 4912.0

    public enum Register {
        public static let deviceID: UInt8 = 0x00   // WIA
        public static let info: UInt8 = 0x01
        public static let status1: UInt8 = 0x02    // DOR[1] DRDY[0]
        public static let dataXL: UInt8 = 0x03     // X, Y, Z little-endian, 0x03–0x08
        public static let status2: UInt8 = 0x09    // BITM[4] HOFL[3]; reading it ends the sample
        public static let control1: UInt8 = 0x0A   // BIT[4] MODE[3:0]
        public static let control2: UInt8 = 0x0B   // SRST[0]
        public static let adjustmentX: UInt8 = 0x10   // ASAX, ASAY, ASAZ (fuse ROM)
    }

    public enum Status1 {
        public static let dataReady: UInt8 = 0x01
        public static let dataOverrun: UInt8 = 0x02
    }

    public enum Status2 {
        public static let overflow: UInt8 = 0x08
        public static let sixteenBit: UInt8 = 0x10
    }

    public enum Mode {
        public static let powerDown: UInt8 = 0x00
        public static let single: UInt8 = 0x01
        public static let continuous1: UInt8 = 0x02   // 8 Hz
        public static let continuous2: UInt8 = 0x06   // 100 Hz
        public static let fuseROM: UInt8 = 0x0F
        /// CNTL1.BIT: 16-bit output.
        public static let sixteenBit: UInt8 = 0x10
    }

    public let bus: any I2CBus
    public let address: I2CAddress
    public let hostAddresses: [I2CAddress]
    /// Where the MPU-9250 was found (nil: none, the AK8963 answered directly).
    public private(set) var host: I2CAddress?
    /// The fuse ROM's ASAX, ASAY, ASAZ.
    public private(set) var adjustmentBytes: [UInt8] = [128, 128, 128]
    public private(set) var info: SensorInfo

    /// Enables the MPU-9250's bypass (when present), probes WIA, reads the fuse ROM and configures.
    public init(bus: any I2CBus, address: I2CAddress = AK8963.defaultAddress,
                hostAddresses: [I2CAddress] = [0x68, 0x69]) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.hostAddresses = hostAddresses
        info = SensorInfo(chip: .ak8963, bus: bus.busNumber, address: address, fullScale: Self.overflowSum,
                          noise: 0.45, outputRate: 100)
        for candidate in hostAddresses where try BypassHost.mpu9250.answers(on: bus, at: candidate) {
            host = candidate
            break
        }
        try enableBypass()
        try probe()
        try readAdjustment()
        try configure(enablingBypass: false)
    }

    private func enableBypass() throws(SensorError) {
        guard let host else { return }
        try BypassHost.mpu9250.enable(on: bus, at: host)
    }

    /// Checks that WIA reads 0x48.
    public func probe() throws(SensorError) {
        try bus.checkIdentity(address: address, register: Register.deviceID, expected: Self.identity, chip: .ak8963,
                              label: "WIA")
    }

    /// Power-down, fuse ROM access, ASAX–ASAZ, power-down again.
    private func readAdjustment() throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: Register.control1, value: Mode.powerDown)
            try bus.writeRegister(address: address, register: Register.control1, value: Mode.fuseROM)
        } catch { throw .bus(error) }
        adjustmentBytes = try bus.readSensorBlock(address: address, start: Register.adjustmentX, count: 3)
        do {
            try bus.writeRegister(address: address, register: Register.control1, value: Mode.powerDown)
        } catch { throw .bus(error) }
    }

    /// The multipliers from the fuse ROM, per die axis.
    public var adjustment: Vector3 { Self.adjustment(adjustmentBytes) }

    /// ASA bytes to multipliers: (ASA − 128) · 0.5 / 128 + 1.
    public static func adjustment(_ asa: [UInt8]) -> Vector3 {
        func factor(_ i: Int) -> Double { i < asa.count ? (Double(asa[i]) - 128) * 0.5 / 128 + 1 : 1 }
        return Vector3(factor(0), factor(1), factor(2))
    }

    /// Re-enables the bypass (the MPU-9250 may have been reset too), soft-resets, starts continuous mode 2.
    public func configure() throws(SensorError) { try configure(enablingBypass: true) }

    private func configure(enablingBypass: Bool) throws(SensorError) {
        if enablingBypass { try enableBypass() }
        do {
            try bus.writeRegister(address: address, register: Register.control2, value: 0x01)   // SRST
            try bus.writeRegister(address: address, register: Register.control1, value: Mode.sixteenBit | Mode.continuous2)
        } catch { throw .bus(error) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        // HXL through ST2 in one read: reading ST2 releases the data registers for the next sample.
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.status1, ready: Status1.dataReady,
                                                    start: Register.dataXL, count: 7)
        else { return nil }
        guard let field = Self.decode(bytes, adjustment: adjustment) else { throw .overflow(.ak8963) }
        return field
    }

    /// Registers 0x03–0x09 (HXL…HZH, ST2) to µT in the MPU-9250's axes, (y, x, −z) of the die, each
    /// die axis times its fuse-ROM adjustment. Nil when short or ST2.HOFL is set.
    @inlinable
    public static func decode(_ bytes: [UInt8], adjustment: Vector3) -> Vector3? {
        guard bytes.count >= 7, bytes[6] & Status2.overflow == 0 else { return nil }
        let scale = bytes[6] & Status2.sixteenBit != 0 ? microteslaPerCount : 4 * microteslaPerCount
        let x = Double(RegisterBytes.int16LE(bytes, 0)) * scale * adjustment.x
        let y = Double(RegisterBytes.int16LE(bytes, 2)) * scale * adjustment.y
        let z = Double(RegisterBytes.int16LE(bytes, 4)) * scale * adjustment.z
        return Vector3(y, x, -z)
    }
}
