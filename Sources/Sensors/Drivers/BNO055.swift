import Linear
import Platform

/// BNO055 (Bosch), at 0x28 (COM3 low, Adafruit default) or 0x29, read as a raw 9-axis sensor: AMG mode
/// (accelerometer, magnetometer and gyro, no on-chip fusion), so the heading comes from Lodestone's own
/// filter and calibration like every other chip. This class is the magnetometer; `BNO055Motion` reads
/// the accelerometer and gyro of the same chip.
///
/// Set-up (`BNO055.configureAMG`): page 0, CONFIG mode (then 19 ms), normal power, UNIT_SEL 0x01 (mg,
/// °/s), page 1: accelerometer ±2 g at 31.25 Hz bandwidth, magnetometer 20 Hz enhanced-regular preset,
/// gyro ±500 °/s at 32 Hz bandwidth; page 0, AMG mode (then 7 ms). Scaling: 16 counts per µT and per
/// °/s, 1 count per mg. The chip has no data-ready flag for raw data, so the driver paces the magnetometer
/// on its own clock (`now`) at 20 Hz. CALIB_STAT (0x35) is read by `calibrationStatus` and shown by
/// `detect`. The BNO055 stretches the I²C clock, which the Raspberry Pi's controller mishandles: see
/// hardware/bno055.md.
///
/// ```swift
/// let chip = try BNO055(bus: bus)                          // 0x28, AMG mode
/// if let field = try chip.readIfReady() { print(field) }   // µT, chip axes
/// print(try chip.calibrationStatus())                      // sys, gyro, accel, mag: 0…3 each
/// ```
public final class BNO055: Magnetometer {
    public static let defaultAddress: I2CAddress = 0x28
    public static let alternateAddress: I2CAddress = 0x29
    /// CHIP_ID (0x00) reads 0xA0.
    public static let identity: UInt8 = 0xA0
    public static let countsPerMicrotesla = 16.0
    public static let countsPerDegreePerSecond = 16.0
    /// Magnetometer range: ±1300 µT on X and Y (the BMM150 inside); Z (±2500 µT on the BMM150) is
    /// limited by the 16-bit output at 16 counts per µT to ±2047 µT.
    public static let magneticLimit = Vector3(1300, 1300, 2047)
    public static let magnetometerRate = 20.0

    /// Page 0 registers.
    public enum Register {
        public static let chipID: UInt8 = 0x00
        public static let pageID: UInt8 = 0x07
        public static let accelXLow: UInt8 = 0x08     // X, Y, Z little-endian, 0x08–0x0D
        public static let magXLow: UInt8 = 0x0E       // 0x0E–0x13
        public static let gyroXLow: UInt8 = 0x14      // 0x14–0x19
        public static let calibrationStatus: UInt8 = 0x35   // SYS[7:6] GYR[5:4] ACC[3:2] MAG[1:0]
        public static let systemStatus: UInt8 = 0x39
        public static let unitSelect: UInt8 = 0x3B
        public static let operationMode: UInt8 = 0x3D
        public static let powerMode: UInt8 = 0x3E
        public static let systemTrigger: UInt8 = 0x3F
    }

    /// Page 1 registers: the sensors' own configuration (used in non-fusion modes).
    public enum Page1 {
        public static let accelConfig: UInt8 = 0x08   // PWR[7:5] BW[4:2] RANGE[1:0]
        public static let magConfig: UInt8 = 0x09     // PWR[6:5] OPR[4:3] ODR[2:0]
        public static let gyroConfig0: UInt8 = 0x0A   // BW[5:3] RANGE[2:0]
    }

    public enum Mode {
        public static let config: UInt8 = 0x00
        public static let amg: UInt8 = 0x07
        public static let ndof: UInt8 = 0x0C
    }

