import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("BMM150 driver")
struct BMM150Tests {
    private func make(field: Vector3 = Vector3(21.5, -8.25, 43.75), noise: Double? = 0)
        throws -> (BMM150, BMM150Emulator, EmulatedI2CBus, ManualClock) {
        let clock = ManualClock()
        let emulator = BMM150Emulator(physics: DriverTestKit.physics(clock, field: field), noise: noise)
        let bus = DriverTestKit.bus(emulator, at: 0x10)
        return (try BMM150(bus: bus), emulator, bus, clock)
    }

    /// A trim chosen so the arithmetic is easy by hand: at RHALL = xyz1 = 8192 the X/Y gain term is 256,
    /// so 1 count = 256·160 / 8192 / 16 = 0.3125 µT; Z: 4·(16385 + 65532·8192/32768) = 131072, so 1/16 µT.
    private let simpleTrim = BMM150Trim(x1: 0, y1: 0, x2: 0, y2: 0, z1: 65532, z2: 16385, z3: 0, z4: 0,
                                        xy1: 0, xy2: 0, xyz1: 8192)

    @Test func initTracePowersUpChecksIDReadsTrimAndConfigures() throws {
        let (_, _, bus, _) = try make()
        #expect(bus.trace == [
            .write(address: 0x10, register: 0x4B, value: 0x01),   // power bit: suspend → sleep
            .read(address: 0x10, start: 0x40, count: 1),
            .read(address: 0x10, start: 0x5D, count: 21),
            .write(address: 0x10, register: 0x4B, value: 0x83),   // soft reset, power kept
            .write(address: 0x10, register: 0x51, value: 0x07),   // enhanced regular: nXY = 15
            .write(address: 0x10, register: 0x52, value: 0x1A),   // nZ = 27
            .write(address: 0x10, register: 0x4C, value: 0x38),   // 30 Hz, normal mode
        ])
    }

    @Test func chipIDReadsZeroUntilPoweredAndTrimIsParsed() throws {
        let clock = ManualClock()
        let emulator = BMM150Emulator(physics: DriverTestKit.physics(clock))
        let bus = DriverTestKit.bus(emulator, at: 0x10)
        #expect(try bus.readRegister(address: 0x10, register: 0x40) == 0x00)
        let chip = try BMM150(bus: bus)
        #expect(chip.trim == BMM150Emulator.typicalTrim)   // reserved top bit of xyz1 masked
    }

    @Test func unpacksTheFlaggedDataRegisters() {
        // X = 320 (<<3, self-test flag), Y = −320, Z = 1600 (<<1), RHALL = 8192 (<<2, DRDY).
        let bytes: [UInt8] = [0x01, 0x0A, 0x01, 0xF6, 0x81, 0x0C, 0x01, 0x80]
        #expect(BMM150Raw(registers: bytes) == BMM150Raw(x: 320, y: -320, z: 1600, rhall: 8192))
        #expect(DriverTestKit.close(BMM150.decode(bytes, trim: simpleTrim), Vector3(100, -100, 100), 1e-9))
        // Extremes: X = 4095, Y = −4095, Z = −16383.
        let e: [UInt8] = [0xF9, 0x7F, 0x09, 0x80, 0x03, 0x80, 0x01, 0x80]
        #expect(BMM150Raw(registers: e) == BMM150Raw(x: 4095, y: -4095, z: -16383, rhall: 8192))
        #expect(DriverTestKit.close(BMM150.decode(e, trim: simpleTrim), Vector3(1279.6875, -1279.6875, -1023.9375), 1e-9))
    }

    @Test func overflowCodesAndZeroResistanceAreNil() {
        let ok: [UInt8] = [0x01, 0x0A, 0x01, 0xF6, 0x81, 0x0C, 0x01, 0x80]
        var x = ok; x[0] = 0x01; x[1] = 0x80          // X = −4096
        var z = ok; z[4] = 0x01; z[5] = 0x80          // Z = −16384
        var r = ok; r[6] = 0x01; r[7] = 0x00          // RHALL = 0
        #expect(BMM150.decode(x, trim: simpleTrim) == nil)
        #expect(BMM150.decode(z, trim: simpleTrim) == nil)
        #expect(BMM150.decode(r, trim: simpleTrim) == nil)
        #expect(BMM150.decode(ok, trim: BMM150Trim()) == nil)   // no trim read yet
    }

    @Test func compensationInvertsTheEmulatorAcrossTheRange() {
        let trim = BMM150Emulator.typicalTrim
        for rhall in [6400, 6702, 6853, 7300] {
            for b in stride(from: -1200.0, through: 1200, by: 150) {
                let field = Vector3(b, -0.7 * b + 13, 0.9 * b - 40)
                let back = trim.compensate(trim.rawCounts(for: field, rhall: rhall))
                #expect(DriverTestKit.close(back, field, 0.4), "rhall \(rhall), field \(field)")
            }
        }
    }

    @Test func readsTheFieldThroughTheEmulator() throws {
        let field = Vector3(21.5, -8.25, 43.75)
        let (chip, _, _, clock) = try make(field: field)
        #expect(DriverTestKit.close(try DriverTestKit.poll(chip, clock: clock), field, 0.4))
        #expect(try chip.readIfReady() == nil)   // DRDY cleared by the read
    }

    @Test func overflowThrows() throws {
        let (chip, emulator, _, clock) = try make()
        emulator.forcedField = Vector3(1500, 0, 0)
        #expect(throws: SensorError.overflow(.bmm150)) { _ = try DriverTestKit.poll(chip, clock: clock) }
    }

    @Test func anotherChipIsRejectedWithEvidence() throws {
        let clock = ManualClock()
        let bus = DriverTestKit.bus(QMC5883LEmulator(physics: DriverTestKit.physics(clock)), at: 0x10)
        #expect(throws: SensorError.wrongChip(
            expected: .bmm150, bus: 1, address: 0x10,
            evidence: "register 0x40 (chip ID) reads 0x00 after power-on; expected 0x32")) {
            _ = try BMM150(bus: bus)
        }
    }
}
