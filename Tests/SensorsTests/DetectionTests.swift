import Platform
import Foundation
import Linear
import Sensors
import Simulation
import Testing

@Suite("Detection: chips named by their identity registers, not by their address")
struct DetectionTests {
    let clock = ManualClock(50)
    var physics: PhysicsSource {
        let clock = self.clock
        return PhysicsSource(now: { clock.now() }, magneticField: { _ in Vector3(22, -6, -45) },
                             acceleration: { _ in Vector3(0, 0, 1) })
    }
    var detector: Detector {
        let clock = self.clock
        return Detector(sleep: { clock.advance(by: $0) })
    }

    func bus(with devices: [(I2CAddress, any RegisterDevice)]) -> EmulatedI2CBus {
        let bus = EmulatedI2CBus(busNumber: 1)
        for (address, device) in devices { bus.attach(device, at: address) }
        return bus
    }

    @Test("QMC5883L: weak 0xff id + reg 0x0c + a sane data read = high; the chip is left in standby")
    func qmc5883l() throws {
        let chip = QMC5883LEmulator(physics: physics)
        let rows = detector.scan(bus(with: [(0x0D, chip)]))
        try #require(rows.count == 1)
        #expect(rows[0].chip == .magnetometer(.qmc5883l))
        #expect(rows[0].address == 0x0D && rows[0].bus == 1)
        #expect(rows[0].confidence == .high)
        #expect(rows[0].evidence.contains("reg 0x0d = 0xff"))
        #expect(rows[0].evidence.contains("reg 0x0c = 0x01"))
        // The data read reports |B|: |(22, −6, −45)| = 50.4 µT, give or take the noise.
        let range = try #require(rows[0].evidence.range(of: #"data read [0-9.]+"#, options: .regularExpression))
        let magnitude = try #require(Double(rows[0].evidence[range].dropFirst("data read ".count)))
        #expect(abs(magnitude - 50.4) < 1.5, "\(rows[0].evidence)")
        #expect(chip.registers[Int(QMC5883L.Register.control1)] == 0x00, "restored to standby")
    }

    @Test("QMC5883L without a sane data read stays medium")
    func qmc5883lWithoutData() throws {
        let chip = QMC5883LEmulator(physics: physics, noise: 0)
        chip.forcedField = .zero   // every data register reads 0
        let rows = detector.scan(bus(with: [(0x0D, chip)]))
        #expect(rows.first?.chip == .magnetometer(.qmc5883l))
        #expect(rows.first?.confidence == .medium)
        #expect(rows.first?.evidence.contains("not sane") == true)
    }

    @Test("a QMC5883L where an HMC5883L would be is still named QMC5883L")
    func qmcSoldAsHMC() throws {
        let rows = detector.scan(bus(with: [(0x1E, QMC5883LEmulator(physics: physics))]))
        try #require(rows.count == 1)
        #expect(rows[0].chip == .magnetometer(.qmc5883l))
        #expect(rows[0].confidence == .low)
        #expect(rows[0].evidence.contains("not normally found"))
    }

    @Test("the emulated magnetometers, each at its own address, each read-only except where documented",
          arguments: [(ChipKind.hmc5883l, I2CAddress(0x1E)), (.lis3mdl, 0x1C), (.lis3mdl, 0x1E), (.lis2mdl, 0x1E)])
    func emulatedChips(chip: ChipKind, address: I2CAddress) throws {
        let device = try #require(TestChips.emulator(chip, physics: physics))
        let bus = bus(with: [(address, device)])
        let rows = detector.scan(bus)
        try #require(rows.count == 1)
        #expect(rows[0].chip == .magnetometer(chip))
        #expect(rows[0].confidence == .high)
        #expect(rows[0].address == address)
        #expect(!bus.trace.contains { if case .write = $0 { return true } else { return false } }, "detection wrote")
    }

