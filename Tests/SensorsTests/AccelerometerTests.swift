import Platform
import Foundation
import Linear
import Sensors
import Simulation
import Testing

@Suite("Accelerometers: drivers against their emulators, g in chip axes, body axes after orientation")
struct AccelerometerTests {
    /// An emulated bus with the accelerometer attached as the simulator attaches it, fed from `setup`.
    func bench(_ kind: AccelerometerKind, setup: SimulationSetup, clock: ManualClock,
               noise: Double = 0) -> (EmulatedI2CBus, I2CAddress) {
        let bus = EmulatedI2CBus(busNumber: 1)
        let physics = PhysicsSource(now: { clock.now() },
                                    magneticField: { t in setup.chipField(atScenarioTime: t) },
                                    acceleration: { t in setup.chipAcceleration(atScenarioTime: t) })
        let address = AccelerometerEmulators.attach(kind, to: bus, physics: physics, noise: noise)
        return (bus, address)
    }

    @Test("a still, level board reads (0, 0, −1) g in body axes", arguments: AccelerometerKind.allCases)
    func level(kind: AccelerometerKind) throws {
        let clock = ManualClock(10)
        let setup = SimulationSetup(scenario: .fixed(Attitude(roll: 0, pitch: 0, yaw: 40)))
        let (bus, address) = bench(kind, setup: setup, clock: clock)
        #expect(address == kind.defaultAddress)
        let accel = try AccelerometerFactory.open(kind, bus: bus, address: address)
        #expect(accel.info.kind == kind)
        let chip = try #require(try accel.readIfReady())
        #expect(chip.isApproximatelyEqual(to: Vector3(0, 0, 1), absoluteTolerance: 0.002), "chip axes: \(chip)")
        let body = setup.orientation.toBody(chip)
        #expect(body.isApproximatelyEqual(to: Vector3(0, 0, -1), absoluteTolerance: 0.002))
    }

    @Test("tilted boards in several mountings: orientation brings the reading back to body axes",
          arguments: AccelerometerKind.allCases)
    func tilted(kind: AccelerometerKind) throws {
        let attitude = Attitude(roll: 25, pitch: -40, yaw: 100)
        let expected = attitude.bodyToNED.transposed * Vector3(0, 0, -1)
        for name in ["x-forward-z-up", "x-right-z-down", "x-up-z-back", "roll180-yaw90"] {
            let clock = ManualClock(3)
            let mounting = try MountingOrientation.named(name)
            let setup = SimulationSetup(scenario: .fixed(attitude), orientation: mounting)
            let (bus, address) = bench(kind, setup: setup, clock: clock)
            let accel = try AccelerometerFactory.open(kind, bus: bus, address: address)
            let chip = try #require(try accel.readIfReady())
            let body = mounting.toBody(chip)
            #expect(body.isApproximatelyEqual(to: expected, absoluteTolerance: 0.003), "\(kind) \(name): \(body) vs \(expected)")
        }
    }

    /// The BNO055 has no data-ready flag for its raw data: every read is a fresh reading.
    @Test("data-ready: one sample per output period", arguments: AccelerometerKind.allCases.filter { $0 != .bno055 })
    func dataReady(kind: AccelerometerKind) throws {
        let clock = ManualClock(0)
        let (bus, address) = bench(kind, setup: SimulationSetup(scenario: .fixed(Attitude(roll: 0, pitch: 0, yaw: 0))), clock: clock)
        let accel = try AccelerometerFactory.open(kind, bus: bus, address: address)
        #expect(try accel.readIfReady() != nil)
        #expect(try accel.readIfReady() == nil, "no new sample without time passing")
        clock.advance(by: 1 / accel.info.outputRate + 1e-6)
        #expect(try accel.readIfReady() != nil)
        #expect(accel.info.outputRate > 90 && accel.info.outputRate < 125)
    }

    @Test("a shock beyond the range is dropped as saturated, never clipped")
    func saturation() throws {
        let clock = ManualClock(0)
        let physics = PhysicsSource(now: { clock.now() }, magneticField: { _ in .zero },
                                    acceleration: { _ in Vector3(0.1, -0.2, 4.5) })
        let bus = EmulatedI2CBus(busNumber: 1)
        bus.attach(MPU6050Emulator(physics: physics, noise: 0), at: 0x68)
        bus.attach(LSM303AGRAccelerometerEmulator(physics: physics, noise: 0), at: 0x19)
        let mpu = try MPU6050(bus: bus)
        #expect(throws: SensorError.accelerometerSaturated(.mpu6050)) { _ = try mpu.readIfReady() }
        let lsm = try LSM303AGRAccelerometer(bus: bus)
        #expect(throws: SensorError.accelerometerSaturated(.lsm303agr)) { _ = try lsm.readIfReady() }
        // The ±8 g range measures it.
        let wide = try MPU6050(bus: bus, range: .g8)
        clock.advance(by: 0.02)
        let g = try #require(try wide.readIfReady())
        #expect(g.isApproximatelyEqual(to: Vector3(0.1, -0.2, 4.5), absoluteTolerance: 0.002))
    }

