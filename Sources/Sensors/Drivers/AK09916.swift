import Linear

/// AK09916 (AKM), the magnetometer inside the ICM-20948, at 0x0C.
///
/// The AK09916 sits on the ICM-20948's auxiliary bus: the Pi sees it only once the ICM-20948 is awake,
/// its own I²C master is off and INT_PIN_CFG.BYPASS_EN is set. The driver does that first on an
/// ICM-20948 found at 0x69 or 0x68 (WHO_AM_I = 0xEA; anything else there is left untouched), then
/// checks WIA1/WIA2 (0x48, 0x09), soft-resets the AK09916 and starts continuous mode.
/// Reading ST2 ends a sample: the chip protects the data registers from the first data read until
/// ST2 is read. HOFL in ST2 means overflow. 0.15 µT/LSB, ±4912 µT.
///
/// Axes: the AK09916 die sits in the ICM-20948 package with its Y and Z axes opposite to the
/// accelerometer's, and boards print the accelerometer's axes. The driver reports the field in those
/// printed axes, (x, −y, −z) of the die, so it shares one frame with `ICM20948Accelerometer`.
///
/// ```swift
/// let chip = try AK09916(bus: bus)                         // bypass via the ICM-20948, 100 Hz
/// if let field = try chip.readIfReady() { print(field) }   // µT, chip axes
/// ```
public final class AK09916: Magnetometer {
    public static let defaultAddress: I2CAddress = 0x0C
    /// WIA1 (company) and WIA2 (device) read 0x48 and 0x09.
    public static let identity: [UInt8] = [0x48, 0x09]
    public static let microteslaPerCount = 0.15
    /// Largest output magnitude (±32752 counts).
    public static let maximumCount = 32752

    public enum Register {
        public static let companyID: UInt8 = 0x00   // WIA1
        public static let deviceID: UInt8 = 0x01    // WIA2
        public static let status1: UInt8 = 0x10     // DOR[1] DRDY[0]
        public static let dataXL: UInt8 = 0x11      // X, Y, Z little-endian, 0x11–0x16
        public static let dummy: UInt8 = 0x17       // TMPS
        public static let status2: UInt8 = 0x18     // HOFL[3]; reading it ends the sample
        public static let control2: UInt8 = 0x31    // MODE[4:0]
        public static let control3: UInt8 = 0x32    // SRST[0]
    }

    public enum Status1 {
        public static let dataReady: UInt8 = 0x01
        public static let dataOverrun: UInt8 = 0x02
    }

    public enum Status2 {
        public static let overflow: UInt8 = 0x08
    }

    public enum Mode {
        public static let powerDown: UInt8 = 0x00
        public static let single: UInt8 = 0x01
        public static let selfTest: UInt8 = 0x10
    }

    /// Continuous measurement modes 1–4 (CNTL2 values).
    public enum Rate: UInt8, CaseIterable, Sendable {
        case hz10 = 0x02, hz20 = 0x04, hz50 = 0x06, hz100 = 0x08
        public var hertz: Double {
            switch self {
            case .hz10: return 10
            case .hz20: return 20
            case .hz50: return 50
            case .hz100: return 100
            }
        }
    }

    /// The ICM-20948 registers (bank 0) the bypass needs.
    public enum Host {
        public static let addresses: [I2CAddress] = [0x69, 0x68]
        public static let identity: UInt8 = 0xEA
        public static let whoAmI: UInt8 = 0x00
        public static let userControl: UInt8 = 0x03          // I2C_MST_EN[5]
        public static let powerManagement1: UInt8 = 0x06     // DEVICE_RESET[7] SLEEP[6] CLKSEL[2:0]
        public static let interruptPinConfig: UInt8 = 0x0F   // BYPASS_EN[1]
        public static let bankSelect: UInt8 = 0x7F           // USER_BANK[5:4]
        public static let masterEnable: UInt8 = 0x20
        public static let bypassEnable: UInt8 = 0x02
        /// PWR_MGMT_1: awake, clock auto-selected.
        public static let wake: UInt8 = 0x01
    }

    public let bus: any I2CBus
    public let address: I2CAddress
    public let rate: Rate
    /// The addresses where an ICM-20948 host is looked for.
    public let hostAddresses: [I2CAddress]
    /// Where the ICM-20948 was found (nil: none, the AK09916 answered directly).
    public private(set) var host: I2CAddress?
    public private(set) var info: SensorInfo

