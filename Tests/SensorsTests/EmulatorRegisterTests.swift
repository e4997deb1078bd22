import Linear
import Platform
import Sensors
import Simulation
import Testing

/// Each chip emulator's data registers for a known field, checked against bytes worked out here by
/// hand from the datasheet's sensitivity, not from the driver's or the emulator's own constants: a
/// wrong scale or byte order in the driver cannot hide behind an emulator that shares it (the
/// drivers' decoders have their own hand-computed tests in each chip's file; the LSM6DSL, the
/// LSM9DS1 and the MPU-6050 gyro words are checked the same way in theirs; the ICM-20948's
/// accelerometer and gyro and the BMM150, with a trim worked by hand, here). The BNO055
/// and the CMPS14 compute their output on the chip and their datasheets give no register example,
/// so theirs are checked only through the emulator.
@Suite("emulated registers against hand-computed bytes")
struct EmulatorRegisterTests {
    /// The emulator on a bus, configured by its driver, with `field` (µT, the driver's axes) forced
    /// and one output period passed.
    static func registers(_ device: any EmulatedMagnetometer, at address: I2CAddress, field: Vector3,
                          configure: (EmulatedI2CBus) throws -> Void, start: UInt8, count: Int, clock: ManualClock) throws -> [UInt8] {
        let bus = DriverTestKit.bus(device, at: address)
        var d = device
        d.forcedField = field
        try configure(bus)
        clock.advance(by: 0.05)
        return try bus.readRegisters(address: address, start: start, count: count)
    }

    @Test func qmc5883l() throws {
        // ±8 G (CONTROL 1 = 0x1d: RNG 01): 3000 LSB/G, so 100 µT = 1 G = 3000 = 0x0bb8,
        // −50 µT = −1500 = 0xfa24, 25 µT = 750 = 0x02ee; X, Y, Z little-endian from 0x00.
        let clock = ManualClock()
        let emulator = QMC5883LEmulator(physics: DriverTestKit.physics(clock), noise: 0)
        let bytes = try Self.registers(emulator, at: 0x0D, field: Vector3(100, -50, 25), configure: { bus in
            _ = try QMC5883L(bus: bus)
            clock.advance(by: 0.05)
            _ = try bus.readRegister(address: 0x0D, register: 0x06)   // STATUS: a sample is ready
        }, start: 0x00, count: 6, clock: clock)
        #expect(bytes == [0xB8, 0x0B, 0x24, 0xFA, 0xEE, 0x02])
    }

    @Test func hmc5883l() throws {
        // Gain 1090 LSB/G (CONFIG B = 0x20): 100 µT = 1090 = 0x0442, −50 µT = −545 = 0xfddf,
        // 20 µT = 218 = 0x00da; big-endian in the order X, Z, Y from 0x03.
        let clock = ManualClock()
        let emulator = HMC5883LEmulator(physics: DriverTestKit.physics(clock), noise: 0)
        let bytes = try Self.registers(emulator, at: 0x1E, field: Vector3(100, -50, 20),
                                       configure: { _ = try HMC5883L(bus: $0, now: { clock.now() }) },
                                       start: 0x03, count: 6, clock: clock)
        #expect(bytes == [0x04, 0x42, 0x00, 0xDA, 0xFD, 0xDF])
    }

    @Test func lis3mdl() throws {
        // ±4 G: 6842 LSB/G; 100 µT = 6842 = 0x1aba, −50 µT = −3421 = 0xf2a3, 200 µT = 13684 = 0x3574;
        // little-endian from OUT_X_L 0x28 (bit 7 of the address: auto-increment).
        let clock = ManualClock()
        let emulator = LIS3MDLEmulator(physics: DriverTestKit.physics(clock), noise: 0)
        let bytes = try Self.registers(emulator, at: 0x1C, field: Vector3(100, -50, 200), configure: { _ = try LIS3MDL(bus: $0) },
                                       start: 0xA8, count: 6, clock: clock)
        #expect(bytes == [0xBA, 0x1A, 0xA3, 0xF2, 0x74, 0x35])
    }

