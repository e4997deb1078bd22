import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("HMC5883L driver")
struct HMC5883LTests {
    private func make(field: Vector3 = Vector3(21.5, -8.25, 43.75), noise: Double? = 0)
        throws -> (HMC5883L, HMC5883LEmulator, EmulatedI2CBus, ManualClock) {
        let clock = ManualClock()
        let emulator = HMC5883LEmulator(physics: DriverTestKit.physics(clock, field: field), noise: noise)
        let bus = DriverTestKit.bus(emulator, at: 0x1E)
        let chip = try HMC5883L(bus: bus, now: { clock.now() })
        return (chip, emulator, bus, clock)
    }

    @Test func initTraceIsIdentityThenConfiguration() throws {
        let (_, _, bus, _) = try make()
        #expect(bus.trace == [
            .read(address: 0x1E, start: 0x0A, count: 3),
            .write(address: 0x1E, register: 0x00, value: 0x18),   // 1 sample, 75 Hz, normal
            .write(address: 0x1E, register: 0x01, value: 0x20),   // gain 1090 LSB/G
            .write(address: 0x1E, register: 0x02, value: 0x00),   // continuous
        ])
    }

    @Test func decodesXZYOrderIntoXYZ() {
        // X = 100, Z = 200, Y = 300 counts, big-endian; 1090 LSB/G.
        let v = HMC5883L.decode([0x00, 0x64, 0x00, 0xC8, 0x01, 0x2C], gain: .gauss1_3)
        #expect(DriverTestKit.close(v, Vector3(9.1743, 27.5229, 18.3486), 1e-4))
        // Negative and extreme: X = −1000 (0xFC18), Z = 2047, Y = −2048 at 1370 LSB/G.
        let w = HMC5883L.decode([0xFC, 0x18, 0x07, 0xFF, 0xF8, 0x00], gain: .gauss0_88)
        #expect(DriverTestKit.close(w, Vector3(-72.9927, -149.4891, 149.4161), 1e-4))
        // 230 LSB/G: 230 counts = 1 G.
        #expect(DriverTestKit.close(HMC5883L.decode([0x00, 0xE6, 0x00, 0x00, 0xFF, 0x1A], gain: .gauss8_1),
                                    Vector3(100, -100, 0), 1e-9))
    }

    @Test func overflowCodeOnAnyAxisIsNil() {
        #expect(HMC5883L.decode([0xF0, 0x00, 0x00, 0x00, 0x00, 0x00], gain: .gauss1_3) == nil)
        #expect(HMC5883L.decode([0x00, 0x00, 0xF0, 0x00, 0x00, 0x00], gain: .gauss1_3) == nil)
        #expect(HMC5883L.decode([0x00, 0x00, 0x00, 0x00, 0xF0, 0x00], gain: .gauss1_3) == nil)
        #expect(HMC5883L.decode([0x00, 0x00, 0x00], gain: .gauss1_3) == nil)
    }

    @Test func readsTheFieldAndSkipsRereadSamples() throws {
        let field = Vector3(21.5, -8.25, 43.75)
        let (chip, _, _, clock) = try make(field: field)
        let first = try DriverTestKit.poll(chip, clock: clock)
        #expect(DriverTestKit.close(first, field, 100 / 1090))
        // RDY stays set: polling again at once must not return the same sample twice.
        #expect(try chip.readIfReady() == nil)
        clock.advance(by: 1 / 75)
        #expect(DriverTestKit.close(try chip.readIfReady(), field, 100 / 1090))
    }

    @Test func adcOverflowThrows() throws {
        let (chip, emulator, _, clock) = try make()
        emulator.forcedField = Vector3(0, 0, 300)   // 3270 counts at 1090 LSB/G: beyond 2047
        #expect(throws: SensorError.overflow(.hmc5883l)) { _ = try DriverTestKit.poll(chip, clock: clock) }
    }

    @Test func partlyReadDataLocksTheRegisters() throws {
        let (_, emulator, bus, clock) = try make()
        clock.advance(by: 0.1)
        let before = try bus.readRegisters(address: 0x1E, start: 0x03, count: 2)   // X only
        #expect(try bus.readRegister(address: 0x1E, register: 0x09) & HMC5883L.Status.lock != 0)
        emulator.forcedField = Vector3(50, 50, 50)
        clock.advance(by: 0.1)
        let held = try bus.readRegisters(address: 0x1E, start: 0x03, count: 6)   // completes the read
        #expect(Array(held.prefix(2)) == before)
        clock.advance(by: 0.1)
        let fresh = try bus.readRegisters(address: 0x1E, start: 0x03, count: 6)
        #expect(DriverTestKit.close(HMC5883L.decode(fresh, gain: .gauss1_3), Vector3(50, 50, 50), 0.1))
    }

    @Test func aQMC5883LAt0x0DIsRejected() throws {
        let clock = ManualClock()
        let bus = DriverTestKit.bus(QMC5883LEmulator(physics: DriverTestKit.physics(clock)), at: 0x0D)
        do {
            _ = try HMC5883L(bus: bus, address: 0x0D)
            Issue.record("a QMC5883L was accepted as an HMC5883L")
        } catch {
            guard case .wrongChip(.hmc5883l, 1, 0x0D, let evidence) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(evidence.contains("read 0x00 0x00 0x01"))
            #expect(bus.trace.allSatisfy { if case .read = $0 { return true } else { return false } })
        }
    }
}
