import Platform
import Foundation
import Linear
import Sensors
import Simulation

/// A device with a fixed register file (unwritten registers read `fill`): a stand-in for parts
/// that have no emulator, or for "something else" on the bus.
final class FixedRegisterDevice: RegisterDevice {
    var registers: [UInt8: UInt8]
    let fill: UInt8
    private(set) var writes: [(UInt8, UInt8)] = []
    /// Called on each write, to model side effects (a power-on that changes the chip id).
    var onWrite: ((FixedRegisterDevice, UInt8, UInt8) -> Void)?

    init(_ registers: [UInt8: UInt8], fill: UInt8 = 0x00) {
        self.registers = registers
        self.fill = fill
    }

    func write(register: UInt8, value: UInt8) {
        writes.append((register, value))
        registers[register] = value
        onWrite?(self, register, value)
    }

    func read(start: UInt8, count: Int) -> [UInt8] {
        (0..<count).map { registers[start &+ UInt8($0)] ?? fill }
    }
}

/// An I²C bus that spends `transactionTime` of a manual clock on every transfer (a 6-byte read is
/// about 0.3 ms at 400 kHz), so timing tests see reads that take time.
final class TimedBus: I2CBus {
    let inner: EmulatedI2CBus
    let clock: ManualClock
    let transactionTime: Double
    var busNumber: Int { inner.busNumber }

    init(_ inner: EmulatedI2CBus, clock: ManualClock, transactionTime: Double) {
        self.inner = inner
        self.clock = clock
        self.transactionTime = transactionTime
    }

    func writeRegister(address: I2CAddress, register: UInt8, value: UInt8) throws(I2CError) {
        clock.advance(by: transactionTime)
        try inner.writeRegister(address: address, register: register, value: value)
    }

    func readRegisters(address: I2CAddress, start: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        clock.advance(by: transactionTime)
        return try inner.readRegisters(address: address, start: start, count: count)
    }
}

/// A bus on which one address always fails with a given error (EBUSY, a timeout…).
final class FailingAddressBus: I2CBus {
    let inner: EmulatedI2CBus
    let address: I2CAddress
    let error: I2CError
    var busNumber: Int { inner.busNumber }

    init(_ inner: EmulatedI2CBus, failing address: I2CAddress, with error: I2CError) {
        self.inner = inner
        self.address = address
        self.error = error
    }

    func writeRegister(address: I2CAddress, register: UInt8, value: UInt8) throws(I2CError) {
        if address == self.address { throw error }
        try inner.writeRegister(address: address, register: register, value: value)
    }

    func readRegisters(address: I2CAddress, start: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        if address == self.address { throw error }
        return try inner.readRegisters(address: address, start: start, count: count)
    }
}

/// The emulators the sensor tests drive, by chip.
enum TestChips {
    /// Chips whose emulator exposes data-ready honestly in standby (the HMC5883L's RDY stays set,
    /// so a stopped HMC5883L shows up as stuck readings instead).
    static let withDataReady: [ChipKind] = [.qmc5883l, .lis3mdl, .lis2mdl]

    /// A standalone emulator (not the AK09916, which lives behind an ICM-20948 host).
    static func emulator(_ chip: ChipKind, physics: PhysicsSource, noise: Double? = nil,
                         seed: UInt64 = 11) -> (any EmulatedMagnetometer)? {
        switch chip {
        case .qmc5883l: return QMC5883LEmulator(physics: physics, noise: noise ?? 0.2, seed: seed)
        case .hmc5883l: return HMC5883LEmulator(physics: physics, noise: noise, seed: seed)
        case .lis3mdl: return LIS3MDLEmulator(physics: physics, noise: noise, seed: seed)
        case .lsm9ds1: return LIS3MDLEmulator(physics: physics, noise: noise, seed: seed, model: .lsm9ds1)
        case .lis2mdl: return LIS2MDLEmulator(physics: physics, noise: noise, seed: seed)
        case .mmc5983ma: return MMC5983MAEmulator(physics: physics, noise: noise, seed: seed)
        case .bmm150: return BMM150Emulator(physics: physics, noise: noise, seed: seed)
        case .ak09916, .ak8963: return nil
        case .bno055: return BNO055Emulator(physics: physics, noise: noise, seed: seed)
        case .cmps14: return CMPS14Emulator(physics: physics, noise: noise, seed: seed)
        }
    }

    /// Puts the chip in standby behind the driver's back, as a brown-out would: no data from now on.
    static func standby(_ chip: ChipKind, _ device: any RegisterDevice) {
        switch chip {
        case .qmc5883l: device.write(register: QMC5883L.Register.control1, value: 0x00)
        case .hmc5883l: device.write(register: HMC5883L.Register.mode, value: 0x03)
        case .lis3mdl, .lsm9ds1: device.write(register: LIS3MDL.Register.control3, value: 0x03)
        case .lis2mdl: device.write(register: LIS2MDL.Register.configA, value: 0x03)
        default: break
        }
    }
}

/// A slowly turning field (µT, chip axes) so that successive readings differ even without noise.
func turningField(_ t: Double) -> Vector3 {
    Vector3(20 * cos(0.5 * t) + 5, 20 * sin(0.5 * t) - 3, -42)
}
