import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("MPU-9250: accelerometer and gyro on the MPU-6050's map, AK8963 behind the bypass")
struct MPU9250Tests {
    let clock = ManualClock(2)
    let field = Vector3(21.5, -8.25, 43.75)   // MPU-9250 axes

    /// The MPU-9250 at 0x68 with its AK8963 behind the bypass, as the simulator attaches them.
    func bus(noise: Double = 0) -> (EmulatedI2CBus, AK8963Emulator, MPU6050Emulator) {
        let bus = EmulatedI2CBus(busNumber: 1)
        let clock = self.clock
        let physics = PhysicsSource(now: { clock.now() }, magneticField: { [field] _ in field },
                                    rotationRate: { _ in Vector3(-3, 4, 90) })
        let (emulator, _) = MagnetometerEmulators.attach(.ak8963, to: bus, physics: physics, noise: noise)
        let mpu = bus.device(at: 0x68) as! MPU6050Emulator
        mpu.noise = 0
        mpu.gyroNoise = 0
        return (bus, emulator as! AK8963Emulator, mpu)
    }

    @Test func accelGyroTraceAddsTheAccelerometerLowPass() throws {
        let (bus, _, _) = bus()
        bus.clearTrace()
        let imu = try MPU6050(bus: bus, model: .mpu9250)
        #expect(bus.trace == [
            .read(address: 0x68, start: 0x75, count: 1),
            .write(address: 0x68, register: 0x6B, value: 0x01),
            .write(address: 0x68, register: 0x6C, value: 0x00),
            .write(address: 0x68, register: 0x1A, value: 0x03),   // gyro 41 Hz
            .write(address: 0x68, register: 0x19, value: 0x09),   // 100 Hz
            .write(address: 0x68, register: 0x1B, value: 0x08),   // ±500 °/s
            .write(address: 0x68, register: 0x1C, value: 0x00),   // ±2 g
            .write(address: 0x68, register: 0x1D, value: 0x03),   // accelerometer 44.8 Hz
            .write(address: 0x68, register: 0x38, value: 0x01),
        ])
        #expect(imu.info.kind == .mpu9250)
        #expect(imu.gyroscope == GyroscopeInfo(fullScale: 500, bandwidth: 41, outputRate: 100))
        let motion = try #require(try imu.readMotionIfReady())
        #expect(try #require(motion.rotationRate).isApproximatelyEqual(to: Vector3(-3, 4, 90), absoluteTolerance: 1 / 65.5))
    }

    @Test func anMPU6050IsNotAnMPU9250() throws {
        let bus = DriverTestKit.bus(MPU6050Emulator(physics: DriverTestKit.physics(clock)), at: 0x68)
        #expect(throws: SensorError.wrongAccelerometer(expected: .mpu9250, bus: 1, address: 0x68,
                                                       evidence: "register 0x75 reads 0x68; expected 0x71 or 0x73")) {
            _ = try MPU6050(bus: bus, model: .mpu9250)
        }
    }

    @Test func ak8963TraceBypassFuseROMAndContinuousMode2() throws {
        let (bus, _, _) = bus()
        bus.clearTrace()
        let chip = try AK8963(bus: bus)
        #expect(bus.trace == [
            .read(address: 0x68, start: 0x75, count: 1),           // an MPU-9250 here
            .write(address: 0x68, register: 0x6B, value: 0x01),   // awake
            .read(address: 0x68, start: 0x6A, count: 1),
            .write(address: 0x68, register: 0x6A, value: 0x00),   // I2C_MST_EN off
            .read(address: 0x68, start: 0x37, count: 1),
            .write(address: 0x68, register: 0x37, value: 0x02),   // BYPASS_EN
            .read(address: 0x0C, start: 0x00, count: 1),           // WIA
            .write(address: 0x0C, register: 0x0A, value: 0x00),   // power-down
            .write(address: 0x0C, register: 0x0A, value: 0x0F),   // fuse ROM access
            .read(address: 0x0C, start: 0x10, count: 3),           // ASAX–ASAZ
            .write(address: 0x0C, register: 0x0A, value: 0x00),   // power-down
            .write(address: 0x0C, register: 0x0B, value: 0x01),   // soft reset
            .write(address: 0x0C, register: 0x0A, value: 0x16),   // 16-bit, continuous mode 2 (100 Hz)
        ])
        #expect(chip.adjustmentBytes == [0xB0, 0xB3, 0xA6])
        #expect(chip.host == 0x68)
        bus.clearTrace()
        let read = try #require(try DriverTestKit.poll(chip, clock: clock))
        #expect(bus.trace.suffix(2) == [.read(address: 0x0C, start: 0x02, count: 1), .read(address: 0x0C, start: 0x03, count: 7)])
        // The emulated die reads field / ASA factor; the driver's ASA correction gives the field back.
        #expect(DriverTestKit.close(read, field, 0.2))
    }

    @Test func asaAndAxesByHand() {
        // ASA 0xB0 = 176: (176 − 128) · 0.5 / 128 + 1 = 1.1875.
        #expect(AK8963.adjustment([0xB0, 0x80, 0x00]) == Vector3(1.1875, 1, 0.5))
        // Die X = 100 counts, Y = −200, Z = 300, 16-bit: board (y, x, −z) · 0.15 µT.
        let v = AK8963.decode([0x64, 0x00, 0x38, 0xFF, 0x2C, 0x01, 0x10], adjustment: Vector3(1, 1, 1))
        #expect(DriverTestKit.close(v, Vector3(-30, 15, -45), 1e-9))
        // 14-bit output (BITM clear): 0.6 µT per count.
        let w = AK8963.decode([0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], adjustment: Vector3(1, 1, 1))
        #expect(DriverTestKit.close(w, Vector3(0, 60, 0), 1e-9))
        #expect(AK8963.decode([0, 0, 0, 0, 0, 0, 0x18], adjustment: Vector3(1, 1, 1)) == nil, "HOFL")
    }

    @Test func overflowIsACountedDrop() throws {
        let (bus, emulator, _) = bus()
        let chip = try AK8963(bus: bus)
        emulator.forcedField = Vector3(3000, 2000, 0)   // |X| + |Y| ≥ 4912 µT
        #expect(throws: SensorError.overflow(.ak8963)) { _ = try DriverTestKit.poll(chip, clock: clock) }
    }

    @Test func detectionReachesTheAK8963ThroughTheBypass() throws {
        let (bus, _, _) = bus()
        let clock = self.clock
        let rows = Detector(sleep: { clock.advance(by: $0) }).scan(bus)
        #expect(rows.map(\.chip) == [.magnetometer(.ak8963), .accelerometer(.mpu9250)])
        #expect(rows[0].confidence == .high)
        #expect(rows[0].evidence.contains("reached through the MPU-9250's I²C bypass at 0x68"))
        #expect(rows[1].evidence.contains("reg 0x75 = 0x71 (MPU-9250 WHO_AM_I"))
        #expect(ScanReport(buses: [1], devices: rows).probableBoards.first?.contains("MPU-9250") == true)
    }

    @Test func withoutTheBypassNothingAnswersAt0x0C() throws {
        let (bus, _, _) = bus()
        #expect(throws: I2CError.self) { _ = try bus.readRegister(address: 0x0C, register: 0x00) }
    }
}
