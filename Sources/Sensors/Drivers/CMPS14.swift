import Linear
import Platform

/// CMPS14 / CMPS12 (Robot Electronics), at 0x60: a tilt-compensated compass module with its own fusion
/// processor. Lodestone reads its **raw magnetometer** (0x06–0x0B, big-endian) as a magnetometer like any
/// other, so calibration, declination and the heading filter stay Lodestone's; the module's own bearing
/// (0x02–0x03, tenths of a degree), pitch and roll (0x04, 0x05) and calibration state (0x1E) are
/// available through `bearing()` and `calibrationState()` and shown by `detect`, but are not a heading
/// source.
///
/// The module has no identity register: register 0x00 reads its software version. `probe()` reads
/// 0x00–0x05 and accepts it when the version is plausible (1–0x3F) and the bearing (0–3599) and
/// the pitch and roll (±90°) are in range. There is no data-ready flag: the driver reads at most
/// 20 times a second on its own clock. Raw magnetometer scale: the module's documentation does not
/// give one; 16 counts per µT (the BNO055's, whose data the CMPS12 passes on) is assumed and marked as
/// such in hardware/cmps14.md.
///
/// ```swift
/// let chip = try CMPS14(bus: bus)                          // 0x60
/// if let field = try chip.readIfReady() { print(field) }   // µT (assumed scale), chip axes
/// print(try chip.bearing())                                // the module's own bearing, degrees
/// ```
public final class CMPS14: Magnetometer {
    public static let defaultAddress: I2CAddress = 0x60
    /// Assumed raw magnetometer scale (see the type's documentation).
    public static let countsPerMicrotesla = 16.0
    public static let rate = 20.0

    public enum Register {
        public static let version: UInt8 = 0x00       // read: software version; write: command
        public static let bearing8: UInt8 = 0x01      // 0–255 for a full turn
        public static let bearing16: UInt8 = 0x02     // 0–3599 tenths of a degree, high byte first
        public static let pitch: UInt8 = 0x04         // signed degrees, ±90
        public static let roll: UInt8 = 0x05
        public static let magXHigh: UInt8 = 0x06      // X, Y, Z big-endian, 0x06–0x0B
        public static let calibration: UInt8 = 0x1E   // SYS[7:6] GYR[5:4] ACC[3:2] MAG[1:0]
    }

    public let bus: any I2CBus
    public let address: I2CAddress
    private let now: @Sendable () -> Double
    private var pacer = ReadPacer(rate: CMPS14.rate)
    /// The software version read at probe.
    public private(set) var version: UInt8 = 0
    public private(set) var info: SensorInfo

    public init(bus: any I2CBus, address: I2CAddress = CMPS14.defaultAddress,
                now: @escaping @Sendable () -> Double = { Clock.monotonic() }) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.now = now
        info = SensorInfo(chip: .cmps14, bus: bus.busNumber, address: address, fullScale: 2047, noise: 0.5,
                          outputRate: Self.rate)
        try probe()
    }

    /// Reads 0x00–0x05: a plausible version, bearing, pitch and roll, or `.wrongChip` with what was read.
    public func probe() throws(SensorError) {
        let head = try bus.readSensorBlock(address: address, start: Register.version, count: 6)
        guard let reason = Self.implausibility(head) else {
            version = head[0]
            return
        }
        throw .wrongChip(expected: .cmps14, bus: bus.busNumber, address: address, evidence: reason)
    }

    /// Why registers 0x00–0x05 are not a CMPS14's, or nil when they could be.
    static func implausibility(_ head: [UInt8]) -> String? {
        guard head.count >= 6 else { return "short read" }
        let bearing = Int(head[2]) << 8 | Int(head[3])
        let pitch = Int(Int8(bitPattern: head[4])), roll = Int(Int8(bitPattern: head[5]))
        if !(1...0x3F).contains(head[0]) { return "register 0x00 (software version) reads \(hexAddress(head[0]))" }
        if bearing > 3599 { return "registers 0x02–0x03 (bearing) read \(bearing), beyond 3599" }
        if abs(pitch) > 90 || abs(roll) > 90 { return "pitch \(pitch)°, roll \(roll)° beyond ±90°" }
        return nil
    }

    /// Nothing to set: the module runs by itself.
    public func configure() throws(SensorError) { pacer.reset() }

    public func readIfReady() throws(SensorError) -> Vector3? {
        let t = now()
        guard pacer.isDue(at: t) else { return nil }
        let bytes = try bus.readSensorBlock(address: address, start: Register.magXHigh, count: 6)
        pacer.mark(t)
        guard let field = RegisterBytes.unsaturatedVector(bytes, littleEndian: false, scale: 1 / Self.countsPerMicrotesla)
        else { throw .overflow(.cmps14) }
        return field
    }

    /// The module's own tilt-compensated bearing in degrees (0–359.9).
    public func bearing() throws(SensorError) -> Double {
        let bytes = try bus.readSensorBlock(address: address, start: Register.bearing16, count: 2)
        return Double(Int(bytes[0]) << 8 | Int(bytes[1])) / 10
    }

    /// The calibration byte, decoded as the BNO055's (system, gyro, accelerometer, magnetometer).
    public func calibrationState() throws(SensorError) -> BNO055.CalibrationStatus {
        BNO055.CalibrationStatus(try bus.readSensorRegister(address: address, register: Register.calibration))
    }
}