    /// ±2 g, 31.25 Hz bandwidth, normal power.
    public static let accelConfigValue: UInt8 = 0b010 << 2 | 0b00
    /// 20 Hz, enhanced regular preset, normal power.
    public static let magConfigValue: UInt8 = 0b10 << 3 | 0b101
    /// ±500 °/s, 32 Hz bandwidth.
    public static let gyroConfigValue: UInt8 = 0b111 << 3 | 0b010
    /// UNIT_SEL: accelerometer in mg, gyro in °/s, Celsius, Windows orientation.
    public static let unitsValue: UInt8 = 0x01

    public let bus: any I2CBus
    public let address: I2CAddress
    private let now: @Sendable () -> Double
    private let sleep: @Sendable (Double) -> Void
    private var pacer = ReadPacer(rate: BNO055.magnetometerRate)
    public private(set) var info: SensorInfo

    /// Probes CHIP_ID and puts the chip in AMG mode. `now` paces the reads (no data-ready flag);
    /// `sleep` waits out the mode switches (the simulator's chip switches at once).
    public init(bus: any I2CBus, address: I2CAddress = BNO055.defaultAddress,
                now: @escaping @Sendable () -> Double = { Clock.monotonic() },
                sleep: @escaping @Sendable (Double) -> Void = { Clock.sleep(seconds: $0) }) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.now = now
        self.sleep = sleep
        info = SensorInfo(chip: .bno055, bus: bus.busNumber, address: address, fullScale: 1300, noise: 0.5,
                          outputRate: Self.magnetometerRate)
        try probe()
        try configure()
    }

    /// Checks CHIP_ID (page 0, 0x00 reads 0xA0).
    public func probe() throws(SensorError) {
        do { try bus.writeRegister(address: address, register: Register.pageID, value: 0) } catch { throw .bus(error) }
        try bus.checkIdentity(address: address, register: Register.chipID, expected: Self.identity, chip: .bno055,
                              label: "CHIP_ID")
    }

    public func configure() throws(SensorError) {
        try Self.configureAMG(bus: bus, address: address, sleep: sleep)
        pacer.reset()
    }

    /// The AMG set-up both halves of the driver use (see the type's documentation).
    public static func configureAMG(bus: any I2CBus, address: I2CAddress, sleep: (Double) -> Void) throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: Register.pageID, value: 0)
            try bus.writeRegister(address: address, register: Register.operationMode, value: Mode.config)
            sleep(0.019)
            try bus.writeRegister(address: address, register: Register.powerMode, value: 0x00)
            try bus.writeRegister(address: address, register: Register.unitSelect, value: unitsValue)
            try bus.writeRegister(address: address, register: Register.pageID, value: 1)
            try bus.writeRegister(address: address, register: Page1.accelConfig, value: accelConfigValue)
            try bus.writeRegister(address: address, register: Page1.magConfig, value: magConfigValue)
            try bus.writeRegister(address: address, register: Page1.gyroConfig0, value: gyroConfigValue)
            try bus.writeRegister(address: address, register: Register.pageID, value: 0)
            try bus.writeRegister(address: address, register: Register.operationMode, value: Mode.amg)
            sleep(0.007)
        } catch { throw .bus(error) }
    }

    /// CALIB_STAT as (system, gyro, accelerometer, magnetometer), each 0 (uncalibrated) … 3 (fully).
    public func calibrationStatus() throws(SensorError) -> CalibrationStatus {
        CalibrationStatus(try bus.readSensorRegister(address: address, register: Register.calibrationStatus))
    }

    /// The BNO055's own calibration levels, 0…3 each.
    public struct CalibrationStatus: Sendable, Equatable, CustomStringConvertible {
        public var system, gyro, accelerometer, magnetometer: Int
        public init(_ byte: UInt8) {
            system = Int(byte >> 6); gyro = Int(byte >> 4 & 3); accelerometer = Int(byte >> 2 & 3); magnetometer = Int(byte & 3)
        }
        /// "sys 3, gyro 3, accel 1, mag 2".
        public var description: String { "sys \(system), gyro \(gyro), accel \(accelerometer), mag \(magnetometer)" }
    }

    /// One magnetometer reading per 1/20 s on the driver's clock (the chip has no data-ready flag).
    public func readIfReady() throws(SensorError) -> Vector3? {
        let t = now()
        guard pacer.isDue(at: t) else { return nil }
        let bytes = try bus.readSensorBlock(address: address, start: Register.magXLow, count: 6)
        pacer.mark(t)
        guard let field = Self.decodeField(bytes) else { throw .overflow(.bno055) }
        return field
    }

    /// MAG_DATA (0x0E–0x13) to µT; nil beyond the magnetometer's range.
    public static func decodeField(_ bytes: [UInt8]) -> Vector3? {
        guard bytes.count >= 6 else { return nil }
        let v = RegisterBytes.scaled(RegisterBytes.int16LE(bytes, 0), RegisterBytes.int16LE(bytes, 2),
                                     RegisterBytes.int16LE(bytes, 4), by: 1 / countsPerMicrotesla)
        guard abs(v.x) < magneticLimit.x, abs(v.y) < magneticLimit.y, abs(v.z) < magneticLimit.z else { return nil }
        return v
    }
}

