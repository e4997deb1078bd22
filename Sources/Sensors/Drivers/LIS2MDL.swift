import Linear

/// LIS2MDL (ST) at 0x1E — also the magnetometer of the LSM303AGR and the industrial IIS2MDC, which
/// share its register map.
///
/// Continuous mode, high-resolution, temperature compensation on (ST requires it), offset cancellation
/// (the chip removes its own bridge offset with set/reset pulses), low-pass filter, block data update.
/// Fixed sensitivity 1.5 mG/LSB (±49 G). The chip auto-increments on multi-byte reads.
///
/// ```swift
/// let chip = try LIS2MDL(bus: bus)                         // 0x1E, 100 Hz
/// if let field = try chip.readIfReady() { print(field) }   // µT, chip axes
/// ```
public final class LIS2MDL: Magnetometer {
    public static let defaultAddress: I2CAddress = 0x1E
    /// WHO_AM_I (0x4F) reads 0x40.
    public static let identity: UInt8 = 0x40
    /// 1.5 mG per count, in µT.
    public static let microteslaPerCount = 0.15

    public enum Register {
        public static let offsetXL: UInt8 = 0x45     // hard-iron offsets, 0x45–0x4A
        public static let whoAmI: UInt8 = 0x4F
        public static let configA: UInt8 = 0x60      // COMP_TEMP_EN[7] REBOOT[6] SOFT_RST[5] LP[4] ODR[3:2] MD[1:0]
        public static let configB: UInt8 = 0x61      // OFF_CANC_ONE_SHOT[4] INT_on_DataOFF[3] Set_FREQ[2] OFF_CANC[1] LPF[0]
        public static let configC: UInt8 = 0x62      // INT_on_PIN[6] I2C_DIS[5] BDU[4] BLE[3] 4WSPI[2] ST[1] DRDY_on_PIN[0]
        public static let interruptControl: UInt8 = 0x63
        public static let interruptSource: UInt8 = 0x64
        public static let status: UInt8 = 0x67       // Zyxor[7] … Zyxda[3] …
        public static let outXL: UInt8 = 0x68        // X, Y, Z little-endian, 0x68–0x6D
        public static let temperatureL: UInt8 = 0x6E
    }

    public enum ConfigA {
        public static let temperatureCompensation: UInt8 = 0x80
        public static let reboot: UInt8 = 0x40
        public static let softReset: UInt8 = 0x20
        public static let lowPower: UInt8 = 0x10
    }

    public enum ConfigB {
        public static let offsetCancellation: UInt8 = 0x02
        public static let lowPassFilter: UInt8 = 0x01
    }

    public enum ConfigC {
        public static let blockDataUpdate: UInt8 = 0x10
    }

    public enum Status {
        public static let xyzDataAvailable: UInt8 = 0x08
        public static let xyzOverrun: UInt8 = 0x80
    }

    /// Output data rate (ODR bits).
    public enum Rate: UInt8, CaseIterable, Sendable {
        case hz10 = 0, hz20, hz50, hz100
        public var hertz: Double { [10, 20, 50, 100][Int(rawValue)] }
    }

    /// Largest field per axis, µT (±32767 counts × 1.5 mG).
    public static let fullScaleMicrotesla = 32767 * microteslaPerCount

    public let bus: any I2CBus
    public let address: I2CAddress
    public let rate: Rate
    public let lowPower: Bool
    public private(set) var info: SensorInfo

    /// Probes WHO_AM_I and configures the chip.
    public init(bus: any I2CBus, address: I2CAddress = LIS2MDL.defaultAddress, rate: Rate = .hz100,
                lowPower: Bool = false) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.rate = rate
        self.lowPower = lowPower
        // Datasheet RMS noise: 3 mG in high-resolution mode, 4.5 mG in low-power mode.
        info = SensorInfo(chip: .lis2mdl, bus: bus.busNumber, address: address, fullScale: Self.fullScaleMicrotesla,
                          noise: lowPower ? 0.45 : 0.3, outputRate: rate.hertz)
        try probe()
        try configure()
    }

    /// Checks that WHO_AM_I reads 0x40.
    public func probe() throws(SensorError) {
        try bus.checkIdentity(address: address, register: Register.whoAmI, expected: Self.identity, chip: .lis2mdl)
    }

    /// CFG_REG_A: temperature compensation, power mode, rate, continuous mode (MD = 00).
    public var configAValue: UInt8 {
        ConfigA.temperatureCompensation | (lowPower ? ConfigA.lowPower : 0) | rate.rawValue << 2
    }
    /// CFG_REG_B: offset cancellation and the low-pass filter.
    public var configBValue: UInt8 { ConfigB.offsetCancellation | ConfigB.lowPassFilter }

    public func configure() throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: Register.configA, value: ConfigA.softReset)
            try bus.writeRegister(address: address, register: Register.configB, value: configBValue)
            try bus.writeRegister(address: address, register: Register.configC, value: ConfigC.blockDataUpdate)
            try bus.writeRegister(address: address, register: Register.configA, value: configAValue)
        } catch { throw .bus(error) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.status,
                                                    ready: Status.xyzDataAvailable, start: Register.outXL, count: 6)
        else { return nil }
        guard let field = Self.decode(bytes) else { throw .overflow(.lis2mdl) }
        return field
    }

    /// Raw little-endian X, Y, Z counts (registers 0x68–0x6D) to µT (chip axes).
    /// Nil when `bytes` is short or an axis sits on a rail (saturated).
    @inlinable
    public static func decode(_ bytes: [UInt8]) -> Vector3? {
        RegisterBytes.unsaturatedVector(bytes, littleEndian: true, scale: microteslaPerCount)
    }
}
