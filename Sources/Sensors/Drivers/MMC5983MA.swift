import Linear

/// MMC5983MA (MEMSIC) at 0x30: an 18-bit anisotropic-magnetoresistive sensor, ±8 G, 16384 counts/G.
///
/// Outputs are unsigned: zero field reads 131072 plus the bridge's own offset. A SET pulse magnetises
/// the sensing film one way and a RESET pulse the other way; the field term flips sign with it but the
/// bridge offset does not. So the driver takes single measurements alternately after SET and after
/// RESET, and combines each with the one before: field = (set − reset) / 2, offset = (set + reset) / 2.
/// Each new measurement is started as soon as the previous one is read, so a pair is always two
/// neighbouring measurements (one measurement time apart, 8 ms at the default bandwidth).
///
/// ```swift
/// let chip = try MMC5983MA(bus: bus)                       // 0x30, 100 Hz bandwidth
/// if let field = try chip.readIfReady() { print(field) }   // µT, chip axes, offset removed
/// print(chip.bridgeOffset as Any)                          // the offset it removed, µT
/// ```
public final class MMC5983MA: Magnetometer {
    public static let defaultAddress: I2CAddress = 0x30
    /// Product ID (0x2F) reads 0x30.
    public static let identity: UInt8 = 0x30
    public static let countsPerGauss = 16384.0
    /// The output of an 18-bit axis at zero field.
    public static let zeroFieldCount = 131072
    /// The largest 18-bit output.
    public static let maximumCount = 262143

    public enum Register {
        public static let xOut0: UInt8 = 0x00        // X[17:10], X[9:2], Y…, Z… big-endian, 0x00–0x05
        public static let xyzOut2: UInt8 = 0x06      // X[1:0] in bits 7:6, Y[1:0] in 5:4, Z[1:0] in 3:2
        public static let temperature: UInt8 = 0x07
        public static let status: UInt8 = 0x08       // Meas_M_Done[0] Meas_T_Done[1] OTP_Rd_Done[4]
        public static let control0: UInt8 = 0x09     // write-only, self-clearing actions
        public static let control1: UInt8 = 0x0A     // SW_RST[7] inhibit[4:2] BW[1:0]
        public static let control2: UInt8 = 0x0B     // En_prd_set[7] Prd_set[6:4] Cmm_en[3] Cm_freq[2:0]
        public static let control3: UInt8 = 0x0C
        public static let productID: UInt8 = 0x2F
    }

    public enum Status {
        public static let measurementDone: UInt8 = 0x01
        public static let temperatureDone: UInt8 = 0x02
        public static let otpReadDone: UInt8 = 0x10
    }

    public enum Control0 {
        public static let takeMeasurement: UInt8 = 0x01
        public static let takeTemperature: UInt8 = 0x02
        public static let interruptEnable: UInt8 = 0x04
        public static let set: UInt8 = 0x08
        public static let reset: UInt8 = 0x10
        public static let autoSetReset: UInt8 = 0x20
    }

    public enum Control1 {
        public static let softwareReset: UInt8 = 0x80
    }

    public enum Control2 {
        public static let continuousEnable: UInt8 = 0x08
        public static let periodicSetEnable: UInt8 = 0x80
    }

    /// Decimation-filter bandwidth (BW bits); sets the measurement time.
    public enum Bandwidth: UInt8, CaseIterable, Sendable {
        case hz100 = 0, hz200, hz400, hz800
        public var hertz: Double { [100, 200, 400, 800][Int(rawValue)] }
        /// Seconds per measurement: 8, 4, 2 and 0.5 ms.
        public var measurementTime: Double { [0.008, 0.004, 0.002, 0.0005][Int(rawValue)] }
        /// RMS noise of one measurement, µT: 0.4 mG at 100 Hz bandwidth, rising to about 1.2 mG at 800 Hz.
        public var noise: Double { [0.04, 0.06, 0.08, 0.12][Int(rawValue)] }
    }

    /// Which pulse magnetised the film before a measurement.
    public enum Polarity: Sendable { case set, reset }

    public let bus: any I2CBus
    public let address: I2CAddress
    public let bandwidth: Bandwidth
    public private(set) var info: SensorInfo
    /// The bridge offset removed from the latest sample, µT (nil until a SET/RESET pair was measured).
    public private(set) var bridgeOffset: Vector3?
    private var pending: Polarity?
    private var latestSet: [UInt8]?
    private var latestReset: [UInt8]?

