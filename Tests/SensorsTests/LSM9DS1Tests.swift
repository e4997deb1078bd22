import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("LSM9DS1: magnetometer (LIS3MDL map, own sensitivity and axes) and accelerometer/gyro")
struct LSM9DS1Tests {
    let clock = ManualClock(5)

    var physics: PhysicsSource {
        let clock = self.clock
        return PhysicsSource(now: { clock.now() }, magneticField: { _ in Vector3(21.5, -8.25, 43.75) },
                             acceleration: { _ in Vector3(0.25, -0.5, 0.75) }, rotationRate: { _ in Vector3(12, -30, 45) })
    }

    @Test func accelGyroConfigurationTrace() throws {
        let bus = DriverTestKit.bus(LSM9DS1AccelGyroEmulator(physics: physics, noise: 0, gyroNoise: 0), at: 0x6A)
        let imu = try LSM9DS1AccelGyro(bus: bus)
        #expect(bus.trace == [
            .read(address: 0x6A, start: 0x0F, count: 1),
            .write(address: 0x6A, register: 0x22, value: 0x44),   // BDU, IF_ADD_INC
            .write(address: 0x6A, register: 0x1E, value: 0x38),   // gyro X, Y, Z on
            .write(address: 0x6A, register: 0x1F, value: 0x38),   // accelerometer X, Y, Z on
            .write(address: 0x6A, register: 0x12, value: 0x00),   // no high-pass
            .write(address: 0x6A, register: 0x20, value: 0x60),   // 119 Hz, ±2 g
            .write(address: 0x6A, register: 0x10, value: 0x69),   // 119 Hz, ±500 °/s, BW_G 01 (31 Hz)
        ])
        #expect(imu.gyroscope == GyroscopeInfo(fullScale: 500, bandwidth: 31, outputRate: 119))
        #expect(imu.info.kind == .lsm9ds1 && imu.info.outputRate == 119)
    }

    @Test func motionReadTraceAndValues() throws {
        let bus = DriverTestKit.bus(LSM9DS1AccelGyroEmulator(physics: physics, noise: 0, gyroNoise: 0), at: 0x6A)
        let imu = try LSM9DS1AccelGyro(bus: bus)
        bus.clearTrace()
        let motion = try #require(try imu.readMotionIfReady())
        #expect(bus.trace == [.read(address: 0x6A, start: 0x17, count: 1), .read(address: 0x6A, start: 0x18, count: 6),
                              .read(address: 0x6A, start: 0x28, count: 6)])
        #expect(motion.acceleration.isApproximatelyEqual(to: Vector3(0.25, -0.5, 0.75), absoluteTolerance: 0.0001))
        let rate = try #require(motion.rotationRate)
        #expect(rate.isApproximatelyEqual(to: Vector3(12, -30, 45), absoluteTolerance: 0.0175))
        #expect(try imu.readMotionIfReady() == nil, "XLDA cleared by the read")
        clock.advance(by: 1.0 / 119 + 1e-6)
        #expect(try imu.readMotionIfReady() != nil)
    }

    @Test func decodesHandComputedWordsAndSaturation() throws {
        let emulator = LSM9DS1AccelGyroEmulator(physics: physics, noise: 0, gyroNoise: 0)
        let bus = DriverTestKit.bus(emulator, at: 0x6B)
        let imu = try LSM9DS1AccelGyro(bus: bus, address: 0x6B)
        // 0.75 g / 0.061 mg = 12295 counts = 0x3007: little-endian 07 30.
        _ = try bus.readRegister(address: 0x6B, register: 0x17)
        #expect(try bus.readRegisters(address: 0x6B, start: 0x2C, count: 2) == [0x07, 0x30])
        emulator.forcedRotationRate = Vector3(0, 0, 700)
        clock.advance(by: 0.01)
        #expect(throws: SensorError.gyroscopeSaturated(.lsm9ds1)) { _ = try imu.readMotionIfReady() }
        emulator.forcedRotationRate = nil
        emulator.forcedAcceleration = Vector3(0, 0, 2.5)
        clock.advance(by: 0.01)
        #expect(throws: SensorError.accelerometerSaturated(.lsm9ds1)) { _ = try imu.readMotionIfReady() }
    }

    @Test func withoutAutoIncrementTheChipRepeatsOneRegister() throws {
        let bus = DriverTestKit.bus(LSM9DS1AccelGyroEmulator(physics: physics, noise: 0, gyroNoise: 0), at: 0x6A)
        _ = try LSM9DS1AccelGyro(bus: bus)
        try bus.writeRegister(address: 0x6A, register: 0x22, value: 0x40)   // IF_ADD_INC off
        _ = try bus.readRegister(address: 0x6A, register: 0x17)
        #expect(Set(try bus.readRegisters(address: 0x6A, start: 0x28, count: 6)).count == 1)
    }

    @Test func magnetometerTraceSensitivityAndAxes() throws {
        let field = Vector3(21.5, -8.25, 43.75)   // in the accelerometer/gyro's axes
        let emulator = LIS3MDLEmulator(physics: DriverTestKit.physics(clock, field: field), noise: 0, model: .lsm9ds1)
        let bus = DriverTestKit.bus(emulator, at: 0x1C)
        let chip = try DriverFactory.open(.lsm9ds1, bus: bus)
        #expect(chip.info.chip == .lsm9ds1)
        #expect(bus.trace.first == .read(address: 0x1C, start: 0x0F, count: 1))
        #expect(DriverTestKit.writes(bus.trace).count == 6, "the LIS3MDL's configuration")
        let read = try #require(try DriverTestKit.poll(chip, clock: clock))
        #expect(DriverTestKit.close(read, field, 0.014))
        // On the die: (x, −y, −z) at 0.14 mG per count: Y = +8.25 µT = 589 counts = 0x024D.
        clock.advance(by: 0.02)
        _ = try bus.readRegister(address: 0x1C, register: 0x27)
        #expect(try bus.readRegisters(address: 0x1C, start: 0xAA, count: 2) == [0x4D, 0x02])
        #expect(LIS3MDL.decode([0x4D, 0x02, 0x4D, 0x02, 0x4D, 0x02], range: .gauss4, model: .lsm9ds1)
            .map { DriverTestKit.close($0, Vector3(8.246, -8.246, -8.246), 0.001) } == true)
    }

    @Test func detectionTellsItFromALIS3MDLByTheAccelerometerBeside() throws {
        let bus = EmulatedI2CBus(busNumber: 1)
        MagnetometerEmulators.attach(.lsm9ds1, to: bus, physics: physics)
        let clock = self.clock
        let rows = Detector(sleep: { clock.advance(by: $0) }).scan(bus)
        #expect(rows.map(\.address) == [0x1C, 0x6A])
        #expect(rows.map(\.chip) == [.magnetometer(.lsm9ds1), .accelerometer(.lsm9ds1)])
        #expect(rows[0].evidence.contains("with the LSM9DS1 accelerometer/gyro at 0x6a"))
        #expect(!bus.trace.contains { if case .write = $0 { return true } else { return false } }, "detection wrote")
        let report = ScanReport(buses: [1], devices: rows)
        #expect(report.probableBoards == ["Sense HAT or BerryIMU v2 (LSM9DS1 at 0x1c and 0x6a)"])

        let alone = EmulatedI2CBus(busNumber: 1)
        alone.attach(LIS3MDLEmulator(physics: physics, model: .lsm9ds1), at: 0x1C)
        #expect(Detector().scan(alone).map(\.chip) == [.magnetometer(.lis3mdl)], "alone it cannot be told apart")
    }

    @Test func theSenseHATMountingIsTheChipTurnedHalfWay() throws {
        let mounting = try MountingOrientation.named("sense-hat")
        #expect(mounting.name == "x-back-z-up")
        #expect(mounting.toBody(Vector3(1, 2, 3)) == Vector3(-1, 2, -3))
    }

    @Test func throughTheReaderInTheSimulatorRig() throws {
        let setup = SimulationSetup(scenario: .spin(degreesPerSecond: -20), chip: .lsm9ds1, accelerometer: .lsm9ds1,
                                    gyroNoise: 0)
        let clock = self.clock
        let rig = SimulatedRig(setup: setup, now: { clock.now() })
        let reader = MagnetometerReader(
            magnetometer: try DriverFactory.open(.lsm9ds1, bus: rig.bus, address: rig.address),
            accelerometer: try AccelerometerFactory.open(.lsm9ds1, bus: rig.bus, address: try #require(rig.accelerometerAddress)),
            clock: ReaderClock(monotonic: { clock.now() }, wall: { clock.now() }, sleep: { clock.advance(by: $0) }))
        var checked = 0
        for _ in 0..<40 {
            guard let sample = reader.next(timeout: 0.1), let g = sample.acceleration, let w = sample.rotationRate else { continue }
            checked += 1
            #expect(g.isApproximatelyEqual(to: Vector3(0, 0, -1), absoluteTolerance: 0.01))
            #expect(w.isApproximatelyEqual(to: Vector3(0, 0, -20), absoluteTolerance: 0.05))
            let expected = rig.attitude(at: sample.monotonic).bodyToNED.transposed * setup.world.field
            #expect(sample.field.norm > 0.5 * expected.norm)
        }
        #expect(checked >= 30)
    }
}

