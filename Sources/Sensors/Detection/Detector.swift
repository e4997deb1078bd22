import Platform

/// Finds and identifies the sensors on an I²C bus by their identity registers, never by address
/// alone: a QMC5883L on a board sold as an HMC5883L is named QMC5883L.
///
/// At each address it first reads the identity registers of the parts that can live there, then
/// (for anything still unidentified) those of every other part, with one step less confidence.
/// Reads are single-byte and harmless. Writes happen only where the identity needs them, at the
/// part's own address: the QMC5883L data check (continuous mode for one sample, then standby again),
/// the BMM150 power-on (suspend again afterwards), and the ICM-20948's or MPU-9250's I²C bypass (left
/// enabled, so the AK09916 or AK8963 behind it can be probed at 0x0c).
///
/// Works on any `I2CBus`, so the simulator and the tests scan emulated chips with the same code:
/// ```swift
/// let rows = Detector().scan(bus)
/// for row in rows { print(row.address, row.chip.name, row.confidence, row.evidence) }
/// ```
public struct Detector: Sendable {
    /// Magnetometer addresses (0x0c 0x0d 0x10–0x13 0x1c 0x1e 0x28 0x29 0x30 0x60, and 0x68/0x69 for the
    /// ICM-20948 and MPU-9250), accelerometer addresses (0x18 0x19 0x1d 0x53 0x68 0x69 0x6a 0x6b), and
    /// the companions that tell boards apart (0x5c 0x5f: Sense HAT; 0x76 0x77: BMP280 on the BerryIMU).
    public static let standardAddresses: [I2CAddress] = [
        0x0C, 0x0D, 0x10, 0x11, 0x12, 0x13, 0x18, 0x19, 0x1C, 0x1D, 0x1E, 0x28, 0x29, 0x30, 0x53, 0x5C, 0x5F, 0x60, 0x68, 0x69, 0x6A, 0x6B, 0x76, 0x77,
    ]

    /// Where accelerometers answer (0x18 0x19 0x1d 0x53 0x68 0x69 0x6a 0x6b), for pairing one with a
    /// named magnetometer.
    public static let accelerometerAddresses: [I2CAddress] = [0x18, 0x19, 0x1D, 0x53, 0x68, 0x69, 0x6A, 0x6B]

    public var addresses: [I2CAddress]
    /// Used for the short waits of the data check and power-on (injectable for tests).
    public var sleep: @Sendable (Double) -> Void

    public init(addresses: [I2CAddress] = Detector.standardAddresses,
                sleep: @escaping @Sendable (Double) -> Void = { Clock.sleep(seconds: $0) }) {
        self.addresses = addresses
        self.sleep = sleep
    }

    /// Every device that answered, sorted by address.
    public func scan(_ bus: any I2CBus) -> [DetectedDevice] {
        var rows = addresses.compactMap { identify(bus, at: $0) }
        reachThroughBypass(bus, rows: &rows)
        pairLSM303AGR(&rows)
        pairLSM9DS1(&rows)
        addBNO055Motion(&rows)
        // By address; where one chip has two rows (the BNO055), the magnetometer first.
        return rows.sorted { ($0.address, $0.magnetometer == nil ? 1 : 0) < ($1.address, $1.magnetometer == nil ? 1 : 0) }
    }

    /// What answers at one address, or nil when nothing acknowledged it.
    public func identify(_ bus: any I2CBus, at address: I2CAddress) -> DetectedDevice? {
        let probe = AddressProbe(bus: bus, address: address, sleep: sleep)
        let own = ChipSignature.all.filter { $0.addresses.contains(address) }
        let presence = own.first?.register ?? 0x00
        func row(_ chip: DetectedChip, _ confidence: DetectionConfidence, _ evidence: String) -> DetectedDevice {
            DetectedDevice(bus: bus.busNumber, address: address, chip: chip, confidence: confidence, evidence: evidence)
        }
        var first = probe.result(presence)
        for _ in 0..<2 {   // a timeout or short read gets two more tries; a NAK means nobody is there
            guard case .failure(let error) = first, error.isTransient, !isNAK(error) else { break }
            first = probe.readFresh(presence)
        }
        if case .failure(let error) = first {
            switch error {
            case .noAcknowledge: return nil
            case .addressBusy(_, _, let driver):
                let holder = driver.map { "the kernel driver '\(sanitize($0.name))'" + ($0.module.map { " (module \(sanitize($0)))" } ?? "") }
                return row(.unknown, .low, "claimed by \(holder ?? "a kernel driver (sysfs names none)") (i2cdetect shows UU); unload it to probe here")
            default:
                return row(.unknown, .low, "no clean answer: " + String(error.message.split(separator: "\n").first ?? ""))
            }
        }
        for signature in own {
            if let id = signature.identify(probe, true) { return row(id.chip, id.confidence, id.evidence) }
        }
        for signature in ChipSignature.all where !signature.addresses.contains(address) {
            if let id = signature.identify(probe, false) {
                return row(id.chip, id.confidence.lowered,
                           id.evidence + "; at \(hexAddress(address)), where this part is not normally found")
            }
        }
        let seen = probe.readSummary
        return row(.unknown, .low, "answered, but no known identity register matched" + (seen.isEmpty ? "" : " (\(seen))"))
    }

