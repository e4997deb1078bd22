import Sensors

/// Builds and attaches the register-level emulator for any magnetometer chip.
///
/// ```swift
/// let (emulator, address) = MagnetometerEmulators.attach(.lis3mdl, to: bus, physics: physics)
/// let chip = try DriverFactory.open(.lis3mdl, bus: bus, address: address)
/// ```
public enum MagnetometerEmulators {
    /// Creates the emulator for `chip` (noise nil: the chip's datasheet figure) and attaches it at the
    /// chip's default address; the AK09916 goes behind an ICM-20948 at 0x69, which attaches it at 0x0C
    /// once the driver enables the bypass, the AK8963 behind an MPU-9250 at 0x68 the same way; the LSM9DS1's magnetometer comes with its accelerometer/gyro
    /// at 0x6A. Returns the emulator and the address the driver opens.
    @discardableResult
    public static func attach(_ chip: ChipKind, to bus: EmulatedI2CBus, physics: PhysicsSource,
                              noise: Double? = nil, seed: UInt64 = 1) -> (any EmulatedMagnetometer, I2CAddress) {
        let address = DriverFactory.defaultAddress(for: chip)
        let emulator: any EmulatedMagnetometer
        switch chip {
        case .qmc5883l: emulator = QMC5883LEmulator(physics: physics, noise: noise ?? 0.2, seed: seed)
        case .hmc5883l: emulator = HMC5883LEmulator(physics: physics, noise: noise, seed: seed)
        case .lis3mdl: emulator = LIS3MDLEmulator(physics: physics, noise: noise, seed: seed)
        case .ak8963:
            let ak = AK8963Emulator(physics: physics, noise: noise, seed: seed)
            AccelerometerEmulators.attach(.mpu9250, to: bus, physics: physics, seed: seed)
            (bus.device(at: AccelerometerKind.mpu9250.defaultAddress) as? MPU6050Emulator)?
                .connect(magnetometer: ak, on: bus, at: address)
            return (ak, address)
        case .bno055: emulator = BNO055Emulator(physics: physics, noise: noise, seed: seed)
        case .cmps14: emulator = CMPS14Emulator(physics: physics, noise: noise, seed: seed)
        case .lsm9ds1:
            // One package: the accelerometer/gyro is always there too (replaced when the rig asks for it).
            emulator = LIS3MDLEmulator(physics: physics, noise: noise, seed: seed, model: .lsm9ds1)
            AccelerometerEmulators.attach(.lsm9ds1, to: bus, physics: physics, seed: seed)
        case .lis2mdl: emulator = LIS2MDLEmulator(physics: physics, noise: noise, seed: seed)
        case .mmc5983ma: emulator = MMC5983MAEmulator(physics: physics, noise: noise, seed: seed)
        case .bmm150: emulator = BMM150Emulator(physics: physics, noise: noise, seed: seed)
        case .ak09916:
            let ak = AK09916Emulator(physics: physics, noise: noise, seed: seed)
            bus.attach(ICM20948Emulator(bus: bus, magnetometer: ak, magnetometerAddress: address),
                       at: ICM20948Emulator.defaultAddress)
            return (ak, address)
        }
        bus.attach(emulator, at: address)
        return (emulator, address)
    }
}