    @Test func lis2mdl() throws {
        // 1.5 mG/LSB = 0.15 µT/LSB: 15 µT = 100 = 0x0064, −30 µT = −200 = 0xff38, 45 µT = 300 = 0x012c;
        // little-endian from OUTX_L_REG 0x68.
        let clock = ManualClock()
        let emulator = LIS2MDLEmulator(physics: DriverTestKit.physics(clock), noise: 0)
        let bytes = try Self.registers(emulator, at: 0x1E, field: Vector3(15, -30, 45), configure: { _ = try LIS2MDL(bus: $0) },
                                       start: 0x68, count: 6, clock: clock)
        #expect(bytes == [0x64, 0x00, 0x38, 0xFF, 0x2C, 0x01])
    }

    @Test func ak09916() throws {
        // 0.15 µT/LSB. The driver's axes are the board's: X as the die's, Y and Z reversed (the
        // AK09916 sits upside down in the ICM-20948), so (15, 30, −45) µT is die (15, −30, 45) µT
        // = (100, −200, 300) counts, little-endian from HXL 0x11.
        let clock = ManualClock()
        let emulator = AK09916Emulator(physics: DriverTestKit.physics(clock), noise: 0)
        let bytes = try Self.registers(emulator, at: 0x0C, field: Vector3(15, 30, -45), configure: { _ = try AK09916(bus: $0) },
                                       start: 0x11, count: 6, clock: clock)
        #expect(bytes == [0x64, 0x00, 0x38, 0xFF, 0x2C, 0x01])
    }

    @Test func mpu6050Accelerometer() throws {
        // ±2 g (AFS_SEL 0): 16384 LSB/g; 0.5 g = 8192 = 0x2000, −0.25 g = −4096 = 0xf000,
        // 1 g = 16384 = 0x4000; big-endian from ACCEL_XOUT_H 0x3b.
        let clock = ManualClock()
        let physics = PhysicsSource(now: { clock.now() }, magneticField: { _ in .zero }, acceleration: { _ in Vector3(0.5, -0.25, 1) })
        let bus = EmulatedI2CBus(busNumber: 1)
        bus.attach(MPU6050Emulator(physics: physics, noise: 0, gyroNoise: 0), at: 0x68)
        _ = try MPU6050(bus: bus)
        clock.advance(by: 0.05)
        #expect(try bus.readRegisters(address: 0x68, start: 0x3B, count: 6) == [0x20, 0x00, 0xF0, 0x00, 0x40, 0x00])
    }

    @Test func ak8963() throws {
        // ASA bytes 0x80 (adjustment 1), 16-bit output: 0.15 µT/LSB. The driver's axes are the
        // MPU-9250's: (die Y, die X, −die Z), so (−30, 15, −45) µT is die (100, −200, 300) counts,
        // little-endian from HXL 0x03.
        let clock = ManualClock()
        let emulator = AK8963Emulator(physics: DriverTestKit.physics(clock), noise: 0, adjustment: [0x80, 0x80, 0x80])
        let bytes = try Self.registers(emulator, at: 0x0C, field: Vector3(-30, 15, -45), configure: { _ = try AK8963(bus: $0) },
                                       start: 0x03, count: 6, clock: clock)
        #expect(bytes == [0x64, 0x00, 0x38, 0xFF, 0x2C, 0x01])
    }

    @Test func mmc5983ma() throws {
        // 18 bits, zero field at 131072, 16384 counts/G; bridge offset 0. 100 µT = 1 G: 131072 + 16384
        // = 147456 = 0x24000 → 0x90 0x00, low bits 00; −50 µT: 131072 − 8192 = 122880 = 0x1e000 →
        // 0x78 0x00; 0 µT: 0x80 0x00; register 0x06 holds the low bits (all 0). After a RESET the
        // field reads reversed: 114688 → 0x70 0x00, 139264 → 0x88 0x00.
        let clock = ManualClock()
        let emulator = MMC5983MAEmulator(physics: DriverTestKit.physics(clock), noise: 0)
        emulator.bridgeOffset = .zero
        let bytes = try Self.registers(emulator, at: 0x30, field: Vector3(100, -50, 0), configure: { _ = try MMC5983MA(bus: $0) },
                                       start: 0x00, count: 7, clock: clock)
        let set: [UInt8] = [0x90, 0x00, 0x78, 0x00, 0x80, 0x00, 0x00]
        let reset: [UInt8] = [0x70, 0x00, 0x88, 0x00, 0x80, 0x00, 0x00]
        #expect(bytes == set || bytes == reset, "\(bytes)")
    }