    private func isNAK(_ error: I2CError) -> Bool {
        if case .noAcknowledge = error { return true }
        return false
    }

    /// An ICM-20948 hides its AK09916, an MPU-9250 its AK8963, behind an internal I²C master; with the
    /// bypass switched on, the magnetometer answers at 0x0c itself.
    private func reachThroughBypass(_ bus: any I2CBus, rows: inout [DetectedDevice]) {
        guard !rows.contains(where: { $0.address == 0x0C }),
              let imu = rows.first(where: { $0.accelerometer == .icm20948 || $0.accelerometer == .mpu9250 })
        else { return }
        let isICM = imu.accelerometer == .icm20948
        let host = isICM ? BypassHost.icm20948 : BypassHost.mpu9250
        let probe = AddressProbe(bus: bus, address: imu.address, sleep: sleep)
        if isICM { guard probe.write(ICM20948Accelerometer.Register.bankSelect, 0x00) else { return } }
        guard probe.write(host.powerManagement1, BypassHost.wake) else { return }
        sleep(0.01)
        let userControl = probe.read(host.userControl) ?? 0
        probe.write(host.userControl, userControl & ~BypassHost.masterEnable)
        let pinConfig = probe.read(host.interruptPinConfig) ?? 0
        probe.write(host.interruptPinConfig, pinConfig | BypassHost.bypassEnable)
        sleep(0.001)
        guard var magnetometer = identify(bus, at: 0x0C) else { return }
        let expected: ChipKind = isICM ? .ak09916 : .ak8963
        if magnetometer.magnetometer == expected {
            magnetometer.confidence = .high
            magnetometer.evidence += "; reached through the \(imu.chip.name)'s I²C bypass at \(hexAddress(imu.address))"
        }
        rows.append(magnetometer)
    }

    /// The LSM9DS1's magnetometer answers exactly as a LIS3MDL (WHO_AM_I 0x3d); its accelerometer/gyro
    /// beside it (WHO_AM_I 0x68 at 0x6a/0x6b) tells them apart.
    private func pairLSM9DS1(_ rows: inout [DetectedDevice]) {
        guard let imu = rows.first(where: { $0.accelerometer == .lsm9ds1 }) else { return }
        for i in rows.indices where [0x1C, 0x1E].contains(rows[i].address) && rows[i].magnetometer == .lis3mdl {
            rows[i].chip = .magnetometer(.lsm9ds1)
            rows[i].evidence += "; with the LSM9DS1 accelerometer/gyro at \(hexAddress(imu.address)) it is the LSM9DS1's magnetometer"
        }
    }

    /// A BNO055 is magnetometer, accelerometer and gyro in one: a second row names the motion half.
    private func addBNO055Motion(_ rows: inout [DetectedDevice]) {
        for row in rows where row.magnetometer == .bno055 {
            rows.append(DetectedDevice(bus: row.bus, address: row.address, chip: .accelerometer(.bno055),
                                       confidence: row.confidence, evidence: "the same BNO055: accelerometer and gyro"))
        }
    }

    /// WHO_AM_I 0x33 at 0x19 is an LSM303AGR for sure when its magnetometer half (LIS2MDL) is at 0x1e.
    private func pairLSM303AGR(_ rows: inout [DetectedDevice]) {
        guard rows.contains(where: { $0.address == 0x1E && $0.magnetometer == .lis2mdl }) else { return }
        for i in rows.indices where rows[i].address == 0x19 && rows[i].accelerometer == .lsm303agr {
            rows[i].confidence = .high
            rows[i].evidence += "; with the LIS2MDL at 0x1e it is an LSM303AGR"
        }
    }
}
