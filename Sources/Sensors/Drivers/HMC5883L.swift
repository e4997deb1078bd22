import Linear
import Platform

/// HMC5883L (Honeywell), the original GY-271/GY-273 chip at 0x1E. Many boards sold as "HMC5883L" carry
/// a QMC5883L at 0x0D instead: the identity check ("H43" in 0x0A–0x0C) tells them apart.
///
/// Continuous mode. The data registers hold X, **Z**, Y (big-endian); `decode` returns x, y, z.
/// An axis reads −4096 when its ADC overflowed: that sample is dropped with `.overflow`.
/// The RDY bit stays set after the data is read (it only drops for 250 µs while the chip writes a new
/// sample), so the driver also recognises a re-read of the same sample and returns nil for it.
///
/// ```swift
/// let chip = try HMC5883L(bus: bus)                        // 0x1E, 75 Hz, ±1.3 G
/// if let field = try chip.readIfReady() { print(field) }   // µT, chip axes
/// ```
public final class HMC5883L: Magnetometer {
    /// The only address the HMC5883L answers at.
    public static let defaultAddress: I2CAddress = 0x1E
    /// Identification registers A, B, C read "H43".
    public static let identity: [UInt8] = [0x48, 0x34, 0x33]
    /// What an axis reads when its ADC over- or underflowed.
    public static let overflowCode: Int16 = -4096

    public enum Register {
        public static let configA: UInt8 = 0x00     // MA[6:5] averaging, DO[4:2] rate, MS[1:0] bias
        public static let configB: UInt8 = 0x01     // GN[7:5] gain
        public static let mode: UInt8 = 0x02        // MD[1:0]: 00 continuous, 01 single, 1x idle
        public static let dataXMSB: UInt8 = 0x03    // X, Z, Y, each MSB then LSB, 0x03–0x08
        public static let status: UInt8 = 0x09      // bit0 RDY, bit1 LOCK
        public static let identityA: UInt8 = 0x0A   // 0x0A–0x0C
    }

    public enum Status {
        public static let ready: UInt8 = 0x01
        public static let lock: UInt8 = 0x02
    }

    public enum Mode {
        public static let continuous: UInt8 = 0x00
        public static let single: UInt8 = 0x01
        public static let idle: UInt8 = 0x03
    }

    /// Continuous-mode output rate (DO bits).
    public enum Rate: UInt8, CaseIterable, Sendable {
        case hz0_75 = 0, hz1_5, hz3, hz7_5, hz15, hz30, hz75
        public var hertz: Double { [0.75, 1.5, 3, 7.5, 15, 30, 75][Int(rawValue)] }
    }

    /// Samples averaged per output (MA bits).
    public enum Averaging: UInt8, CaseIterable, Sendable {
        case x1 = 0, x2, x4, x8
        public var count: Int { 1 << Int(rawValue) }
    }

    /// The eight gains (GN bits) with their datasheet sensitivity and recommended field range.
    public enum Gain: UInt8, CaseIterable, Sendable {
        case gauss0_88 = 0, gauss1_3, gauss1_9, gauss2_5, gauss4_0, gauss4_7, gauss5_6, gauss8_1
        public var countsPerGauss: Double { [1370, 1090, 820, 660, 440, 390, 330, 230][Int(rawValue)] }
        public var fullScaleMicrotesla: Double { [88, 130, 190, 250, 400, 470, 560, 810][Int(rawValue)] }
    }

    public let bus: any I2CBus
    public let address: I2CAddress
    public let rate: Rate
    public let gain: Gain
    public let averaging: Averaging
    public private(set) var info: SensorInfo
    private let now: @Sendable () -> Double
    private var lastBytes: [UInt8] = []
    private var lastTime = -Double.infinity
    private var samplesToDiscard = 0

    /// Probes the identity registers and configures the chip. `now` (monotonic seconds) lets the driver
    /// tell a re-read sample from a new one that happens to be equal.
    public init(bus: any I2CBus, address: I2CAddress = HMC5883L.defaultAddress, rate: Rate = .hz75,
                gain: Gain = .gauss1_3, averaging: Averaging = .x1,
                now: @escaping @Sendable () -> Double = { Clock.monotonic() }) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.rate = rate
        self.gain = gain
        self.averaging = averaging
        self.now = now
        // Datasheet noise floor: 2 mG with no averaging; never below the quantisation step.
        let noise = max(0.2 / Double(averaging.count).squareRoot(), 100 / gain.countsPerGauss / 12.0.squareRoot())
        info = SensorInfo(chip: .hmc5883l, bus: bus.busNumber, address: address,
                          fullScale: gain.fullScaleMicrotesla, noise: noise, outputRate: rate.hertz)
        try probe()
        try configure()
    }

    /// Checks that identification registers 0x0A–0x0C read "H43".
    public func probe() throws(SensorError) {
        let id: [UInt8]
        do { id = try bus.readRegisters(address: address, start: Register.identityA, count: 3) } catch { throw .bus(error) }
        guard id == Self.identity else {
            let shown = id.map { hexAddress($0) }.joined(separator: " ")
            throw .wrongChip(expected: .hmc5883l, bus: bus.busNumber, address: address,
                             evidence: "registers 0x0a–0x0c read \(shown); expected \"H43\" (0x48 0x34 0x33)")
        }
    }

    /// Configuration register A: averaging, rate, normal measurement (no bias).
    public var configAValue: UInt8 { averaging.rawValue << 5 | rate.rawValue << 2 }
    /// Configuration register B: the gain.
    public var configBValue: UInt8 { gain.rawValue << 5 }

    public func configure() throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: Register.configA, value: configAValue)
            try bus.writeRegister(address: address, register: Register.configB, value: configBValue)
            try bus.writeRegister(address: address, register: Register.mode, value: Mode.continuous)
        } catch { throw .bus(error) }
        // A new gain applies from the measurement after next: the sample in the registers and the one
        // being measured may still use the old gain.
        samplesToDiscard = 2
        lastBytes = []
        lastTime = -Double.infinity
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.status, ready: Status.ready,
                                                    start: Register.dataXMSB, count: 6)
        else { return nil }
        let t = now()
        // RDY stays set: the same bytes within one period are the sample already returned.
        if bytes == lastBytes && t - lastTime < 1 / rate.hertz { return nil }
        lastBytes = bytes
        lastTime = t
        if samplesToDiscard > 0 {
            samplesToDiscard -= 1
            return nil
        }
        guard let field = Self.decode(bytes, gain: gain) else { throw .overflow(.hmc5883l) }
        return field
    }

    /// Raw big-endian X, Z, Y counts (registers 0x03–0x08) to µT as x, y, z (chip axes).
    /// Nil when `bytes` is short or any axis reads the overflow code −4096.
    @inlinable
    public static func decode(_ bytes: [UInt8], gain: Gain) -> Vector3? {
        guard bytes.count >= 6 else { return nil }
        let x = RegisterBytes.int16BE(bytes, 0)
        let z = RegisterBytes.int16BE(bytes, 2)
        let y = RegisterBytes.int16BE(bytes, 4)
        guard x != overflowCode, y != overflowCode, z != overflowCode else { return nil }
        let scale = 100 / gain.countsPerGauss   // µT per count (1 G = 100 µT)
        return Vector3(Double(x) * scale, Double(y) * scale, Double(z) * scale)
    }
}
