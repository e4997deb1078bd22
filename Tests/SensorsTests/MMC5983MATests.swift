import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("MMC5983MA driver")
struct MMC5983MATests {
    private func make(field: Vector3 = Vector3(21.5, -8.25, 43.75))
        throws -> (MMC5983MA, MMC5983MAEmulator, EmulatedI2CBus, ManualClock) {
        let clock = ManualClock()
        let emulator = MMC5983MAEmulator(physics: DriverTestKit.physics(clock, field: field), noise: 0)
        emulator.bridgeOffset = Vector3(20, -10, 5)
        let bus = DriverTestKit.bus(emulator, at: 0x30)
        return (try MMC5983MA(bus: bus), emulator, bus, clock)
    }

    /// Registers 0x00–0x06 for three 18-bit outputs (written out independently of the emulator).
    private func bytes(_ x: Int, _ y: Int, _ z: Int) -> [UInt8] {
        var out: [UInt8] = []
        var low = 0
        for (i, v) in [x, y, z].enumerated() {
            out += [UInt8(v / 1024), UInt8((v / 4) % 256)]
            low += (v % 4) << (6 - 2 * i)
        }
        return out + [UInt8(low)]
    }

    @Test func initTraceIsIdentityBandwidthThenSetAndMeasure() throws {
        let (_, _, bus, _) = try make()
        #expect(bus.trace == [
            .read(address: 0x30, start: 0x2F, count: 1),
            .write(address: 0x30, register: 0x0A, value: 0x00),   // 100 Hz bandwidth
            .write(address: 0x30, register: 0x0B, value: 0x00),   // continuous mode off
            .write(address: 0x30, register: 0x09, value: 0x08),   // SET
            .write(address: 0x30, register: 0x09, value: 0x01),   // TM_M
        ])
    }

    @Test func unpacksEighteenBitOutputs() {
        // X = 147457 (0x90, 0x00, low 01), Y = 114690 (0x70, 0x00, low 10), Z = 131075 (0x80, 0x00, low 11).
        let raw: [UInt8] = [0x90, 0x00, 0x70, 0x00, 0x80, 0x00, 0x6C]
        let c = MMC5983MA.counts(raw)
        #expect(c?.x == 147457 && c?.y == 114690 && c?.z == 131075)
        // About the nominal zero 131072, 16384 counts per gauss.
        #expect(DriverTestKit.close(MMC5983MA.decode(raw), Vector3(100.0061, -99.9878, 0.018311), 1e-4))
        #expect(MMC5983MA.counts(bytes(262143, 1, 77)).map { [$0.x, $0.y, $0.z] } == [262143, 1, 77])
    }

    @Test func setResetPairGivesFieldAndOffset() {
        // Offset +1000 counts, field +16384 / −8192 / +3 counts.
        let set = bytes(131072 + 1000 + 16384, 131072 + 1000 - 8192, 131072 + 1000 + 3)
        let reset = bytes(131072 + 1000 - 16384, 131072 + 1000 + 8192, 131072 + 1000 - 3)
        let result = MMC5983MA.decode(set: set, reset: reset)
        #expect(DriverTestKit.close(result?.field, Vector3(100, -50, 0.018311), 1e-5))
        #expect(DriverTestKit.close(result?.offset, Vector3(6.103516, 6.103516, 6.103516), 1e-5))
    }

    @Test func saturatedOutputsAreNil() {
        let zero = 131072
        #expect(MMC5983MA.decode(bytes(262143, zero, zero)) == nil)
        #expect(MMC5983MA.decode(bytes(zero, 0, zero)) == nil)
        #expect(MMC5983MA.decode(set: bytes(zero, zero, zero), reset: bytes(zero, zero, 262143)) == nil)
        #expect(MMC5983MA.decode([0x80, 0x00]) == nil)
    }

    @Test func driverRemovesTheBridgeOffset() throws {
        let field = Vector3(21.5, -8.25, 43.75)
        let (chip, _, bus, clock) = try make(field: field)
        // One measurement alone carries the offset: after SET it reads field + offset.
        clock.advance(by: 0.008)
        let afterSet = MMC5983MA.decode(try bus.readRegisters(address: 0x30, start: 0x00, count: 7))
        #expect(DriverTestKit.close(afterSet, field + Vector3(20, -10, 5), 0.01))
        // The driver's SET/RESET pairs remove it.
        let measured = try DriverTestKit.poll(chip, clock: clock)
        #expect(DriverTestKit.close(measured, field, 0.01))
        #expect(DriverTestKit.close(chip.bridgeOffset, Vector3(20, -10, 5), 0.01))
    }

    @Test func measurementTakesTheBandwidthTime() throws {
        let (chip, _, bus, clock) = try make()
        #expect(try chip.readIfReady() == nil)
        clock.advance(by: 0.004)
        #expect(try bus.readRegister(address: 0x30, register: 0x08) & MMC5983MA.Status.measurementDone == 0)
        clock.advance(by: 0.004)
        #expect(try bus.readRegister(address: 0x30, register: 0x08) & MMC5983MA.Status.measurementDone != 0)
    }

    @Test func everyMeasurementAfterTheFirstPairGivesASample() throws {
        let (chip, _, _, clock) = try make()
        var outputs = 0
        for _ in 0..<100 {   // 200 ms in 2 ms steps: about 22 measurements
            if try chip.readIfReady() != nil { outputs += 1 }
            clock.advance(by: 0.002)
        }
        #expect((18...25).contains(outputs))
    }

    @Test func saturationThrowsOverflow() throws {
        let (chip, emulator, _, clock) = try make()
        emulator.forcedField = Vector3(900, 0, 0)
        #expect(throws: SensorError.overflow(.mmc5983ma)) { _ = try DriverTestKit.poll(chip, clock: clock) }
    }

    @Test func anotherChipIsRejectedWithEvidence() throws {
        let clock = ManualClock()
        let bus = DriverTestKit.bus(QMC5883LEmulator(physics: DriverTestKit.physics(clock)), at: 0x30)
        #expect(throws: SensorError.wrongChip(expected: .mmc5983ma, bus: 1, address: 0x30,
                                              evidence: "register 0x2f (product ID) reads 0x00; expected 0x30")) {
            _ = try MMC5983MA(bus: bus)
        }
    }
}