    @Test("each range scales the same physical reading", arguments: MPU6050.Range.allCases)
    func ranges(range: MPU6050.Range) throws {
        let clock = ManualClock(0)
        let physics = PhysicsSource(now: { clock.now() }, magneticField: { _ in .zero },
                                    acceleration: { _ in Vector3(0.31, -0.52, 0.79) })
        let bus = EmulatedI2CBus(busNumber: 1)
        bus.attach(MPU6050Emulator(physics: physics, noise: 0), at: 0x69)
        let accel = try MPU6050(bus: bus, address: 0x69, range: range)
        let g = try #require(try accel.readIfReady())
        #expect(g.isApproximatelyEqual(to: Vector3(0.31, -0.52, 0.79), absoluteTolerance: 1 / range.countsPerG))
        #expect(accel.info.fullScale == [2, 4, 8, 16][Int(range.rawValue)])
    }

    @Test("the wrong chip is refused with the evidence")
    func identity() throws {
        let physics = PhysicsSource(now: { 0 }, magneticField: { _ in .zero })
        let bus = EmulatedI2CBus(busNumber: 1)
        bus.attach(LSM303AGRAccelerometerEmulator(physics: physics), at: 0x68)
        bus.attach(MPU6050Emulator(physics: physics), at: 0x19)
        #expect(throws: SensorError.wrongAccelerometer(expected: .mpu6050, bus: 1, address: 0x68,
                                                       evidence: "register 0x75 reads 0x00; expected 0x68")) {
            _ = try MPU6050(bus: bus)
        }
        do {
            _ = try LSM303AGRAccelerometer(bus: bus)
            Issue.record("accepted an MPU-6050 as an LSM303AGR")
        } catch {
            #expect(error.message.contains("not a LSM303AGR accelerometer") || error.message.contains("LSM303AGR"))
            #expect(error.exitCode == .unavailable)
        }
        #expect(throws: SensorError.self) { _ = try ICM20948Accelerometer(bus: bus, address: 0x68) }
    }

    @Test("LSM303AGR emulator: without bit 7 of the register address the pointer does not advance")
    func lsmAutoIncrement() throws {
        let clock = ManualClock(0)
        let physics = PhysicsSource(now: { clock.now() }, magneticField: { _ in .zero },
                                    acceleration: { _ in Vector3(0.5, 0.25, 0.75) })
        let bus = EmulatedI2CBus(busNumber: 1)
        bus.attach(LSM303AGRAccelerometerEmulator(physics: physics, noise: 0), at: 0x19)
        let accel = try LSM303AGRAccelerometer(bus: bus)
        _ = try bus.readRegister(address: 0x19, register: 0x27)   // latch a sample
        let repeated = try bus.readRegisters(address: 0x19, start: 0x28, count: 4)
        #expect(Set(repeated).count == 1)
        let g = try #require(try accel.readIfReady())
        #expect(g.isApproximatelyEqual(to: Vector3(0.5, 0.25, 0.75), absoluteTolerance: 0.002))
    }

    @Test("ICM-20948: the accelerometer and the AK09916 share the chip without breaking the bypass")
    func icmSharing() throws {
        let clock = ManualClock(0)
        let setup = SimulationSetup(scenario: .fixed(Attitude(roll: 10, pitch: 5, yaw: 0)), chip: .ak09916,
                                    accelerometer: .icm20948)
        let rig = SimulatedRig(setup: setup, now: { clock.now() })
        #expect(rig.accelerometerAddress == 0x69)
        let accel = try AccelerometerFactory.open(.icm20948, bus: rig.bus, address: 0x69)
        let magnetometer = try DriverFactory.open(.ak09916, bus: rig.bus, address: rig.address, now: { clock.now() })
        try accel.configure()   // after the magnetometer set the bypass up
        clock.advance(by: 0.02)
        #expect(try magnetometer.readIfReady() != nil, "the AK09916 still answers")
        let g = try #require(try accel.readIfReady())
        let expected = setup.chipAcceleration(atScenarioTime: 0.02)
        #expect(g.isApproximatelyEqual(to: expected, absoluteTolerance: 0.01))
        #expect(accel.info.outputRate.isApproximatelyEqual(to: 1125.0 / 11, absoluteTolerance: 1e-9))
    }

    @Test("the reader pairs the newest accelerometer reading (body axes) with each sample",
          arguments: [AccelerometerKind.mpu6050, .lsm303agr])
    func readerPairing(kind: AccelerometerKind) throws {
        let clock = ManualClock(100)
        let attitude = Attitude(roll: -15, pitch: 30, yaw: 200)
        let mounting = try MountingOrientation.named("yaw270")
        let setup = SimulationSetup(scenario: .fixed(attitude), orientation: mounting, chip: .qmc5883l, accelerometer: kind)
        let rig = SimulatedRig(setup: setup, now: { clock.now() })
        let address = try #require(rig.accelerometerAddress)
        let magnetometer = try DriverFactory.open(.qmc5883l, bus: rig.bus, address: rig.address)
        let accel = try AccelerometerFactory.open(kind, bus: rig.bus, address: address)
        let reader = MagnetometerReader(
            magnetometer: magnetometer, orientation: mounting, accelerometer: accel,
            clock: ReaderClock(monotonic: { clock.now() }, wall: { clock.now() }, sleep: { clock.advance(by: $0) }))
        let expected = attitude.bodyToNED.transposed * Vector3(0, 0, -1)
        var paired = 0
        for _ in 0..<100 {
            guard let sample = reader.next(timeout: 0.1) else { continue }
            guard let a = sample.acceleration else { continue }
            paired += 1
            #expect(a.isApproximatelyEqual(to: expected, absoluteTolerance: 0.02), "\(a) vs \(expected)")
        }
        #expect(paired >= 95, "every sample after the first carries the acceleration (\(paired))")
        #expect(reader.counters.accelerometerErrors == 0)
    }
}
