import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("AK09916 driver and ICM-20948 bypass")
struct AK09916Tests {
    private func make(host: I2CAddress? = 0x69, field: Vector3 = Vector3(21.5, -8.25, 43.75))
        -> (AK09916Emulator, EmulatedI2CBus, ManualClock) {
        let clock = ManualClock()
        let ak = AK09916Emulator(physics: DriverTestKit.physics(clock, field: field), noise: 0)
        let bus = EmulatedI2CBus(busNumber: 1)
        if let host {
            bus.attach(ICM20948Emulator(bus: bus, magnetometer: ak), at: host)
        } else {
            bus.attach(ak, at: 0x0C)
        }
        return (ak, bus, clock)
    }

    @Test func enablesTheBypassThenProbesAndConfigures() throws {
        let (_, bus, _) = make()
        #expect(throws: I2CError.noAcknowledge(bus: 1, address: 0x0C)) {
            _ = try bus.readRegister(address: 0x0C, register: 0x01)   // hidden behind the ICM-20948
        }
        bus.clearTrace()
        let chip = try AK09916(bus: bus)
        #expect(chip.host == 0x69)
        #expect(bus.trace == [
            .read(address: 0x69, start: 0x00, count: 1),             // WHO_AM_I = 0xEA
            .write(address: 0x69, register: 0x06, value: 0x01),     // wake
            .read(address: 0x69, start: 0x03, count: 1),
            .write(address: 0x69, register: 0x03, value: 0x00),     // I2C_MST_EN off
            .read(address: 0x69, start: 0x0F, count: 1),
            .write(address: 0x69, register: 0x0F, value: 0x02),     // BYPASS_EN
            .read(address: 0x0C, start: 0x00, count: 2),             // WIA1, WIA2
            .write(address: 0x0C, register: 0x32, value: 0x01),     // soft reset
            .write(address: 0x0C, register: 0x31, value: 0x08),     // continuous 100 Hz
        ])
    }

    @Test func findsTheHostAt0x68AndLeavesOtherDevicesAlone() throws {
        let (_, bus, clock) = make(host: 0x68)
        bus.attach(QMC5883LEmulator(physics: DriverTestKit.physics(clock)), at: 0x69)   // not an ICM-20948
        let chip = try AK09916(bus: bus)
        #expect(chip.host == 0x68)
        #expect(!bus.trace.contains { if case .write(0x69, _, _) = $0 { return true } else { return false } })
    }

    @Test func worksWithoutAHost() throws {
        let field = Vector3(21.5, -8.25, 43.75)
        let (_, bus, clock) = make(host: nil, field: field)
        let chip = try AK09916(bus: bus)
        #expect(chip.host == nil)
        #expect(DriverTestKit.close(try DriverTestKit.poll(chip, clock: clock), field, 0.075))
    }

    @Test func decodesHandComputedPatterns() {
        // Die counts 100 (15 µT), −100, 32752 (4912.8 µT), ST2 clear; Y and Z flip into the board's axes.
        let v = AK09916.decode([0x64, 0x00, 0x9C, 0xFF, 0xF0, 0x7F, 0x00, 0x00])
        #expect(DriverTestKit.close(v, Vector3(15, 15, -4912.8), 1e-9))
        #expect(DriverTestKit.close(AK09916.decode([0x10, 0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00]),
                                    Vector3(-4912.8, -0.15, 0), 1e-9))
        #expect(AK09916.decode([0x64, 0x00, 0x9C, 0xFF, 0xF0, 0x7F, 0x00, 0x08]) == nil)   // HOFL
        #expect(AK09916.decode([0x64, 0x00]) == nil)
    }

    @Test func readsTheFieldAndOverflowThrows() throws {
        let field = Vector3(21.5, -8.25, 43.75)
        let (ak, bus, clock) = make(field: field)
        let chip = try AK09916(bus: bus)
        #expect(DriverTestKit.close(try DriverTestKit.poll(chip, clock: clock), field, 0.075))
        #expect(try chip.readIfReady() == nil)   // DRDY cleared
        ak.forcedField = Vector3(0, 0, -6000)
        #expect(throws: SensorError.overflow(.ak09916)) { _ = try DriverTestKit.poll(chip, clock: clock) }
    }

    @Test func dataIsProtectedUntilST2IsRead() throws {
        let (ak, bus, clock) = make()
        _ = try AK09916(bus: bus)
        clock.advance(by: 0.015)
        let first = try bus.readRegisters(address: 0x0C, start: 0x11, count: 2)   // HX only: protection on
        ak.forcedField = Vector3(100, 100, 100)
        clock.advance(by: 0.015)
        #expect(try bus.readRegister(address: 0x0C, register: 0x10) & AK09916.Status1.dataOverrun != 0)
        #expect(try bus.readRegisters(address: 0x0C, start: 0x11, count: 2) == first)
        _ = try bus.readRegister(address: 0x0C, register: 0x18)                   // ST2 ends the sample
        clock.advance(by: 0.015)
        let fresh = try bus.readRegisters(address: 0x0C, start: 0x11, count: 8)
        #expect(DriverTestKit.close(AK09916.decode(fresh), Vector3(100, 100, 100), 0.075))
    }

    @Test func configureRestoresTheBypassAfterTheHostIsReset() throws {
        let (_, bus, clock) = make()
        let chip = try AK09916(bus: bus)
        try bus.writeRegister(address: 0x69, register: 0x06, value: 0x80)   // DEVICE_RESET
        #expect(throws: SensorError.bus(.noAcknowledge(bus: 1, address: 0x0C))) { _ = try chip.readIfReady() }
        try chip.configure()
        #expect(try DriverTestKit.poll(chip, clock: clock) != nil)
    }

    @Test func anotherChipIsRejectedWithEvidence() throws {
        let clock = ManualClock()
        let bus = DriverTestKit.bus(LIS2MDLEmulator(physics: DriverTestKit.physics(clock)), at: 0x0C)
        #expect(throws: SensorError.wrongChip(
            expected: .ak09916, bus: 1, address: 0x0C,
            evidence: "registers 0x00–0x01 (WIA1, WIA2) read 0x00 0x00; expected 0x48 0x09")) {
            _ = try AK09916(bus: bus, hostAddresses: [])
        }
    }
}
