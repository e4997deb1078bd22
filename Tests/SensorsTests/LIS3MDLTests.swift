import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("LIS3MDL driver")
struct LIS3MDLTests {
    private func make(field: Vector3 = Vector3(21.5, -8.25, 43.75), noise: Double? = 0)
        throws -> (LIS3MDL, LIS3MDLEmulator, EmulatedI2CBus, ManualClock) {
        let clock = ManualClock()
        let emulator = LIS3MDLEmulator(physics: DriverTestKit.physics(clock, field: field), noise: noise)
        let bus = DriverTestKit.bus(emulator, at: 0x1C)
        return (try LIS3MDL(bus: bus), emulator, bus, clock)
    }

    @Test func initTraceIsIdentityResetThenControlRegisters() throws {
        let (_, _, bus, _) = try make()
        #expect(bus.trace == [
            .read(address: 0x1C, start: 0x0F, count: 1),
            .write(address: 0x1C, register: 0x21, value: 0x04),   // soft reset
            .write(address: 0x1C, register: 0x20, value: 0x7C),   // UHP X/Y, 80 Hz
            .write(address: 0x1C, register: 0x21, value: 0x00),   // ±4 G
            .write(address: 0x1C, register: 0x23, value: 0x0C),   // UHP Z
            .write(address: 0x1C, register: 0x24, value: 0x40),   // BDU
            .write(address: 0x1C, register: 0x22, value: 0x00),   // continuous
        ])
    }

    @Test func dataReadSetsTheAutoIncrementBit() throws {
        let (chip, _, bus, clock) = try make()
        bus.clearTrace()
        _ = try DriverTestKit.poll(chip, clock: clock)
        #expect(bus.trace.suffix(2) == [.read(address: 0x1C, start: 0x27, count: 1),
                                         .read(address: 0x1C, start: 0xA8, count: 6)])
    }

    @Test func withoutTheAutoIncrementBitTheChipRepeatsOneRegister() throws {
        let (_, _, bus, clock) = try make()
        clock.advance(by: 0.05)
        let plain = try bus.readRegisters(address: 0x1C, start: 0x28, count: 6)
        #expect(Set(plain).count == 1)
        clock.advance(by: 0.05)
        let incremented = try bus.readRegisters(address: 0x1C, start: 0xA8, count: 6)
        #expect(DriverTestKit.close(LIS3MDL.decode(incremented, range: .gauss4), Vector3(21.5, -8.25, 43.75), 0.02))
    }

    @Test func decodesHandComputedPatterns() {
        // 0x1ABA = 6842 = 1 G at ±4 G; 0xE546 = −6842; 0x0D2B = 3371 → 49.269 µT.
        let v = LIS3MDL.decode([0xBA, 0x1A, 0x46, 0xE5, 0x2B, 0x0D], range: .gauss4)
        #expect(DriverTestKit.close(v, Vector3(100, -100, 49.2692), 1e-4))
        // ±16 G: 0x06AF = 1711 = 1 G. Largest unsaturated: 32766 and −32767.
        let w = LIS3MDL.decode([0xAF, 0x06, 0xFE, 0x7F, 0x01, 0x80], range: .gauss16)
        #expect(DriverTestKit.close(w, Vector3(100, 1915.0205, -1915.0789), 1e-3))
    }

    @Test func railsAreOverflow() {
        #expect(LIS3MDL.decode([0xFF, 0x7F, 0, 0, 0, 0], range: .gauss4) == nil)
        #expect(LIS3MDL.decode([0, 0, 0x00, 0x80, 0, 0], range: .gauss4) == nil)
        #expect(LIS3MDL.decode([0, 0, 0, 0], range: .gauss4) == nil)
    }

    @Test func readsTheFieldAndOverflowThrows() throws {
        let field = Vector3(21.5, -8.25, 43.75)
        let (chip, emulator, _, clock) = try make(field: field)
        #expect(DriverTestKit.close(try DriverTestKit.poll(chip, clock: clock), field, 100 / 6842))
        #expect(try chip.readIfReady() == nil)   // ZYXDA cleared by the read
        emulator.forcedField = Vector3(600, 0, 0)   // 41000 counts at ±4 G: saturates
        #expect(throws: SensorError.overflow(.lis3mdl)) { _ = try DriverTestKit.poll(chip, clock: clock) }
    }

    @Test func anUnreadSampleOverwrittenSetsOverrun() throws {
        let (_, _, bus, clock) = try make()
        clock.advance(by: 0.02)
        _ = try bus.readRegister(address: 0x1C, register: 0x27)
        clock.advance(by: 0.02)
        let status = try bus.readRegister(address: 0x1C, register: 0x27)
        #expect(status & LIS3MDL.Status.xyzOverrun != 0)
        #expect(status & LIS3MDL.Status.xyzDataAvailable != 0)
    }

    @Test func anotherChipIsRejectedWithEvidence() throws {
        let clock = ManualClock()
        let bus = DriverTestKit.bus(LIS2MDLEmulator(physics: DriverTestKit.physics(clock)), at: 0x1E)
        #expect(throws: SensorError.wrongChip(expected: .lis3mdl, bus: 1, address: 0x1E,
                                              evidence: "register 0x0f (WHO_AM_I) reads 0x00; expected 0x3d")) {
            _ = try LIS3MDL(bus: bus, address: 0x1E)
        }
    }
}