    @Test func lsm303agrAccelerometer() throws {
        // ±2 g, high resolution: 12 bits left-justified, 0.98 mg/digit; 0.49 g = 500 digits = 8000 =
        // 0x1f40, −0.245 g = −250 → −4000 = 0xf060, 0.98 g = 1000 → 16000 = 0x3e80; little-endian
        // from OUT_X_L_A 0x28 (0xa8: auto-increment).
        let clock = ManualClock()
        let physics = PhysicsSource(now: { clock.now() }, magneticField: { _ in .zero }, acceleration: { _ in Vector3(0.49, -0.245, 0.98) })
        let bus = EmulatedI2CBus(busNumber: 1)
        bus.attach(LSM303AGRAccelerometerEmulator(physics: physics, noise: 0), at: 0x19)
        _ = try LSM303AGRAccelerometer(bus: bus)
        clock.advance(by: 0.05)
        // STATUS_REG_A (0x27) first, as the driver reads it: the sample is latched there.
        #expect(Array(try bus.readRegisters(address: 0x19, start: 0xA7, count: 7).dropFirst()) == [0x40, 0x1F, 0x60, 0xF0, 0x80, 0x3E])
    }
    @Test func icm20948AccelerometerAndGyro() throws {
        // ±2 g (ACCEL_FS_SEL 0): 16384 LSB/g; 0.5 g = 8192 = 0x2000, −0.25 g = −4096 = 0xf000,
        // 1 g = 16384 = 0x4000. ±500 °/s (GYRO_FS_SEL 1): 65.5 LSB/(°/s); 100 °/s = 6550 = 0x1996,
        // −50 °/s = −3275 = 0xf335, 20 °/s = 1310 = 0x051e. Big-endian in bank 0 from ACCEL_XOUT_H
        // 0x2d, the gyro from GYRO_XOUT_H 0x33.
        let clock = ManualClock()
        let physics = PhysicsSource(now: { clock.now() }, magneticField: { _ in .zero },
                                    acceleration: { _ in Vector3(0.5, -0.25, 1) }, rotationRate: { _ in Vector3(100, -50, 20) })
        let bus = EmulatedI2CBus(busNumber: 1)
        let core = ICM20948AccelerometerCore(physics: physics, noise: 0, gyroNoise: 0)
        let magnetometer = AK09916Emulator(physics: physics, noise: 0)
        bus.attach(ICM20948Emulator(bus: bus, magnetometer: magnetometer, core: core), at: 0x69)
        _ = try ICM20948Accelerometer(bus: bus)
        clock.advance(by: 0.05)
        _ = try bus.readRegister(address: 0x69, register: 0x1A)   // INT_STATUS_1: a sample is ready
        #expect(try bus.readRegisters(address: 0x69, start: 0x2D, count: 12)
                    == [0x20, 0x00, 0xF0, 0x00, 0x40, 0x00, 0x19, 0x96, 0xF3, 0x35, 0x05, 0x1E])
    }

    @Test func bmm150() throws {
        // A trim worked by hand (as in BMM150Tests): x1 = y1 = x2 = y2 = xy1 = xy2 = z3 = z4 = 0,
        // xyz1 = 8192, z1 = 65532, z2 = 16385, and RHALL = 8192. Then X/Y are 0.3125 µT per count and
        // Z 1/16 µT: (100, −100, 100) µT = X 320, Y −320, Z 1600. X and Y are 13 bits from bit 3
        // (320 << 3 = 0x0a00, bit 0 the self-test flag: 0x01 0x0a; −320 → 0xf600 → 0x01 0xf6), Z 15
        // bits from bit 1 (1600 << 1 = 0x0c80 | self-test → 0x81 0x0c), RHALL 14 bits from bit 2 with
        // DRDY in bit 0 (8192 << 2 = 0x8000 | 1 → 0x01 0x80); little-endian from DATAX_LSB 0x42.
        let clock = ManualClock()
        let trim = BMM150Trim(x1: 0, y1: 0, x2: 0, y2: 0, z1: 65532, z2: 16385, z3: 0, z4: 0, xy1: 0, xy2: 0, xyz1: 8192)
        let emulator = BMM150Emulator(physics: DriverTestKit.physics(clock), trim: trim, noise: 0)
        emulator.hallResistance = 8192
        let bytes = try Self.registers(emulator, at: 0x10, field: Vector3(100, -100, 100), configure: { _ = try BMM150(bus: $0) },
                                       start: 0x42, count: 8, clock: clock)
        #expect(bytes == [0x01, 0x0A, 0x01, 0xF6, 0x81, 0x0C, 0x01, 0x80])
    }
}
