import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("QMC5883L driver")
struct QMC5883LTests {
    @Test func initTraceIsIdentityThenResetPeriodAndControl() throws {
        let clock = ManualClock()
        let bus = DriverTestKit.bus(QMC5883LEmulator(physics: DriverTestKit.physics(clock)), at: 0x0D)
        _ = try QMC5883L(bus: bus)
        #expect(bus.trace == [
            .read(address: 0x0D, start: 0x0D, count: 1),
            .read(address: 0x0D, start: 0x0C, count: 1),
            .write(address: 0x0D, register: 0x0A, value: 0x80),
            .write(address: 0x0D, register: 0x0B, value: 0x01),
            .write(address: 0x0D, register: 0x09, value: 0x1D),
        ])
    }

    @Test func decodesHandComputedPatterns() {
        // 0x2710 = 10000 counts = 3.333 G at ±8 G (3000 LSB/G); 0xD8F0 = −10000; 0.
        let v = QMC5883L.decode([0x10, 0x27, 0xF0, 0xD8, 0x00, 0x00], range: .gauss8)
        #expect(DriverTestKit.close(v, Vector3(333.3333, -333.3333, 0), 1e-3))
        // ±2 G: 0x2EE0 = 12000 counts = 1 G = 100 µT.
        let w = QMC5883L.decode([0xE0, 0x2E, 0x01, 0x00, 0xFF, 0xFF], range: .gauss2)
        #expect(DriverTestKit.close(w, Vector3(100, 1.0 / 120, -1.0 / 120), 1e-9))
        // Extremes: 32767 and −32768 counts at ±8 G.
        let e = QMC5883L.decode([0xFF, 0x7F, 0x00, 0x80, 0x00, 0x00], range: .gauss8)
        #expect(DriverTestKit.close(e, Vector3(1092.2333, -1092.2667, 0), 1e-3))
        #expect(QMC5883L.decode([0x00, 0x01], range: .gauss8) == nil)
    }

    @Test func overflowFlagDropsTheSample() throws {
        let clock = ManualClock()
        let emulator = QMC5883LEmulator(physics: DriverTestKit.physics(clock), noise: 0)
        let chip = try QMC5883L(bus: DriverTestKit.bus(emulator, at: 0x0D))
        emulator.forcedField = Vector3(900, 0, 0)   // beyond ±8 G
        #expect(throws: SensorError.overflow(.qmc5883l)) { _ = try DriverTestKit.poll(chip, clock: clock) }
    }

    @Test func readsTheFieldThroughTheEmulator() throws {
        let clock = ManualClock()
        let field = Vector3(21.5, -8.25, 43.75)
        let emulator = QMC5883LEmulator(physics: DriverTestKit.physics(clock, field: field), noise: 0)
        let chip = try QMC5883L(bus: DriverTestKit.bus(emulator, at: 0x0D))
        #expect(DriverTestKit.close(try DriverTestKit.poll(chip, clock: clock), field, 100.0 / 3000))
    }

    @Test func anotherChipIsRejectedWithEvidence() throws {
        let clock = ManualClock()
        let bus = DriverTestKit.bus(HMC5883LEmulator(physics: DriverTestKit.physics(clock)), at: 0x0D)
        do {
            _ = try QMC5883L(bus: bus)
            Issue.record("an HMC5883L was accepted as a QMC5883L")
        } catch {
            guard case .wrongChip(.qmc5883l, 1, 0x0D, let evidence) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(evidence.contains("0x0d reads 0x00"))
        }
    }
}

@Suite("QMC5883L revision 1.0: register 0x0d was reserved")
struct QMC5883LRevision1Tests {
    @Test func theDriverAcceptsItWithAWarning() throws {
        let clock = ManualClock()
        let field = Vector3(21.5, -8.25, 43.75)
        let emulator = QMC5883LEmulator(physics: DriverTestKit.physics(clock, field: field), noise: 0, chipID: 0x00)
        let bus = DriverTestKit.bus(emulator, at: 0x0D)
        let chip = try QMC5883L(bus: bus)
        #expect(bus.trace == [
            .read(address: 0x0D, start: 0x0D, count: 1),
            .read(address: 0x0D, start: 0x0C, count: 1),
            .write(address: 0x0D, register: 0x0A, value: 0x80),
            .write(address: 0x0D, register: 0x0B, value: 0x01),
            .write(address: 0x0D, register: 0x09, value: 0x1D),
        ])
        #expect(chip.identityWarning == QMC5883L.revision1Warning(chipID: 0x00))
        #expect(chip.info.notes == [QMC5883L.revision1Warning(chipID: 0x00)])
        #expect(DriverTestKit.close(try DriverTestKit.poll(chip, clock: clock), field, 100.0 / 3000))
    }

    @Test func aCurrentPartHasNoWarning() throws {
        let clock = ManualClock()
        let chip = try QMC5883L(bus: DriverTestKit.bus(QMC5883LEmulator(physics: DriverTestKit.physics(clock)), at: 0x0D))
        #expect(chip.identityWarning == nil && chip.info.notes.isEmpty)
    }

    @Test func detectionNeedsTheDataReadToConfirmIt() throws {
        let clock = ManualClock(50)
        let detector = Detector(sleep: { clock.advance(by: $0) })
        let good = EmulatedI2CBus(busNumber: 1)
        good.attach(QMC5883LEmulator(physics: DriverTestKit.physics(clock), noise: 0, chipID: 0x00), at: 0x0D)
        let rows = detector.scan(good)
        try #require(rows.count == 1)
        #expect(rows[0].chip == .magnetometer(.qmc5883l))
        #expect(rows[0].confidence == .medium)
        #expect(rows[0].evidence.contains("reg 0x0d = 0x00 (not 0xff: a revision 1.0 QMC5883L"))
        #expect(rows[0].evidence.contains("; data read 49.5 µT"))

        // Without a sane data read, a 0x0d that is not 0xff is not enough.
        let silent = QMC5883LEmulator(physics: DriverTestKit.physics(clock), noise: 0, chipID: 0x00)
        silent.forcedField = .zero
        let bad = EmulatedI2CBus(busNumber: 1)
        bad.attach(silent, at: 0x0D)
        #expect(detector.scan(bad).first?.chip == .unknown)
    }
}