@Suite("Sense HAT or BerryIMU v2: the companion chips decide")
struct LSM9DS1BoardTests {
    @Test("HTS221 → Sense HAT, BMP280 → BerryIMU v2, neither → either", arguments: [
        ([(I2CAddress(0x5F), [UInt8(0x0F): UInt8(0xBC)])], "Sense HAT (LSM9DS1 at 0x1c and 0x6a, with its HTS221/LPS25H)"),
        ([(0x5C, [0x0F: 0xBD])], "Sense HAT (LSM9DS1 at 0x1c and 0x6a, with its HTS221/LPS25H)"),
        ([(0x77, [0xD0: 0x58])], "BerryIMU v2 (LSM9DS1 at 0x1c and 0x6a, with its BMP280)"),
        ([], "Sense HAT or BerryIMU v2 (LSM9DS1 at 0x1c and 0x6a)"),
    ] as [([(I2CAddress, [UInt8: UInt8])], String)])
    func companions(devices: [(I2CAddress, [UInt8: UInt8])], board: String) throws {
        let clock = ManualClock(1)
        let bus = EmulatedI2CBus(busNumber: 1)
        MagnetometerEmulators.attach(.lsm9ds1, to: bus, physics: DriverTestKit.physics(clock))
        for (address, registers) in devices { bus.attach(FixedRegisterDevice(registers), at: address) }
        let rows = Detector(sleep: { clock.advance(by: $0) }).scan(bus)
        #expect(ScanReport(buses: [1], devices: rows).probableBoards == [board])
        #expect(!bus.trace.contains { if case .write = $0 { return true } else { return false } }, "detection wrote")
    }
}
