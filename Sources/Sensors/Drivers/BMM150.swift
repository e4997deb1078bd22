import Linear
import Platform

/// BMM150 (Bosch) at 0x10–0x13 (SDO and CSB2 straps; many breakout boards use 0x13).
///
/// After power-on the chip is suspended and answers only register 0x4B: the driver sets the power bit,
/// waits the 3 ms start-up time, then checks the chip ID (0x40 = 0x32) and reads the factory trim
/// registers (0x5D–0x71). Raw X/Y (13-bit), Z (15-bit) and the Hall resistance RHALL (14-bit) only
/// become microtesla through Bosch's trim compensation (`BMM150Trim.compensate`). Normal mode with a
/// repetition preset; X/Y reading −4096 or Z reading −16384 mean overflow.
///
/// ```swift
/// let chip = try BMM150(bus: bus, address: 0x13)           // enhanced-regular preset, 30 Hz
/// if let field = try chip.readIfReady() { print(field) }   // µT, chip axes
/// ```
public final class BMM150: Magnetometer {
    public static let defaultAddress: I2CAddress = 0x10
    /// Every address the strap pins select.
    public static let addresses: [I2CAddress] = [0x10, 0x11, 0x12, 0x13]
    /// Chip ID (0x40) reads 0x32 once the power bit is set.
    public static let identity: UInt8 = 0x32
    /// Start-up time from suspend to sleep mode.
    public static let startUpTime = 0.003

    public enum Register {
        public static let chipID: UInt8 = 0x40
        public static let dataXL: UInt8 = 0x42         // X, Y, Z, RHALL little-endian with flag bits, 0x42–0x49
        public static let interruptStatus: UInt8 = 0x4A
        public static let powerControl: UInt8 = 0x4B   // soft reset [7] and [1], power control [0]
        public static let operationMode: UInt8 = 0x4C  // data rate [5:3], opmode [2:1], self-test [0]
        public static let interruptEnable: UInt8 = 0x4D
        public static let repetitionsXY: UInt8 = 0x51  // nXY = 1 + 2·REPXY
        public static let repetitionsZ: UInt8 = 0x52   // nZ = 1 + REPZ
        public static let trimStart: UInt8 = 0x5D      // dig_x1 … dig_xy1, 0x5D–0x71
    }

    public enum PowerControl {
        public static let powerOn: UInt8 = 0x01
        public static let softReset: UInt8 = 0x82
    }

    /// Operation modes (bits 2:1 of 0x4C).
    public enum OperationMode {
        public static let normal: UInt8 = 0b00
        public static let forced: UInt8 = 0b01
        public static let sleep: UInt8 = 0b11
    }

    /// The data-ready flag: bit 0 of RHALL_LSB (0x48).
    public static let dataReady: UInt8 = 0x01
    /// Bytes of trim data read from `Register.trimStart`.
    public static let trimLength = 21

    /// Normal-mode output data rate (bits 5:3 of 0x4C).
    public enum Rate: UInt8, CaseIterable, Sendable {
        case hz10 = 0, hz2, hz6, hz8, hz15, hz20, hz25, hz30
        public var hertz: Double { [10, 2, 6, 8, 15, 20, 25, 30][Int(rawValue)] }
    }

    /// Bosch's repetition presets: more repetitions, less noise, lower maximum rate.
    public enum Preset: CaseIterable, Sendable {
        case lowPower, regular, enhancedRegular, highAccuracy
        /// REPXY and REPZ register values.
        public var repetitions: (xy: UInt8, z: UInt8) {
            switch self {
            case .lowPower: return (1, 2)
            case .regular: return (4, 14)
            case .enhancedRegular: return (7, 26)
            case .highAccuracy: return (23, 82)
            }
        }
        /// Datasheet RMS noise (x/y, z) in µT.
        public var noise: (xy: Double, z: Double) {
            switch self {
            case .lowPower: return (1.0, 1.4)
            case .regular: return (0.6, 0.6)
            case .enhancedRegular: return (0.5, 0.5)
            case .highAccuracy: return (0.3, 0.3)
            }
        }
        /// Highest rate the repetitions allow: 1 / (145 µs·nXY + 500 µs·nZ + 980 µs).
        public var maximumRate: Double {
            let nXY = 1 + 2 * Double(repetitions.xy), nZ = 1 + Double(repetitions.z)
            return 1 / (145e-6 * nXY + 500e-6 * nZ + 980e-6)
        }
    }