    /// Probes the product ID, configures the chip and starts the first measurement.
    public init(bus: any I2CBus, address: I2CAddress = MMC5983MA.defaultAddress,
                bandwidth: Bandwidth = .hz100) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.bandwidth = bandwidth
        // Each output averages a SET and a RESET measurement: noise / √2.
        info = SensorInfo(chip: .mmc5983ma, bus: bus.busNumber, address: address, fullScale: 800,
                          noise: bandwidth.noise / 2.0.squareRoot(), outputRate: bandwidth.hertz)
        try probe()
        try configure()
    }

    /// Checks that the product ID reads 0x30.
    public func probe() throws(SensorError) {
        try bus.checkIdentity(address: address, register: Register.productID, expected: Self.identity, chip: .mmc5983ma,
                              label: "product ID")
    }

    /// Sets the bandwidth, turns continuous mode off, and starts a measurement after a SET pulse.
    /// (The control registers are write-only, so writing them all defines the state; no reset needed.)
    public func configure() throws(SensorError) {
        latestSet = nil
        latestReset = nil
        bridgeOffset = nil
        pending = nil
        do {
            try bus.writeRegister(address: address, register: Register.control1, value: bandwidth.rawValue)
            try bus.writeRegister(address: address, register: Register.control2, value: 0x00)
        } catch { throw .bus(error) }
        try start(.set)
    }

    private func start(_ polarity: Polarity) throws(SensorError) {
        pending = nil
        do {
            try bus.writeRegister(address: address, register: Register.control0,
                                  value: polarity == .set ? Control0.set : Control0.reset)
            try bus.writeRegister(address: address, register: Register.control0, value: Control0.takeMeasurement)
        } catch { throw .bus(error) }
        pending = polarity
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        guard let polarity = pending else {
            try start(latestSet == nil ? .set : .reset)
            return nil
        }
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.status, ready: Status.measurementDone,
                                                    start: Register.xOut0, count: 7)
        else { return nil }
        if polarity == .set { latestSet = bytes } else { latestReset = bytes }
        try start(polarity == .set ? .reset : .set)
        guard let set = latestSet, let reset = latestReset else { return nil }
        guard let result = Self.decode(set: set, reset: reset) else {
            throw .overflow(.mmc5983ma)
        }
        bridgeOffset = result.offset
        return result.field
    }

    /// The three unsigned 18-bit outputs in registers 0x00–0x06; nil when `bytes` is short.
    @inlinable
    public static func counts(_ bytes: [UInt8]) -> (x: Int, y: Int, z: Int)? {
        guard bytes.count >= 7 else { return nil }
        let low = Int(bytes[6])
        func axis(_ i: Int, _ shift: Int) -> Int {
            Int(bytes[2 * i]) << 10 | Int(bytes[2 * i + 1]) << 2 | (low >> shift) & 0b11
        }
        return (axis(0, 6), axis(1, 4), axis(2, 2))
    }

    /// One measurement (registers 0x00–0x06) to µT about the nominal zero (131072), offset included.
    /// Nil when `bytes` is short or an axis is saturated (0 or 262143).
    @inlinable
    public static func decode(_ bytes: [UInt8]) -> Vector3? {
        guard let c = counts(bytes), !isSaturated(c) else { return nil }
        let scale = 100 / countsPerGauss
        return Vector3(Double(c.x - zeroFieldCount) * scale, Double(c.y - zeroFieldCount) * scale,
                       Double(c.z - zeroFieldCount) * scale)
    }

    /// A measurement after SET and one after RESET to the field and the bridge offset, µT:
    /// field = (set − reset) / 2, offset = (set + reset) / 2 − zero. Nil when either is short or saturated.
    @inlinable
    public static func decode(set: [UInt8], reset: [UInt8]) -> (field: Vector3, offset: Vector3)? {
        guard let s = counts(set), let r = counts(reset), !isSaturated(s), !isSaturated(r) else { return nil }
        let scale = 100 / countsPerGauss / 2
        let field = Vector3(Double(s.x - r.x) * scale, Double(s.y - r.y) * scale, Double(s.z - r.z) * scale)
        let zero = 2 * zeroFieldCount
        let offset = Vector3(Double(s.x + r.x - zero) * scale, Double(s.y + r.y - zero) * scale,
                             Double(s.z + r.z - zero) * scale)
        return (field, offset)
    }

    @inlinable
    static func isSaturated(_ c: (x: Int, y: Int, z: Int)) -> Bool {
        func railed(_ v: Int) -> Bool { v <= 0 || v >= maximumCount }
        return railed(c.x) || railed(c.y) || railed(c.z)
    }
}