    /// Enables the ICM-20948 bypass (when present), probes WIA1/WIA2 and configures the chip.
    public init(bus: any I2CBus, address: I2CAddress = AK09916.defaultAddress, rate: Rate = .hz100,
                hostAddresses: [I2CAddress] = Host.addresses) throws(SensorError) {
        self.bus = bus
        self.address = address
        self.rate = rate
        self.hostAddresses = hostAddresses
        // The datasheet gives no RMS figure; about 3 LSB (0.45 µT) is typical of AKM's Hall sensors.
        info = SensorInfo(chip: .ak09916, bus: bus.busNumber, address: address,
                          fullScale: Double(Self.maximumCount) * Self.microteslaPerCount, noise: 0.45,
                          outputRate: rate.hertz)
        host = try findHost()
        try enableBypass()
        try probe()
        try configure(enablingBypass: false)
    }

    /// The first host address whose WHO_AM_I reads 0xEA; others (an RTC, an MPU-6050) are only read.
    private func findHost() throws(SensorError) -> I2CAddress? {
        for candidate in hostAddresses {
            do {
                var id = try bus.readRegister(address: candidate, register: Host.whoAmI)
                if id != Host.identity {
                    // An ICM-20948 left in another register bank shows that bank in REG_BANK_SEL.
                    let bank = try bus.readRegister(address: candidate, register: Host.bankSelect)
                    guard bank != 0, bank & 0xCF == 0 else { continue }
                    try bus.writeRegister(address: candidate, register: Host.bankSelect, value: 0x00)
                    id = try bus.readRegister(address: candidate, register: Host.whoAmI)
                }
                if id == Host.identity { return candidate }
            } catch {
                if case .noAcknowledge = error { continue }
                throw .bus(error)
            }
        }
        return nil
    }

    /// Wakes the ICM-20948, turns its I²C master off and sets BYPASS_EN (keeping its other bits).
    private func enableBypass() throws(SensorError) {
        guard let host else { return }
        try BypassHost.icm20948.enable(on: bus, at: host)
    }

    /// Checks that WIA1 and WIA2 read 0x48 and 0x09.
    public func probe() throws(SensorError) {
        let id: [UInt8]
        do { id = try bus.readRegisters(address: address, start: Register.companyID, count: 2) } catch { throw .bus(error) }
        guard id == Self.identity else {
            let shown = id.map { hexAddress($0) }.joined(separator: " ")
            throw .wrongChip(expected: .ak09916, bus: bus.busNumber, address: address,
                             evidence: "registers 0x00–0x01 (WIA1, WIA2) read \(shown); expected 0x48 0x09")
        }
    }

    /// Re-enables the bypass (the ICM-20948 may have been reset too), soft-resets, starts continuous mode.
    public func configure() throws(SensorError) { try configure(enablingBypass: true) }

    private func configure(enablingBypass: Bool) throws(SensorError) {
        if enablingBypass { try enableBypass() }
        do {
            try bus.writeRegister(address: address, register: Register.control3, value: 0x01)  // SRST
            try bus.writeRegister(address: address, register: Register.control2, value: rate.rawValue)
        } catch { throw .bus(error) }
    }

    public func readIfReady() throws(SensorError) -> Vector3? {
        // HXL through ST2 in one read: reading ST2 releases the data registers for the next sample.
        guard let bytes = try bus.readSampleIfReady(address: address, status: Register.status1, ready: Status1.dataReady,
                                                    start: Register.dataXL, count: 8)
        else { return nil }
        guard let field = Self.decode(bytes) else { throw .overflow(.ak09916) }
        return field
    }

    /// Registers 0x11–0x18 (HXL…HZH, TMPS, ST2) to µT in the board's printed (ICM-20948) axes:
    /// (x, −y, −z) of the die. Nil when short or ST2.HOFL is set.
    @inlinable
    public static func decode(_ bytes: [UInt8]) -> Vector3? {
        guard bytes.count >= 8, bytes[7] & Status2.overflow == 0 else { return nil }
        let x = RegisterBytes.int16LE(bytes, 0), y = RegisterBytes.int16LE(bytes, 2), z = RegisterBytes.int16LE(bytes, 4)
        let scale = microteslaPerCount
        return Vector3(Double(x) * scale, -Double(y) * scale, -Double(z) * scale)
    }
}
