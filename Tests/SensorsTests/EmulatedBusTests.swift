import Platform
import Sensors
import Simulation
import Testing

@Suite("EmulatedI2CBus: devices by address, faults armed and cleared")
struct EmulatedBusTests {
    @Test func attachReplacesTheDeviceAtAnAddressAndDetachRemovesOnlyIt() throws {
        let clock = ManualClock(0)
        let first = QMC5883LEmulator(physics: DriverTestKit.physics(clock))
        let second = QMC5883LEmulator(physics: DriverTestKit.physics(clock), chipID: 0x00)
        let other = MPU6050Emulator(physics: DriverTestKit.physics(clock))
        let bus = EmulatedI2CBus(busNumber: 3)
        bus.attach(first, at: 0x0D)
        bus.attach(other, at: 0x68)
        bus.attach(second, at: 0x0D)
        #expect(bus.device(at: 0x0D) === second)
        #expect(bus.device(at: 0x68) === other)
        #expect(try bus.readRegister(address: 0x0D, register: QMC5883L.Register.chipID) == 0x00, "the replacement answers")
        bus.detach(0x0D)
        #expect(bus.device(at: 0x0D) == nil)
        #expect(bus.device(at: 0x68) === other)
        #expect(throws: I2CError.noAcknowledge(bus: 3, address: 0x0D)) {
            try bus.readRegister(address: 0x0D, register: QMC5883L.Register.chipID)
        }
        #expect(try bus.readRegister(address: 0x68, register: MPU6050.Register.whoAmI) == MPU6050.identity)
    }

    @Test func aVanishedDeviceAnswersAgainOnTheFaultPlansClockAndANakBurstComesFirst() throws {
        let clock = ManualClock(0)
        let bus = DriverTestKit.bus(QMC5883LEmulator(physics: DriverTestKit.physics(clock)), at: 0x0D)
        bus.faults.now = { clock.now() }
        bus.faults.vanish(address: 0x0D, until: 1)
        bus.faults.nakBurst(count: 1)
        let read = { try bus.readRegister(address: 0x0D, register: QMC5883L.Register.revision) }
        #expect(throws: I2CError.noAcknowledge(bus: 1, address: 0x0D)) { try read() }   // the burst
        #expect(throws: I2CError.noAcknowledge(bus: 1, address: 0x0D)) { try read() }   // vanished
        clock.advance(by: 1)
        #expect(try read() == 0x01)
        #expect(try read() == 0x01, "the vanish is over for good")
        #expect(bus.trace.count == 4, "every transaction is traced, failed ones too")
    }
}
