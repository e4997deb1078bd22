import Platform
import Linear
import Sensors
import Simulation
import Testing

@Suite("Gyroscopes: ±500 °/s beside the accelerometer, one transfer, body axes in the reader")
struct GyroscopeTests {
    /// A rig with `chip` and `kind` on a manual clock, gyro noise off unless given.
    func rig(_ setup: SimulationSetup, clock: ManualClock) -> SimulatedRig {
        SimulatedRig(setup: setup, now: { clock.now() })
    }

    func reader(_ rig: SimulatedRig, clock: ManualClock) throws -> MagnetometerReader {
        let kind = try #require(rig.setup.accelerometer)
        let address = try #require(rig.accelerometerAddress)
        let magnetometer = try DriverFactory.open(rig.setup.chip, bus: rig.bus, address: rig.address, now: { clock.now() })
        let imu = try AccelerometerFactory.open(kind, bus: rig.bus, address: address)
        return MagnetometerReader(
            magnetometer: magnetometer, orientation: rig.setup.orientation, accelerometer: imu,
            clock: ReaderClock(monotonic: { clock.now() }, wall: { clock.now() }, sleep: { clock.advance(by: $0) }))
    }

    @Test func mpu6050ConfigurationAndMotionReadTraces() throws {
        let clock = ManualClock(1)
        let bus = EmulatedI2CBus(busNumber: 1)
        bus.attach(MPU6050Emulator(physics: DriverTestKit.physics(clock), noise: 0, gyroNoise: 0), at: 0x68)
        let imu = try MPU6050(bus: bus)
        #expect(bus.trace == [
            .read(address: 0x68, start: 0x75, count: 1),
            .write(address: 0x68, register: 0x6B, value: 0x01),   // awake, X-gyro PLL clock
            .write(address: 0x68, register: 0x6C, value: 0x00),   // every axis on
            .write(address: 0x68, register: 0x1A, value: 0x03),   // DLPF: 44 Hz accelerometer, 42 Hz gyro
            .write(address: 0x68, register: 0x19, value: 0x09),   // 1 kHz / 10 = 100 Hz
            .write(address: 0x68, register: 0x1B, value: 0x08),   // ±500 °/s
            .write(address: 0x68, register: 0x1C, value: 0x00),   // ±2 g
            .write(address: 0x68, register: 0x38, value: 0x01),   // DATA_RDY_EN
        ])
        #expect(imu.gyroscope == GyroscopeInfo(fullScale: 500, bandwidth: 42, outputRate: 100))
        bus.clearTrace()
        let motion = try #require(try imu.readMotionIfReady())
        #expect(bus.trace == [.read(address: 0x68, start: 0x3A, count: 1), .read(address: 0x68, start: 0x3B, count: 14)])
        #expect(motion.rotationRate == .zero)
        #expect(motion.acceleration.isApproximatelyEqual(to: Vector3(0, 0, 1), absoluteTolerance: 1e-4))
    }

    @Test func icm20948ConfigurationAndMotionReadTraces() throws {
        let clock = ManualClock(1)
        let bus = EmulatedI2CBus(busNumber: 1)
        AccelerometerEmulators.attach(.icm20948, to: bus, physics: DriverTestKit.physics(clock), noise: 0, gyroNoise: 0)
        bus.clearTrace()
        let imu = try ICM20948Accelerometer(bus: bus)
        #expect(bus.trace == [
            .write(address: 0x69, register: 0x7F, value: 0x00),
            .read(address: 0x69, start: 0x00, count: 1),
            .write(address: 0x69, register: 0x7F, value: 0x00),
            .write(address: 0x69, register: 0x06, value: 0x01),
            .write(address: 0x69, register: 0x07, value: 0x00),
            .write(address: 0x69, register: 0x11, value: 0x01),
            .write(address: 0x69, register: 0x7F, value: 0x20),   // bank 2
            .write(address: 0x69, register: 0x00, value: 0x0A),   // GYRO_SMPLRT_DIV: 1100 / 11 = 100 Hz
            .write(address: 0x69, register: 0x01, value: 0x23),   // GYRO_DLPFCFG 4 (23.9 Hz), ±500 °/s, DLPF on
            .write(address: 0x69, register: 0x10, value: 0x00),
            .write(address: 0x69, register: 0x11, value: 0x0A),
            .write(address: 0x69, register: 0x14, value: 0x19),
            .write(address: 0x69, register: 0x7F, value: 0x00),
        ])
        #expect(imu.gyroscope == GyroscopeInfo(fullScale: 500, bandwidth: 23.9, outputRate: 100))
        bus.clearTrace()
        _ = try #require(try imu.readMotionIfReady())
        #expect(bus.trace == [.read(address: 0x69, start: 0x1A, count: 1), .read(address: 0x69, start: 0x2D, count: 12)])
    }

    @Test("an MPU-6050 burst read is of one sampling instant, even when a sample falls due during it")
    func burstReadHoldsOneInstant() throws {
        // A clock that moves 6 ms at every reading: at 100 Hz a new sample falls due during the burst.
        let clock = ManualClock(1)
        let physics = PhysicsSource(now: { clock.advance(by: 0.006); return clock.now() },
                                    magneticField: { _ in .zero },
                                    acceleration: { t in Vector3((t - 1) / 10, 0, 1) },
                                    rotationRate: { t in Vector3(100 * (t - 1), 0, 0) })
        let bus = EmulatedI2CBus(busNumber: 1)
        bus.attach(MPU6050Emulator(physics: physics, noise: 0, gyroNoise: 0), at: 0x68)
        let imu = try MPU6050(bus: bus)
        var times: [Double] = []
        for _ in 0..<6 {
            let motion = try #require(try imu.readMotionIfReady())
            // Both from one instant t: the acceleration's x is (t − 1)/10 g, the rate's x 100 (t − 1) °/s.
            let fromAcceleration = 1 + 10 * motion.acceleration.x, fromRate = 1 + motion.rotationRate!.x / 100
            #expect(abs(fromAcceleration - fromRate) < 0.002, "acceleration at \(fromAcceleration), rate at \(fromRate)")
            times.append(fromRate)
        }
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 }, "each read a newer sample")
    }

    @Test("samples the MPU-6050 overwrites unread are skipped exactly: the next one read is bit for bit the one read when every sample is")
    func overwrittenSamplesAreSkippedExactly() throws {
        let clock = ManualClock(1)
        let physics = PhysicsSource(now: { clock.now() }, magneticField: { _ in .zero },
                                    acceleration: { t in Vector3(0.3 * (t - 1), -0.2, 1) },
                                    rotationRate: { t in Vector3(40 * (t - 1), -15, 3) })
        // `every` reads each sample; `skipping` reads only INT_STATUS (which latches a sample) at
        // three steps of four, so three samples of four are overwritten unread.
        func imu() throws -> MPU6050 {
            let bus = EmulatedI2CBus(busNumber: 1)
            bus.attach(MPU6050Emulator(physics: physics, noise: 0.01, gyroNoise: 0.2, seed: 9), at: 0x68)
            return try MPU6050(bus: bus)
        }
        let every = try imu(), skipping = try imu()
        var compared = 0
        for step in 1...200 {
            clock.advance(by: 0.01)
            let reference = try every.readMotionIfReady()
            if step % 4 == 0 {
                let read = try skipping.readMotionIfReady()
                #expect(read == reference)
                if read != nil { compared += 1 }
            } else {
                _ = try skipping.bus.readRegister(address: 0x68, register: MPU6050.Register.interruptStatus)
            }
        }
        #expect(compared >= 40)
    }

    @Test func decodesHandComputedWords() throws {
        // Accelerometer 0x4000 = 16384 = 1 g at ±2 g; gyro 0x0CCB = 3275 = 50 °/s, 0xF335 = −3275 at ±500 °/s.
        let bytes: [UInt8] = [0x40, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x0B, 0xE0,
                              0x0C, 0xCB, 0xF3, 0x35, 0x00, 0x00]
        let motion = try InvenSenseMotionProbe.decode(bytes)
        #expect(motion.acceleration.isApproximatelyEqual(to: Vector3(1, 0, -1), absoluteTolerance: 1e-12))
        #expect(motion.rotationRate == Vector3(50, -50, 0))
    }

    @Test("a level board turning right at 30 °/s reads +30 °/s about body z (down)",
          arguments: [(AccelerometerKind.mpu6050, ChipKind.qmc5883l), (.icm20948, .ak09916)])
    func spin(kind: AccelerometerKind, chip: ChipKind) throws {
        let clock = ManualClock(10)
        let setup = SimulationSetup(scenario: .spin(degreesPerSecond: 30), chip: chip, accelerometer: kind, gyroNoise: 0)
        let reader = try reader(rig(setup, clock: clock), clock: clock)
        var rated = 0
        for _ in 0..<60 {
            guard let sample = reader.next(timeout: 0.1), let rate = sample.rotationRate else { continue }
            rated += 1
            #expect(rate.isApproximatelyEqual(to: Vector3(0, 0, 30), absoluteTolerance: 0.02), "\(rate)")
        }
        #expect(rated >= 50, "\(rated) samples carried a rate")
    }

    @Test("mountings: a roll of 20 °/s reads (20, 0, 0) in body axes whatever the chip's axes",
          arguments: ["x-forward-z-up", "x-right-z-down", "x-up-z-back", "roll180-yaw90"])
    func mounting(name: String) throws {
        let clock = ManualClock(10)
        let scenario = AttitudeScenario(name: "roll") { t in Attitude(roll: 20 * t - 30, pitch: 0, yaw: 70) }
        let setup = SimulationSetup(scenario: scenario, orientation: try MountingOrientation.named(name),
                                    accelerometer: .mpu6050, gyroNoise: 0)
        let rate = try #require(try reader(rig(setup, clock: clock), clock: clock).next(timeout: 0.5)?.rotationRate)
        #expect(rate.isApproximatelyEqual(to: Vector3(20, 0, 0), absoluteTolerance: 0.02), "\(name): \(rate)")
    }

    @Test func biasAndNoiseFromTheSimulationSetup() throws {
        let clock = ManualClock(10)
        let still = AttitudeScenario.fixed(Attitude(roll: 0, pitch: 0, yaw: 0))
        let setup = SimulationSetup(scenario: still, seed: 7, accelerometer: .mpu6050,
                                    gyroBias: Vector3(0.5, -0.25, 1), gyroNoise: 0.2)
        let reader = try reader(rig(setup, clock: clock), clock: clock)
        var rates: [Vector3] = []
        while rates.count < 200 {
            if let rate = reader.next(timeout: 0.1)?.rotationRate { rates.append(rate) }
        }
        let mean = rates.reduce(Vector3.zero, +) / Double(rates.count)
        // Chip-axis bias (0.5, −0.25, 1) seen through x-forward-z-up: body (0.5, 0.25, −1).
        #expect(mean.isApproximatelyEqual(to: Vector3(0.5, 0.25, -1), absoluteTolerance: 0.05), "\(mean)")
        let spread = DriverTestKit.noise(rates)
        #expect(spread > 0.15 && spread < 0.25, "\(spread)")
    }

    @Test func aSaturatedGyroIsACountedDropNeverASample() throws {
        let clock = ManualClock(1)
        let bus = EmulatedI2CBus(busNumber: 1)
        let emulator = MPU6050Emulator(physics: DriverTestKit.physics(clock), noise: 0, gyroNoise: 0)
        bus.attach(emulator, at: 0x68)
        let imu = try MPU6050(bus: bus)
        emulator.forcedRotationRate = Vector3(0, 0, 600)   // beyond ±500 °/s
        #expect(throws: SensorError.gyroscopeSaturated(.mpu6050)) { _ = try imu.readMotionIfReady() }

        let magnetometer = QMC5883LEmulator(physics: DriverTestKit.physics(clock), noise: 0)
        bus.attach(magnetometer, at: 0x0D)
        let reader = MagnetometerReader(
            magnetometer: try QMC5883L(bus: bus), accelerometer: imu,
            clock: ReaderClock(monotonic: { clock.now() }, wall: { clock.now() }, sleep: { clock.advance(by: $0) }))
        var samples: [MagnetometerSample] = []
        for _ in 0..<20 { if let s = reader.next(timeout: 0.1) { samples.append(s) } }
        #expect(!samples.isEmpty)
        #expect(samples.allSatisfy { $0.rotationRate == nil && $0.acceleration == nil })
        #expect(reader.counters.gyroscopeDropped > 0 && reader.counters.accelerometerErrors == 0)
    }

    @Test("an IMU that stops answering: the rate goes after 0.1 s, the acceleration after 0.5 s")
    func stalenessLimits() throws {
        let clock = ManualClock(10)
        let setup = SimulationSetup(scenario: .spin(degreesPerSecond: 30), accelerometer: .mpu6050, gyroNoise: 0)
        let rig = rig(setup, clock: clock)
        rig.bus.faults.now = { clock.now() }
        let reader = try reader(rig, clock: clock)
        for _ in 0..<10 { _ = reader.next(timeout: 0.1) }
        let vanished = clock.now()
        rig.bus.faults.vanish(address: 0x68, until: vanished + 10)
        var samples: [MagnetometerSample] = []
        while clock.now() < vanished + 1 {
            if let sample = reader.next(timeout: 0.1) { samples.append(sample) }
        }
        let withRate = samples.filter { $0.rotationRate != nil }.map(\.monotonic)
        let withAcceleration = samples.filter { $0.acceleration != nil }.map(\.monotonic)
        #expect((withRate.max() ?? vanished) - vanished <= 0.1 + 1e-9)
        #expect((withAcceleration.max() ?? vanished) - vanished > 0.3)
        #expect((withAcceleration.max() ?? vanished) - vanished <= 0.5 + 1e-9)
        #expect(samples.contains { $0.acceleration == nil && $0.rotationRate == nil }, "never an invented reading")
        #expect(reader.counters.accelerometerErrors > 0)
    }

    @Test func accelerometersWithoutAGyroLeaveTheRateNil() throws {
        let clock = ManualClock(10)
        let setup = SimulationSetup(scenario: .spin(degreesPerSecond: 30), chip: .lis2mdl, accelerometer: .lsm303agr)
        let reader = try reader(rig(setup, clock: clock), clock: clock)
        var samples: [MagnetometerSample] = []
        for _ in 0..<20 { if let s = reader.next(timeout: 0.1) { samples.append(s) } }
        #expect(samples.contains { $0.acceleration != nil })
        #expect(samples.allSatisfy { $0.rotationRate == nil })
    }
}

/// Decodes an MPU-6050 motion block through a bus, the only public way in.
enum InvenSenseMotionProbe {
    final class Block: RegisterDevice {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func write(register: UInt8, value: UInt8) {}
        func read(start: UInt8, count: Int) -> [UInt8] {
            switch start {
            case MPU6050.Register.whoAmI: return [MPU6050.identity]
            case MPU6050.Register.interruptStatus: return [0x01]
            default: return Array(bytes.prefix(count))
            }
        }
    }

    static func decode(_ bytes: [UInt8]) throws -> MotionReading {
        let bus = EmulatedI2CBus(busNumber: 1)
        bus.attach(Block(bytes), at: 0x68)
        return try #require(try MPU6050(bus: bus).readMotionIfReady())
    }
}
