import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("LIS2MDL driver")
struct LIS2MDLTests {
    private func make(field: Vector3 = Vector3(21.5, -8.25, 43.75))
        throws -> (LIS2MDL, LIS2MDLEmulator, EmulatedI2CBus, ManualClock) {
        let clock = ManualClock()
        let emulator = LIS2MDLEmulator(physics: DriverTestKit.physics(clock, field: field), noise: 0)
        let bus = DriverTestKit.bus(emulator, at: 0x1E)
        return (try LIS2MDL(bus: bus), emulator, bus, clock)
    }

    @Test func initTraceIsIdentityResetThenConfiguration() throws {
        let (_, _, bus, _) = try make()
        #expect(bus.trace == [
            .read(address: 0x1E, start: 0x4F, count: 1),
            .write(address: 0x1E, register: 0x60, value: 0x20),   // soft reset
            .write(address: 0x1E, register: 0x61, value: 0x03),   // offset cancellation, LPF
            .write(address: 0x1E, register: 0x62, value: 0x10),   // BDU
            .write(address: 0x1E, register: 0x60, value: 0x8C),   // temperature compensation, 100 Hz, continuous
        ])
    }

    @Test func decodesHandComputedPatterns() {
        // 1000 counts × 1.5 mG = 150 µT; −1000; 1 count = 0.15 µT.
        let v = LIS2MDL.decode([0xE8, 0x03, 0x18, 0xFC, 0x01, 0x00])
        #expect(DriverTestKit.close(v, Vector3(150, -150, 0.15), 1e-9))
        // Largest unsaturated values: 32766 and −32767.
        let w = LIS2MDL.decode([0xFE, 0x7F, 0x01, 0x80, 0x00, 0x00])
        #expect(DriverTestKit.close(w, Vector3(4914.9, -4915.05, 0), 1e-6))
        #expect(LIS2MDL.decode([0xFF, 0x7F, 0, 0, 0, 0]) == nil)
        #expect(LIS2MDL.decode([0, 0, 0, 0, 0x00, 0x80]) == nil)
        #expect(LIS2MDL.decode([0, 0]) == nil)
    }

    @Test func offsetCancellationRemovesTheBridgeOffset() throws {
        let field = Vector3(21.5, -8.25, 43.75)
        let (chip, emulator, bus, clock) = try make(field: field)
        #expect(DriverTestKit.close(try DriverTestKit.poll(chip, clock: clock), field, 0.08))
        // With offset cancellation off, the bridge offset shows in the output.
        try bus.writeRegister(address: 0x1E, register: 0x61, value: 0x01)
        let raw = try DriverTestKit.poll(chip, clock: clock)
        #expect(DriverTestKit.close(raw, field + emulator.bridgeOffset, 0.08))
    }

    @Test func saturationThrowsOverflow() throws {
        let (chip, emulator, _, clock) = try make()
        emulator.forcedField = Vector3(0, -6000, 0)
        #expect(throws: SensorError.overflow(.lis2mdl)) { _ = try DriverTestKit.poll(chip, clock: clock) }
    }

    @Test func dataReadyClearsOnRead() throws {
        let (chip, _, _, clock) = try make()
        #expect(try DriverTestKit.poll(chip, clock: clock) != nil)
        #expect(try chip.readIfReady() == nil)
        clock.advance(by: 0.01)
        #expect(try chip.readIfReady() != nil)
    }

    @Test func anHMC5883LIsRejectedWithEvidence() throws {
        let clock = ManualClock()
        let bus = DriverTestKit.bus(HMC5883LEmulator(physics: DriverTestKit.physics(clock)), at: 0x1E)
        #expect(throws: SensorError.wrongChip(expected: .lis2mdl, bus: 1, address: 0x1E,
                                              evidence: "register 0x4f (WHO_AM_I) reads 0x00; expected 0x40")) {
            _ = try LIS2MDL(bus: bus)
        }
    }
}
