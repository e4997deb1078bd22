import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("BNO055 as a raw 9-axis sensor (AMG mode)")
struct BNO055Tests {
    let clock = ManualClock(4)
    let field = Vector3(21.5, -8.25, 43.75)

    var physics: PhysicsSource {
        let clock = self.clock
        return PhysicsSource(now: { clock.now() }, magneticField: { [field] _ in field },
                             acceleration: { _ in Vector3(0.1, -0.2, 0.97) }, rotationRate: { _ in Vector3(5, -12.5, 100) })
    }

    func open() throws -> (BNO055, BNO055Emulator, EmulatedI2CBus) {
        let emulator = BNO055Emulator(physics: physics, noise: 0, accelerationNoise: 0, gyroNoise: 0)
        let bus = DriverTestKit.bus(emulator, at: 0x28)
        let clock = self.clock
        return (try BNO055(bus: bus, now: { clock.now() }, sleep: { clock.advance(by: $0) }), emulator, bus)
    }

    @Test func configurationTraceAndWaits() throws {
        let start = clock.now()
        let (_, _, bus) = try open()
        #expect(bus.trace == [
            .write(address: 0x28, register: 0x07, value: 0x00),   // page 0
            .read(address: 0x28, start: 0x00, count: 1),          // CHIP_ID
            .write(address: 0x28, register: 0x07, value: 0x00),
            .write(address: 0x28, register: 0x3D, value: 0x00),   // CONFIG mode (19 ms)
            .write(address: 0x28, register: 0x3E, value: 0x00),   // normal power
            .write(address: 0x28, register: 0x3B, value: 0x01),   // mg, °/s
            .write(address: 0x28, register: 0x07, value: 0x01),   // page 1
            .write(address: 0x28, register: 0x08, value: 0x08),   // accelerometer ±2 g, 31.25 Hz
            .write(address: 0x28, register: 0x09, value: 0x15),   // magnetometer 20 Hz, enhanced regular
            .write(address: 0x28, register: 0x0A, value: 0x3A),   // gyro ±500 °/s, 32 Hz
            .write(address: 0x28, register: 0x07, value: 0x00),
            .write(address: 0x28, register: 0x3D, value: 0x07),   // AMG mode (7 ms)
        ])
        #expect(abs(clock.now() - start - 0.026) < 1e-9, "waited 19 + 7 ms")
    }

    @Test func readsTheFieldAt20HzAndTheMotionHalf() throws {
        let (chip, _, bus) = try open()
        bus.clearTrace()
        let read = try #require(try DriverTestKit.poll(chip, clock: clock))
        #expect(bus.trace == [.read(address: 0x28, start: 0x0E, count: 6)])
        #expect(DriverTestKit.close(read, field, 1.0 / 16))
        #expect(try chip.readIfReady() == nil, "paced at 20 Hz")
        clock.advance(by: 0.05)
        #expect(try chip.readIfReady() != nil)

        bus.clearTrace()
        let imu = try BNO055Motion(bus: bus, sleep: { _ in Issue.record("already in AMG mode: no waiting") })
        #expect(bus.trace == [.write(address: 0x28, register: 0x07, value: 0x00), .read(address: 0x28, start: 0x00, count: 1),
                              .read(address: 0x28, start: 0x3D, count: 1)])
        clock.advance(by: 0.02)
        let motion = try #require(try imu.readMotionIfReady())
        #expect(motion.acceleration.isApproximatelyEqual(to: Vector3(0.1, -0.2, 0.97), absoluteTolerance: 0.001))
        #expect(try #require(motion.rotationRate).isApproximatelyEqual(to: Vector3(5, -12.5, 100), absoluteTolerance: 1.0 / 16))
        #expect(imu.gyroscope?.fullScale == 500)
    }

    @Test func limitsAreDroppedNotClipped() throws {
        let (chip, emulator, bus) = try open()
        emulator.forcedField = Vector3(1500, 0, 0)
        #expect(throws: SensorError.overflow(.bno055)) { _ = try DriverTestKit.poll(chip, clock: clock) }
        let imu = try BNO055Motion(bus: bus)
        emulator.forcedRotationRate = Vector3(0, 800, 0)
        clock.advance(by: 0.02)
        #expect(throws: SensorError.gyroscopeSaturated(.bno055)) { _ = try imu.readMotionIfReady() }
    }

    @Test func calibrationStatusIsDecoded() throws {
        let (chip, emulator, _) = try open()
        emulator.calibrationStatus = 0b11_10_01_11
        #expect(try chip.calibrationStatus() == BNO055.CalibrationStatus(0b11_10_01_11))
        #expect(try chip.calibrationStatus().description == "sys 3, gyro 2, accel 1, mag 3")
    }

    @Test func detectionNamesBothHalvesAndShowsCalibration() throws {
        let bus = EmulatedI2CBus(busNumber: 1)
        MagnetometerEmulators.attach(.bno055, to: bus, physics: physics)
        let clock = self.clock
        let rows = Detector(sleep: { clock.advance(by: $0) }).scan(bus)
        #expect(rows.map(\.chip) == [.magnetometer(.bno055), .accelerometer(.bno055)])
        #expect(rows[0].evidence.contains("reg 0x00 = 0xa0 (BNO055 CHIP_ID), regs 0x01–0x03 = 0xfb 0x32 0x0f"))
        #expect(rows[0].evidence.contains("CALIB_STAT sys 0, gyro 0, accel 0, mag 0"))
        #expect(ScanReport(buses: [1], devices: rows).probableBoards.first?.hasPrefix("BNO055 breakout") == true)
    }
}
