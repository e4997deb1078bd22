import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("LSM6DSL / LSM6DSOX accelerometer and gyroscope (BerryIMU v3)")
struct LSM6DSLTests {
    let clock = ManualClock(3)

    var physics: PhysicsSource {
        let clock = self.clock
        return PhysicsSource(now: { clock.now() }, magneticField: { _ in Vector3(20, 0, -40) },
                             acceleration: { _ in Vector3(-0.125, 0.5, 0.8) }, rotationRate: { _ in Vector3(7, -60, 200) })
    }

    @Test("configuration and read traces", arguments: LSM6DSL.Model.allCases)
    func traces(model: LSM6DSL.Model) throws {
        let bus = DriverTestKit.bus(LSM6DSLEmulator(physics: physics, noise: 0, gyroNoise: 0, model: model), at: 0x6A)
        let imu = try LSM6DSL(bus: bus)
        #expect(bus.trace == [
            .read(address: 0x6A, start: 0x0F, count: 1),
            .write(address: 0x6A, register: 0x12, value: 0x44),   // BDU, IF_INC
            .write(address: 0x6A, register: 0x10, value: 0x40),   // accelerometer 104 Hz, ±2 g
            .write(address: 0x6A, register: 0x11, value: 0x44),   // gyro 104 Hz, ±500 °/s
        ])
        #expect(imu.model == model && imu.info.kind == model.kind)
        #expect(imu.gyroscope == GyroscopeInfo(fullScale: 500, bandwidth: 33, outputRate: 104))
        bus.clearTrace()
        let motion = try #require(try imu.readMotionIfReady())
        #expect(bus.trace == [.read(address: 0x6A, start: 0x1E, count: 1), .read(address: 0x6A, start: 0x22, count: 12)])
        #expect(motion.acceleration.isApproximatelyEqual(to: Vector3(-0.125, 0.5, 0.8), absoluteTolerance: 0.0001))
        #expect(try #require(motion.rotationRate).isApproximatelyEqual(to: Vector3(7, -60, 200), absoluteTolerance: 0.0175))
        #expect(try imu.readMotionIfReady() == nil, "XLDA cleared by the read")
        clock.advance(by: 1.0 / 104 + 1e-6)
        #expect(try imu.readMotionIfReady() != nil)
    }

    @Test func handComputedWordsSaturationAndAutoIncrement() throws {
        let emulator = LSM6DSLEmulator(physics: physics, noise: 0, gyroNoise: 0)
        let bus = DriverTestKit.bus(emulator, at: 0x6B)
        let imu = try LSM6DSL(bus: bus, address: 0x6B)
        // 200 °/s / 17.5 m°/s = 11429 counts = 0x2CA5, little-endian A5 2C at 0x26.
        _ = try bus.readRegister(address: 0x6B, register: 0x1E)
        #expect(try bus.readRegisters(address: 0x6B, start: 0x26, count: 2) == [0xA5, 0x2C])
        emulator.forcedRotationRate = Vector3(-600, 0, 0)
        clock.advance(by: 0.01)
        #expect(throws: SensorError.gyroscopeSaturated(.lsm6dsl)) { _ = try imu.readMotionIfReady() }
        try bus.writeRegister(address: 0x6B, register: 0x12, value: 0x40)   // IF_INC off
        clock.advance(by: 0.01)
        _ = try bus.readRegister(address: 0x6B, register: 0x1E)
        #expect(Set(try bus.readRegisters(address: 0x6B, start: 0x28, count: 6)).count == 1)
    }

    @Test func anotherChipIsRefused() throws {
        let bus = DriverTestKit.bus(LSM9DS1AccelGyroEmulator(physics: physics), at: 0x6A)
        #expect(throws: SensorError.wrongAccelerometer(expected: .lsm6dsl, bus: 1, address: 0x6A,
                                                       evidence: "register 0x0f reads 0x68; expected 0x6a or 0x6c")) {
            _ = try LSM6DSL(bus: bus)
        }
    }

    @Test func detectionAndTheBerryIMUv3() throws {
        let bus = EmulatedI2CBus(busNumber: 1)
        MagnetometerEmulators.attach(.lis3mdl, to: bus, physics: physics)
        AccelerometerEmulators.attach(.lsm6dsox, to: bus, physics: physics)
        let clock = self.clock
        let rows = Detector(sleep: { clock.advance(by: $0) }).scan(bus)
        #expect(rows.map(\.chip) == [.magnetometer(.lis3mdl), .accelerometer(.lsm6dsox)])
        #expect(rows[1].evidence == "reg 0x0f = 0x6c (LSM6DSOX WHO_AM_I)")
        #expect(ScanReport(buses: [1], devices: rows).probableBoards == ["BerryIMU v3 (LSM6DSOX at 0x6a, LIS3MDL at 0x1c)"])
    }
}
