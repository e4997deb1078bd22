import Sensors

/// The ICM-20948 as the AK09916's host: enough of bank 0 to gate the I²C bypass, which connects the
/// chip's auxiliary bus (where the AK09916 sits) to the Pi's bus.
///
/// Implements WHO_AM_I (0xEA), register banks (REG_BANK_SEL), power-on sleep and DEVICE_RESET,
/// USER_CTRL.I2C_MST_EN and INT_PIN_CFG.BYPASS_EN. The magnetometer is attached to the bus at 0x0C
/// exactly while the chip is awake, its I²C master is off and BYPASS_EN is set; otherwise nothing
/// answers there. Register writes other than PWR_MGMT_1 and REG_BANK_SEL are ignored while asleep.
/// An optional `core` emulator (e.g. the accelerometer's) receives every write and answers the
/// registers this one does not own.
///
/// ```swift
/// let ak = AK09916Emulator(physics: physics)
/// bus.attach(ICM20948Emulator(bus: bus, magnetometer: ak), at: 0x69)
/// let chip = try AK09916(bus: bus)   // enables the bypass, then finds the AK09916 at 0x0c
/// ```
public final class ICM20948Emulator: RegisterDevice {
    typealias Host = AK09916.Host
    /// The address SparkFun-style boards strap the ICM-20948 to (AD0 high); 0x68 is the other option.
    public static let defaultAddress: I2CAddress = 0x69
    private weak var bus: EmulatedI2CBus?
    public let magnetometer: AK09916Emulator
    public let magnetometerAddress: I2CAddress
    private let core: (any RegisterDevice)?
    /// Bank 0 registers (the only bank modelled beyond REG_BANK_SEL).
    public private(set) var registers = [UInt8](repeating: 0, count: 0x80)
    private var bank: UInt8 = 0

    public init(bus: EmulatedI2CBus, magnetometer: AK09916Emulator,
                magnetometerAddress: I2CAddress = AK09916.defaultAddress, core: (any RegisterDevice)? = nil) {
        self.bus = bus
        self.magnetometer = magnetometer
        self.magnetometerAddress = magnetometerAddress
        self.core = core
        reset()
    }

    private func reset() {
        registers = [UInt8](repeating: 0, count: 0x80)
        registers[Int(Host.whoAmI)] = Host.identity
        registers[Int(Host.powerManagement1)] = 0x41   // asleep, auto clock
        bank = 0
        updateBypass()
    }

    private var asleep: Bool { registers[Int(Host.powerManagement1)] & 0x40 != 0 }

    /// Whether the AK09916 is currently reachable from the main bus.
    public var bypassActive: Bool {
        !asleep && registers[Int(Host.userControl)] & Host.masterEnable == 0
            && registers[Int(Host.interruptPinConfig)] & Host.bypassEnable != 0
    }

    private func updateBypass() {
        guard let bus else { return }
        if bypassActive {
            if bus.device(at: magnetometerAddress) == nil { bus.attach(magnetometer, at: magnetometerAddress) }
        } else if bus.device(at: magnetometerAddress) === magnetometer {
            bus.detach(magnetometerAddress)
        }
    }

    private static let owned: Set<UInt8> = [Host.whoAmI, Host.userControl, Host.powerManagement1,
                                             Host.interruptPinConfig, Host.bankSelect]

    public func write(register: UInt8, value: UInt8) {
        core?.write(register: register, value: value)
        if register == Host.bankSelect {
            bank = (value >> 4) & 0b11
            registers[Int(Host.bankSelect)] = value & 0x30
            return
        }
        guard bank == 0, Self.owned.contains(register), register != Host.whoAmI else { return }
        if register == Host.powerManagement1 {
            if value & 0x80 != 0 { reset(); return }   // DEVICE_RESET
        } else if asleep {
            return
        }
        registers[Int(register)] = value
        updateBypass()
    }

    public func read(start: UInt8, count: Int) -> [UInt8] {
        if core == nil || (bank == 0 && Self.owned.contains(start) && count == 1) {
            return (0..<count).map { i in
                let register = Int(start) + i
                guard register < registers.count else { return 0 }
                if register == Int(Host.bankSelect) { return registers[register] }
                return bank == 0 ? registers[register] : 0
            }
        }
        return core?.read(start: start, count: count) ?? []
    }
}