    public let bus: any I2CBus
    public let address: I2CAddress
    public let preset: Preset
    public let rate: Rate
    /// The factory trim read at probe.
    public private(set) var trim = BMM150Trim()
    public private(set) var info: SensorInfo

    /// Powers the chip up, checks the chip ID, reads the trim registers and configures it.
    public init(bus: any I2CBus, address: I2CAddress = BMM150.defaultAddress, preset: Preset = .enhancedRegular,
                rate: Rate = .hz30) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.preset = preset
        self.rate = rate
        info = SensorInfo(chip: .bmm150, bus: bus.busNumber, address: address, fullScale: 1300,
                          noise: preset.noise.xy, outputRate: min(rate.hertz, preset.maximumRate))
        try probe()
        try configure()
    }

    /// Sets the power bit (suspend → sleep), waits the start-up time, checks the chip ID and reads the trim.
    public func probe() throws(SensorError) {
        let id: UInt8
        do {
            try bus.writeRegister(address: address, register: Register.powerControl, value: PowerControl.powerOn)
            Clock.sleep(seconds: Self.startUpTime)
            id = try bus.readRegister(address: address, register: Register.chipID)
        } catch { throw .bus(error) }
        guard id == Self.identity else {
            throw .wrongChip(expected: .bmm150, bus: bus.busNumber, address: address,
                             evidence: "register 0x40 (chip ID) reads \(hexAddress(id)) after power-on; expected 0x32")
        }
        let trimBytes: [UInt8]
        do {
            trimBytes = try bus.readRegisters(address: address, start: Register.trimStart, count: Self.trimLength)
        } catch { throw .bus(error) }
        guard let parsed = BMM150Trim(registers: trimBytes) else {
            throw .bus(.shortRead(bus: bus.busNumber, address: address, expected: Self.trimLength, got: trimBytes.count))
        }
        trim = parsed
    }

    /// The operation-mode byte: data rate, normal mode.
    public var operationModeValue: UInt8 { rate.rawValue << 3 | OperationMode.normal << 1 }

    public func configure() throws(SensorError) {
        do {
            // Soft reset keeps the power bit and leaves the chip in sleep mode with default registers.
            try bus.writeRegister(address: address, register: Register.powerControl,
                                  value: PowerControl.softReset | PowerControl.powerOn)
            Clock.sleep(seconds: Self.startUpTime)
            try bus.writeRegister(address: address, register: Register.repetitionsXY, value: preset.repetitions.xy)
            try bus.writeRegister(address: address, register: Register.repetitionsZ, value: preset.repetitions.z)
            try bus.writeRegister(address: address, register: Register.operationMode, value: operationModeValue)
        } catch { throw .bus(error) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        let bytes: [UInt8]
        do { bytes = try bus.readRegisters(address: address, start: Register.dataXL, count: 8) } catch { throw .bus(error) }
        guard bytes.count >= 8 else {
            throw .bus(.shortRead(bus: bus.busNumber, address: address, expected: 8, got: bytes.count))
        }
        guard bytes[6] & Self.dataReady != 0 else { return nil }
        // All 0xFF compensates to a small, believable field: it is the bus, not the chip.
        if bytes.allSatisfy({ $0 == 0xFF }) { throw .bus(.allOnes(bus: bus.busNumber, address: address)) }
        guard let field = Self.decode(bytes, trim: trim) else { throw .overflow(.bmm150) }
        return field
    }

    /// Raw data registers 0x42–0x49 to µT (chip axes) through the trim compensation.
    /// Nil when `bytes` is short, an axis reads its overflow code, or RHALL is 0.
    @inlinable
    public static func decode(_ bytes: [UInt8], trim: BMM150Trim) -> Vector3? {
        guard let raw = BMM150Raw(registers: bytes) else { return nil }
        return trim.compensate(raw)
    }
}
