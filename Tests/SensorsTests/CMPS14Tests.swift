import Platform
import Linear
import Sensors
import Simulation
import Testing
import Foundation

@Suite("CMPS14: detection by plausibility, raw magnetometer, the module's own bearing")
struct CMPS14Tests {
    let clock = ManualClock(6)

    func physics(attitude: Attitude) -> PhysicsSource {
        let clock = self.clock
        let setup = SimulationSetup(scenario: .fixed(attitude), model: .ideal)
        return PhysicsSource(now: { clock.now() }, magneticField: { t in setup.chipField(atScenarioTime: t) },
                             acceleration: { t in setup.chipAcceleration(atScenarioTime: t) })
    }

    @Test func probeTraceAndRawField() throws {
        let attitude = Attitude(roll: 0, pitch: 0, yaw: 30)
        let emulator = CMPS14Emulator(physics: physics(attitude: attitude), noise: 0)
        let bus = DriverTestKit.bus(emulator, at: 0x60)
        let clock = self.clock
        let chip = try CMPS14(bus: bus, now: { clock.now() })
        #expect(bus.trace == [.read(address: 0x60, start: 0x00, count: 6)])
        #expect(chip.version == 5)
        bus.clearTrace()
        let field = try #require(try chip.readIfReady())
        #expect(bus.trace == [.read(address: 0x60, start: 0x06, count: 6)])
        let expected = SimulationSetup(scenario: .fixed(attitude), model: .ideal).chipField(atScenarioTime: 0)
        #expect(DriverTestKit.close(field, expected, 1.0 / 16))
        #expect(try chip.readIfReady() == nil, "paced at 20 Hz")
        emulator.forcedField = Vector3(0, 0, 2100)   // beyond the 16-bit output at 16 counts per µT
        clock.advance(by: 0.05)
        #expect(throws: SensorError.overflow(.cmps14)) { _ = try chip.readIfReady() }
    }

    @Test("the module's bearing is the magnetic heading of its X axis, tilted or not",
          arguments: [Attitude(roll: 0, pitch: 0, yaw: 30), Attitude(roll: 20, pitch: -15, yaw: 250)])
    func bearing(attitude: Attitude) throws {
        let clock = self.clock
        let setup = SimulationSetup(scenario: .fixed(attitude), model: .ideal)
        let bus = DriverTestKit.bus(CMPS14Emulator(physics: physics(attitude: attitude), noise: 0), at: 0x60)
        let chip = try CMPS14(bus: bus, now: { clock.now() })
        // Magnetic heading: the true yaw minus the world's declination.
        let field = setup.world.field
        let declination = atan2(field.y, field.x) * 180 / .pi
        var expected = (attitude.yaw - declination).truncatingRemainder(dividingBy: 360)
        if expected < 0 { expected += 360 }
        let bearing = try chip.bearing()
        #expect(abs(bearing - expected) < 1.5, "\(bearing) vs \(expected); field \(setup.chipField(atScenarioTime: 0)) accel \(setup.chipAcceleration(atScenarioTime: 0))")
    }

    @Test func detectionByPlausibilityAndTheCalibrationByte() throws {
        let emulator = CMPS14Emulator(physics: physics(attitude: Attitude(roll: 0, pitch: 0, yaw: 100)))
        emulator.calibration = 0b11_11_10_01
        let bus = DriverTestKit.bus(emulator, at: 0x60)
        let rows = Detector().scan(bus)
        #expect(rows.map(\.chip) == [.magnetometer(.cmps14)])
        #expect(rows[0].confidence == .high)
        #expect(rows[0].evidence.contains("reg 0x00 = 0x05 (CMPS14 software version)"))
        #expect(rows[0].evidence.contains("(the 8-bit bearing at 0x01 agrees); calibration sys 3, gyro 3, accel 2, mag 1"))
        #expect(!bus.trace.contains { if case .write = $0 { return true } else { return false } }, "detection wrote")
        // Something else at 0x60 (a DAC reading 0x00 everywhere) is not a CMPS14.
        let other = DriverTestKit.bus(FixedRegisterDevice([:]), at: 0x60)
        #expect(Detector().scan(other).first?.chip == .unknown)
        let clock = self.clock
        #expect(throws: SensorError.wrongChip(expected: .cmps14, bus: 1, address: 0x60,
                                              evidence: "register 0x00 (software version) reads 0x00")) {
            _ = try CMPS14(bus: other, now: { clock.now() })
        }
    }
}