    @Test("every magnetometer emulator, attached as the simulator attaches them", arguments: ChipKind.allCases)
    func everyEmulator(chip: ChipKind) throws {
        let bus = EmulatedI2CBus(busNumber: 1)
        let (_, address) = MagnetometerEmulators.attach(chip, to: bus, physics: physics)
        let rows = detector.scan(bus)
        let found = try #require(rows.first { $0.magnetometer != nil }, "nothing found for \(chip)")
        #expect(found.chip == .magnetometer(chip))
        #expect(found.address == address)
        #expect(found.confidence == .high, "\(found.evidence)")
        if chip == .ak09916 {
            #expect(rows.contains { $0.chip == .accelerometer(.icm20948) }, "the host is listed too")
            #expect(found.evidence.contains("bypass"))
        }
        if chip == .bmm150 { #expect(found.evidence.contains("after power-on"), "emulated BMM150 starts suspended") }
    }

    @Test("evidence names the register and value", arguments: [
        (ChipKind.lis3mdl, "reg 0x0f = 0x3d (LIS3MDL WHO_AM_I"),
        (.lis2mdl, "reg 0x4f = 0x40 (LIS2MDL WHO_AM_I"),
        (.hmc5883l, "regs 0x0a–0x0c = \"H43\""),
    ])
    func evidence(chip: ChipKind, text: String) throws {
        let device = try #require(TestChips.emulator(chip, physics: physics))
        let address: I2CAddress = chip == .lis3mdl ? 0x1C : 0x1E
        let rows = detector.scan(bus(with: [(address, device)]))
        #expect(rows.first?.evidence.contains(text) == true, "\(rows.first?.evidence ?? "none")")
    }

    @Test("parts without an emulator, from identity-only doubles")
    func identityDoubles() throws {
        let bmmAwake = FixedRegisterDevice([0x40: 0x32])
        let mmc = FixedRegisterDevice([0x2F: 0x30])
        let ak = FixedRegisterDevice([0x00: 0x48, 0x01: 0x09])
        let rows = detector.scan(bus(with: [(0x12, bmmAwake), (0x30, mmc), (0x0C, ak)]))
        #expect(rows.map(\.chip) == [.magnetometer(.ak09916), .magnetometer(.bmm150), .magnetometer(.mmc5983ma)])
        #expect(rows.allSatisfy { $0.confidence == .high })
        #expect(rows.map(\.address) == [0x0C, 0x12, 0x30])
    }

    @Test("a BMM150 in suspend (chip id 0x00) is powered on to read its id, then suspended again")
    func bmm150Suspended() throws {
        let bmm = FixedRegisterDevice([0x40: 0x00, 0x4B: 0x00])
        bmm.onWrite = { device, register, value in
            if register == 0x4B { device.registers[0x40] = value & 0x01 != 0 ? 0x32 : 0x00 }
        }
        let rows = detector.scan(bus(with: [(0x10, bmm)]))
        #expect(rows.first?.chip == .magnetometer(.bmm150))
        #expect(rows.first?.evidence.contains("after power-on") == true)
        #expect(bmm.writes.map { $0.0 } == [0x4B, 0x4B])
        #expect(bmm.registers[0x4B] == 0x00)
        // The same registers elsewhere are not powered on (no writes away from the part's addresses).
        let elsewhere = FixedRegisterDevice([0x40: 0x00, 0x4B: 0x00])
        _ = detector.scan(bus(with: [(0x30, elsewhere)]))
        #expect(elsewhere.writes.isEmpty)
    }

    @Test("accelerometers: MPU-6050, LSM303AGR (high when its LIS2MDL is there), and known unsupported parts")
    func accelerometers() throws {
        let lis2mdl = try #require(TestChips.emulator(.lis2mdl, physics: physics))
        let rows = detector.scan(bus(with: [
            (0x68, MPU6050Emulator(physics: physics)),
            (0x19, LSM303AGRAccelerometerEmulator(physics: physics)),
            (0x1E, lis2mdl),
            (0x53, FixedRegisterDevice([0x00: 0xE5])),
            (0x69, FixedRegisterDevice([0x75: 0x70])),
        ]))
        let byAddress = Dictionary(uniqueKeysWithValues: rows.map { ($0.address, $0) })
        #expect(byAddress[0x68]?.chip == .accelerometer(.mpu6050))
        #expect(byAddress[0x68]?.evidence.contains("reg 0x75 = 0x68") == true)
        #expect(byAddress[0x19]?.chip == .accelerometer(.lsm303agr))
        #expect(byAddress[0x19]?.confidence == .high)
        #expect(byAddress[0x53]?.chip == .unsupported("ADXL345"))
        #expect(byAddress[0x69]?.chip == .unsupported("MPU-6500"))
        let alone = detector.scan(bus(with: [(0x19, LSM303AGRAccelerometerEmulator(physics: physics))]))
        #expect(alone.first?.confidence == .medium, "0x33 alone is shared with the LIS3DH")
    }

    @Test("an ICM-20948: its AK09916 is probed through the I²C bypass")
    func icm20948Bypass() throws {
        let bus = EmulatedI2CBus(busNumber: 1)
        let ak = FixedRegisterDevice([0x00: 0x48, 0x01: 0x09])
        let icm = FixedRegisterDevice([0x00: 0xEA])
        icm.onWrite = { _, register, value in
            if register == 0x0F { if value & 0x02 != 0 { bus.attach(ak, at: 0x0C) } else { bus.detach(0x0C) } }
        }
        bus.attach(icm, at: 0x69)
        let rows = detector.scan(bus)
        #expect(rows.map(\.chip) == [.magnetometer(.ak09916), .accelerometer(.icm20948)])
        #expect(rows.first?.evidence.contains("bypass") == true)
    }

    @Test("something unknown, a kernel driver's address, and an empty bus")
    func unknownAndBusy() throws {
        let inner = bus(with: [(0x1C, FixedRegisterDevice([:], fill: 0x5A))])
        let rows = detector.scan(FailingAddressBus(inner, failing: 0x0D, with: .addressBusy(bus: 1, address: 0x0D)))
        #expect(rows.count == 2)
        #expect(rows[0].address == 0x0D && rows[0].chip == .unknown && rows[0].evidence.contains("kernel driver"))
        #expect(rows[1].chip == .unknown && rows[1].confidence == .low)
        #expect(rows[1].evidence.contains("reg 0x0f = 0x5a"), "\(rows[1].evidence)")
        #expect(detector.scan(EmulatedI2CBus()).isEmpty)
    }

    @Test("the preferred magnetometer: most confident, then lowest address; accelerometer on its bus")
    func preference() {
        let rows = [
            DetectedDevice(bus: 1, address: 0x0D, chip: .magnetometer(.qmc5883l), confidence: .medium, evidence: ""),
            DetectedDevice(bus: 1, address: 0x1E, chip: .magnetometer(.lis2mdl), confidence: .high, evidence: ""),
            DetectedDevice(bus: 1, address: 0x1C, chip: .magnetometer(.lis3mdl), confidence: .high, evidence: ""),
            DetectedDevice(bus: 1, address: 0x68, chip: .accelerometer(.mpu6050), confidence: .high, evidence: ""),
            DetectedDevice(bus: 3, address: 0x19, chip: .accelerometer(.lsm303agr), confidence: .high, evidence: ""),
        ]
        let report = ScanReport(buses: [1, 3], devices: rows)
        #expect(report.preferredMagnetometer?.magnetometer == .lis3mdl)
        #expect(report.preferredAccelerometer(onBus: 1)?.accelerometer == .mpu6050)
        let weak = ScanReport(buses: [1], devices: [
            DetectedDevice(bus: 1, address: 0x1E, chip: .magnetometer(.qmc5883l), confidence: .low, evidence: ""),
        ])
        #expect(weak.preferredMagnetometer == nil, "a low-confidence guess is never used automatically")
    }
}

@Suite("Scanning the machine's buses")
struct SystemScanTests {
    let clock = ManualClock(0)

