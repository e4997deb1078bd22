import Linear

/// The accelerometer half of the LSM303AGR (ST datasheet DocID027765), at 0x19; its magnetometer half
/// is the LIS2MDL at 0x1E. High-resolution (12-bit) mode, ±2 g, 100 Hz, block data update.
///
/// Multi-byte reads set bit 7 of the register address (the chip's auto-increment flag).
/// The LIS3DH shares this register map and WHO_AM_I value, so this driver reads it too.
///
/// ```swift
/// let accel = try LSM303AGRAccelerometer(bus: bus)
/// if let g = try accel.readIfReady() { print(g) }    // g, chip axes
/// ```
public final class LSM303AGRAccelerometer: Accelerometer {
    public static let defaultAddress: I2CAddress = 0x19
    /// WHO_AM_I_A reads 0x33.
    public static let identity: UInt8 = 0x33

    public enum Register {
        public static let whoAmI: UInt8 = 0x0F
        public static let control1: UInt8 = 0x20   // ODR[7:4] LPen[3] Zen Yen Xen
        public static let control2: UInt8 = 0x21   // high-pass filter
        public static let control3: UInt8 = 0x22   // interrupt routing
        public static let control4: UInt8 = 0x23   // BDU[7] BLE[6] FS[5:4] HR[3]
        public static let control5: UInt8 = 0x24   // BOOT[7]
        public static let status: UInt8 = 0x27     // ZYXOR[7] … ZYXDA[3]
        public static let outXLow: UInt8 = 0x28    // X, Y, Z little-endian, left-justified, 0x28–0x2D
        /// OR-ed into the register address to read several registers in one transfer.
        public static let autoIncrement: UInt8 = 0x80
    }

    public enum Status {
        public static let dataReady: UInt8 = 0x08
        public static let overrun: UInt8 = 0x80
    }

    /// Output data rate (ODR field of CTRL_REG1_A).
    public enum Rate: UInt8, CaseIterable, Sendable {
        case hz1 = 1, hz10 = 2, hz25 = 3, hz50 = 4, hz100 = 5, hz200 = 6, hz400 = 7
        public var hertz: Double { [0, 1, 10, 25, 50, 100, 200, 400][Int(rawValue)] }
    }

    /// Full scale (FS field of CTRL_REG4_A) and the high-resolution sensitivity from the datasheet.
    public enum Range: UInt8, CaseIterable, Sendable {
        case g2 = 0, g4 = 1, g8 = 2, g16 = 3
        public var gPerCount: Double { [0.98, 1.95, 3.9, 11.72][Int(rawValue)] / 1000 }
        public var fullScale: Double { Double(2 << Int(rawValue)) }
    }

    public let bus: any I2CBus
    public let address: I2CAddress
    public let rate: Rate
    public let range: Range
    public private(set) var info: AccelerometerInfo

    public init(bus: any I2CBus, address: I2CAddress = LSM303AGRAccelerometer.defaultAddress,
                rate: Rate = .hz100, range: Range = .g2) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.rate = rate
        self.range = range
        info = AccelerometerInfo(kind: .lsm303agr, bus: bus.busNumber, address: address,
                                 fullScale: range.fullScale, outputRate: rate.hertz)
        try probe()
        try configure()
    }

    /// Checks WHO_AM_I_A (0x0F reads 0x33).
    public func probe() throws(SensorError) {
        try bus.checkIdentity(address: address, register: Register.whoAmI, expected: Self.identity, accelerometer: .lsm303agr)
    }

    /// CTRL_REG1_A: rate, normal power, X/Y/Z on. CTRL_REG4_A: block data update, range, high resolution.
    public var control1Value: UInt8 { rate.rawValue << 4 | 0x07 }
    public var control4Value: UInt8 { 0x80 | range.rawValue << 4 | 0x08 }

    public func configure() throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: Register.control2, value: 0x00)
            try bus.writeRegister(address: address, register: Register.control3, value: 0x00)
            try bus.writeRegister(address: address, register: Register.control4, value: control4Value)
            try bus.writeRegister(address: address, register: Register.control1, value: control1Value)
        } catch { throw .bus(error) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.status, ready: Status.dataReady,
                                                    start: Register.outXLow | Register.autoIncrement, count: 6)
        else { return nil }
        // 12-bit two's complement, left-justified in 16 bits: shift right by 4 keeping the sign.
        let counts = (0..<3).map { Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8) >> 4 }
        if counts.contains(where: { $0 >= 2047 || $0 <= -2048 }) { throw .accelerometerSaturated(.lsm303agr) }
        return RegisterBytes.scaled(counts[0], counts[1], counts[2], by: range.gPerCount)
    }
}
