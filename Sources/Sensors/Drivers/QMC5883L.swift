import Linear

/// QMC5883L, the chip on most GY-271 boards (QST datasheet, rev. 1.0).
///
/// Register map as named constants; scaling in `countsPerGauss`; identity checked at probe.
///
/// ```swift
/// let chip = try QMC5883L(bus: bus)             // address 0x0D, ±8 G, 200 Hz, OSR 512
/// if let field = try chip.readIfReady() { print(field) }   // µT, chip axes
/// ```
public final class QMC5883L: Magnetometer {
    /// The only address the QMC5883L answers at.
    public static let defaultAddress: I2CAddress = 0x0D

    public enum Register {
        public static let dataXLSB: UInt8 = 0x00   // X, Y, Z, each LSB then MSB, 0x00–0x05
        public static let status: UInt8 = 0x06     // bit0 DRDY, bit1 OVL, bit2 DOR
        public static let temperatureLSB: UInt8 = 0x07
        public static let control1: UInt8 = 0x09   // OSR[7:6] RNG[5:4] ODR[3:2] MODE[1:0]
        public static let control2: UInt8 = 0x0A   // bit7 SOFT_RST, bit6 ROL_PNT, bit0 INT_ENB
        public static let setResetPeriod: UInt8 = 0x0B
        public static let revision: UInt8 = 0x0C   // reads 0x01
        public static let chipID: UInt8 = 0x0D     // reads 0xFF
    }

    public enum Status {
        public static let dataReady: UInt8 = 0x01
        public static let overflow: UInt8 = 0x02
        public static let dataSkipped: UInt8 = 0x04
    }

    /// Output data rate.
    public enum Rate: UInt8, CaseIterable, Sendable {
        case hz10 = 0b00, hz50 = 0b01, hz100 = 0b10, hz200 = 0b11
        public var hertz: Double { [10, 50, 100, 200][Int(rawValue)] }
    }

    /// Full-scale range.
    public enum Range: UInt8, CaseIterable, Sendable {
        case gauss2 = 0b00, gauss8 = 0b01
        /// Sensitivity from the datasheet.
        public var countsPerGauss: Double { self == .gauss2 ? 12000 : 3000 }
        public var fullScaleMicrotesla: Double { self == .gauss2 ? 200 : 800 }
    }

    /// Over-sampling ratio (more = less noise, more current).
    public enum OverSampling: UInt8, CaseIterable, Sendable {
        case x512 = 0b00, x256 = 0b01, x128 = 0b10, x64 = 0b11
    }

    public let bus: any I2CBus
    public let address: I2CAddress
    public let rate: Rate
    public let range: Range
    public let overSampling: OverSampling
    public private(set) var info: SensorInfo

    /// Probes the identity registers and configures the chip.
    public init(bus: any I2CBus, address: I2CAddress = QMC5883L.defaultAddress, rate: Rate = .hz200,
                range: Range = .gauss8, overSampling: OverSampling = .x512) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.rate = rate
        self.range = range
        self.overSampling = overSampling
        info = SensorInfo(chip: .qmc5883l, bus: bus.busNumber, address: address,
                          fullScale: range.fullScaleMicrotesla, noise: 0.2, outputRate: rate.hertz)
        try probe()
        try configure()
    }

    /// Checks the identity registers: 0x0C must read 0x01; 0x0D should read 0xFF. Revision 1.0 parts
    /// left 0x0D reserved, so (as Linux's qmc5883l driver does) a different 0x0D is only a warning,
    /// kept in `identityWarning` and `info.notes`, when 0x0C holds.
    public func probe() throws(SensorError) {
        let id: UInt8, revision: UInt8
        do {
            id = try bus.readRegister(address: address, register: Register.chipID)
            revision = try bus.readRegister(address: address, register: Register.revision)
        } catch { throw .bus(error) }
        guard revision == Self.revisionValue else {
            throw .wrongChip(expected: .qmc5883l, bus: bus.busNumber, address: address,
                             evidence: "register 0x0d reads \(hexAddress(id)), 0x0c reads \(hexAddress(revision)); expected 0xff and 0x01")
        }
        identityWarning = id == Self.chipIDValue ? nil : Self.revision1Warning(chipID: id)
        info.notes = identityWarning.map { [$0] } ?? []
    }

    /// Register 0x0C's value on every QMC5883L.
    public static let revisionValue: UInt8 = 0x01
    /// Register 0x0D's value on current parts (reserved on revision 1.0).
    public static let chipIDValue: UInt8 = 0xFF

    /// Set by `probe()` when 0x0D did not read 0xFF (a revision 1.0 part, or a close relative).
    public private(set) var identityWarning: String?

    /// "register 0x0d reads 0x00, not 0xff: …" for a part whose 0x0D is reserved.
    public static func revision1Warning(chipID: UInt8) -> String {
        "QMC5883L register 0x0d reads \(hexAddress(chipID)), not 0xff: a revision 1.0 part (0x0d was reserved), "
            + "accepted because 0x0c reads 0x01"
    }

    /// The control-1 byte for the configured mode (continuous).
    public var control1Value: UInt8 {
        overSampling.rawValue << 6 | range.rawValue << 4 | rate.rawValue << 2 | 0b01
    }

    public func configure() throws(SensorError) {
        do {
            try bus.writeRegister(address: address, register: Register.control2, value: 0x80)  // soft reset
            try bus.writeRegister(address: address, register: Register.setResetPeriod, value: 0x01)
            try bus.writeRegister(address: address, register: Register.control1, value: control1Value)
        } catch { throw .bus(error) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        let status: UInt8
        let bytes: RegisterBlock
        do {
            status = try bus.readRegister(address: address, register: Register.status)
            guard status & Status.dataReady != 0 else { return nil }
            bytes = try bus.readBlock(address: address, start: Register.dataXLSB, count: 6)
        } catch { throw .bus(error) }
        if status & Status.overflow != 0 { throw .overflow(.qmc5883l) }
        return Self.decode(bytes, range: range)
    }

    /// Raw little-endian X, Y, Z counts to µT (chip axes). `bytes` holds registers 0x00–0x05 (an
    /// array, or the block the driver reads).
    @inlinable
    public static func decode<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, range: Range) -> Vector3?
        where Bytes.Index == Int {
        guard bytes.count >= 6 else { return nil }
        let scale = 100 / range.countsPerGauss   // µT per count (1 G = 100 µT)
        let first = bytes.startIndex
        return Vector3(Double(RegisterBytes.int16LE(bytes, first)) * scale, Double(RegisterBytes.int16LE(bytes, first + 2)) * scale,
                       Double(RegisterBytes.int16LE(bytes, first + 4)) * scale)
    }
}