    func scan(buses: [Int], open: @escaping @Sendable (Int) throws(I2CError) -> any I2CBus) -> SystemScan {
        let clock = self.clock
        return SystemScan(detector: Detector(sleep: { clock.advance(by: $0) }), listBuses: { buses }, openBus: open)
    }

    @Test("no bus: how to enable I²C on a Pi")
    func noBus() {
        #expect(throws: DetectionError.noBuses(requested: nil, present: [])) {
            try scan(buses: [], open: { n throws(I2CError) in EmulatedI2CBus(busNumber: n) }).run(bus: nil)
        }
        #expect(DetectionError.noBuses(requested: nil, present: []).message.contains("dtparam=i2c_arm=on"))
        let missing = scan(buses: [1], open: { n throws(I2CError) in throw .busNotFound(path: "/dev/i2c-\(n)") })
        #expect(throws: DetectionError.noBuses(requested: 4, present: [1])) { try missing.run(bus: 4) }
    }

    @Test("no permission: names the i2c group")
    func permission() {
        let denied = scan(buses: [1], open: { n throws(I2CError) in throw .permissionDenied(path: "/dev/i2c-\(n)") })
        #expect(throws: DetectionError.permission(paths: ["/dev/i2c-1"])) { try denied.run(bus: nil) }
        #expect(DetectionError.permission(paths: ["/dev/i2c-1"]).message.contains("sudo usermod -aG i2c $USER"))
        #expect(DetectionError.permission(paths: []).exitCode == .unavailable)
    }

    @Test("nothing answering: the wiring checklist")
    func nothingAnswers() {
        let empty = scan(buses: [1], open: { n throws(I2CError) in EmulatedI2CBus(busNumber: n) })
        do {
            _ = try empty.run(bus: nil)
            Issue.record("an empty bus produced a report")
        } catch {
            guard case .nothingAnswered(let buses, _) = error else { Issue.record("\(error)"); return }
            #expect(buses == [1])
            #expect(error.message.contains("Wiring checklist"))
            #expect(error.message.contains("SDA"))
        }
    }

    @Test("a populated bus beside an unreadable one: the report keeps both")
    func mixed() throws {
        let physics = PhysicsSource(now: { 0 }, magneticField: { _ in Vector3(20, 0, -40) })
        let report = try scan(buses: [1, 20], open: { n throws(I2CError) in
            if n == 20 { throw .permissionDenied(path: "/dev/i2c-20") }
            let bus = EmulatedI2CBus(busNumber: n)
            bus.attach(QMC5883LEmulator(physics: physics), at: 0x0D)
            return bus
        }).run(bus: nil)
        #expect(report.buses == [1])
        #expect(report.devices.map(\.chip) == [.magnetometer(.qmc5883l)])
        #expect(report.unopened.map(\.bus) == [20])
    }
}
