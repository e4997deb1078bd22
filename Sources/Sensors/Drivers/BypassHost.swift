/// An InvenSense IMU whose own I²C master hides a magnetometer on its auxiliary bus (the ICM-20948's
/// AK09916, the MPU-9250's AK8963). With the IMU awake, its master off and INT_PIN_CFG.BYPASS_EN set,
/// the magnetometer answers on the Pi's bus itself. Each part names its registers here once.
///
/// ```swift
/// try BypassHost.mpu9250.enable(on: bus, at: 0x68)   // then the AK8963 answers at 0x0c
/// ```
public struct BypassHost: Sendable {
    public var whoAmI: UInt8
    public var identities: [UInt8]
    public var userControl: UInt8
    public var powerManagement1: UInt8
    public var interruptPinConfig: UInt8
    /// USER_CTRL.I2C_MST_EN.
    public static let masterEnable: UInt8 = 0x20
    /// INT_PIN_CFG.BYPASS_EN.
    public static let bypassEnable: UInt8 = 0x02
    /// PWR_MGMT_1: awake, clock auto-selected.
    public static let wake: UInt8 = 0x01

    /// The ICM-20948's bank-0 registers (WHO_AM_I 0xEA).
    public static let icm20948 = BypassHost(whoAmI: 0x00, identities: [0xEA], userControl: 0x03, powerManagement1: 0x06,
                                            interruptPinConfig: 0x0F)
    /// The MPU-9250's (WHO_AM_I 0x71) and MPU-9255's (0x73) registers.
    public static let mpu9250 = BypassHost(whoAmI: 0x75, identities: [0x71, 0x73], userControl: 0x6A,
                                           powerManagement1: 0x6B, interruptPinConfig: 0x37)

    /// Wakes the IMU, turns its I²C master off and sets BYPASS_EN, keeping the registers' other bits.
    public func enable(on bus: any I2CBus, at host: I2CAddress) throws(SensorError) {
        do {
            try bus.writeRegister(address: host, register: powerManagement1, value: Self.wake)
            let user = try bus.readRegister(address: host, register: userControl)
            try bus.writeRegister(address: host, register: userControl, value: user & ~Self.masterEnable)
            let pin = try bus.readRegister(address: host, register: interruptPinConfig)
            try bus.writeRegister(address: host, register: interruptPinConfig, value: pin | Self.bypassEnable)
        } catch { throw .bus(error) }
    }

    /// Whether the device at `address` reads one of this host's identities (a NAK is "no").
    func answers(on bus: any I2CBus, at address: I2CAddress) throws(SensorError) -> Bool {
        do {
            return identities.contains(try bus.readRegister(address: address, register: whoAmI))
        } catch {
            if case .noAcknowledge = error { return false }
            throw .bus(error)
        }
    }
}