/// The accelerometer and gyro of a `BNO055` in AMG mode: one 18-byte read of 0x08–0x19 gives the
/// accelerometer (mg), magnetometer and gyro (16 counts per °/s) of the same moment. It sets the chip up
/// only when it is not in AMG mode already (the magnetometer driver normally has).
///
/// ```swift
/// let imu = try BNO055Motion(bus: bus)
/// if let m = try imu.readMotionIfReady() { print(m.acceleration, m.rotationRate!) }
/// ```
public final class BNO055Motion: Accelerometer {
    typealias R = BNO055.Register
    public let bus: any I2CBus
    public let address: I2CAddress
    private let sleep: @Sendable (Double) -> Void
    public private(set) var info: AccelerometerInfo
    public var gyroscope: GyroscopeInfo? { GyroscopeInfo(fullScale: 500, bandwidth: 32, outputRate: 100) }

    public init(bus: any I2CBus, address: I2CAddress = BNO055.defaultAddress,
                sleep: @escaping @Sendable (Double) -> Void = { Clock.sleep(seconds: $0) }) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.sleep = sleep
        info = AccelerometerInfo(kind: .bno055, bus: bus.busNumber, address: address, fullScale: 2, outputRate: 62.5)
        do { try bus.writeRegister(address: address, register: R.pageID, value: 0) } catch { throw .bus(error) }
        try bus.checkIdentity(address: address, register: R.chipID, expected: BNO055.identity, accelerometer: .bno055)
        try configure()
    }

    /// AMG set-up, unless the chip is in AMG mode already.
    public func configure() throws(SensorError) {
        let mode = try bus.readSensorRegister(address: address, register: R.operationMode)
        if mode & 0x0F != BNO055.Mode.amg { try BNO055.configureAMG(bus: bus, address: address, sleep: sleep) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? { try readMotionIfReady()?.acceleration }

    public func readMotionIfReady() throws(SensorError) -> MotionReading? {
        let bytes = try bus.readSensorBlock(address: address, start: R.accelXLow, count: 18)
        guard let g = RegisterBytes.unsaturatedVector(bytes, littleEndian: true, scale: 0.001),
              [g.x, g.y, g.z].allSatisfy({ abs($0) < 1.999 })
        else { throw .accelerometerSaturated(.bno055) }
        guard let rate = RegisterBytes.unsaturatedVector(Array(bytes[12..<18]), littleEndian: true,
                                                         scale: 1 / BNO055.countsPerDegreePerSecond),
              [rate.x, rate.y, rate.z].allSatisfy({ abs($0) < 499.9 })
        else { throw .gyroscopeSaturated(.bno055) }
        return MotionReading(acceleration: g, rotationRate: rate)
    }
}
