import Sensors

/// Builds and attaches the register-level emulator for an accelerometer.
///
/// ```swift
/// let address = AccelerometerEmulators.attach(.mpu6050, to: bus, physics: physics)
/// let accel = try AccelerometerFactory.open(.mpu6050, bus: bus, address: address)
/// ```
public enum AccelerometerEmulators {
    /// Attaches the emulator at the part's default address and returns that address. The ICM-20948's
    /// accelerometer lives inside the `ICM20948Emulator` host: an existing host on the bus (the
    /// AK09916 rig's) is rebuilt around the same magnetometer with the accelerometer core plugged in;
    /// otherwise a new host is attached with its own AK09916.
    @discardableResult
    /// `noise` in g and `gyroNoise` in °/s (RMS per axis; nil: the chip's datasheet figures).
    public static func attach(_ kind: AccelerometerKind, to bus: EmulatedI2CBus, physics: PhysicsSource,
                              noise: Double? = nil, gyroNoise: Double? = nil, seed: UInt64 = 1) -> I2CAddress {
        let address = kind.defaultAddress
        switch kind {
        case .mpu6050:
            bus.attach(MPU6050Emulator(physics: physics, noise: noise ?? 0.003, gyroNoise: gyroNoise ?? 0.05,
                                       seed: seed &+ 100), at: address)
        case .mpu9250:
            // An MPU-9250 already on the bus (the AK8963 rig's) keeps its magnetometer behind the new one.
            let existing = (bus.device(at: address) as? MPU6050Emulator)?.magnetometer
            let mpu = MPU6050Emulator(physics: physics, noise: noise ?? 0.003, gyroNoise: gyroNoise ?? 0.05,
                                      seed: seed &+ 100, model: .mpu9250)
            bus.attach(mpu, at: address)
            if let existing { mpu.connect(magnetometer: existing.device, on: bus, at: existing.address) }
        case .lsm6dsl, .lsm6dsox:
            bus.attach(LSM6DSLEmulator(physics: physics, noise: noise ?? 0.001, gyroNoise: gyroNoise ?? 0.05,
                                       seed: seed &+ 100, model: kind == .lsm6dsl ? .lsm6dsl : .lsm6dsox), at: address)
        case .bno055:
            // One chip for all nine axes: reuse the magnetometer rig's BNO055 when there is one.
            if let chip = bus.device(at: address) as? BNO055Emulator {
                if let noise { chip.accelerationNoise = noise }
                if let gyroNoise { chip.gyroNoise = gyroNoise }
            } else {
                bus.attach(BNO055Emulator(physics: physics, accelerationNoise: noise ?? 0.002, gyroNoise: gyroNoise ?? 0.1,
                                          seed: seed &+ 100), at: address)
            }
        case .lsm9ds1:
            bus.attach(LSM9DS1AccelGyroEmulator(physics: physics, noise: noise ?? 0.002, gyroNoise: gyroNoise ?? 0.1,
                                                seed: seed &+ 100), at: address)
        case .lsm303agr:
            bus.attach(LSM303AGRAccelerometerEmulator(physics: physics, noise: noise ?? 0.002, seed: seed &+ 100),
                       at: address)
        case .icm20948:
            let core = ICM20948AccelerometerCore(physics: physics, noise: noise ?? 0.002, gyroNoise: gyroNoise ?? 0.09,
                                                 seed: seed &+ 100)
            let existing = bus.device(at: address) as? ICM20948Emulator
            let magnetometer = existing?.magnetometer ?? AK09916Emulator(physics: physics, seed: seed &+ 200)
            let host = ICM20948Emulator(bus: bus, magnetometer: magnetometer,
                                        magnetometerAddress: existing?.magnetometerAddress ?? AK09916.defaultAddress,
                                        core: core)
            bus.attach(host, at: address)
        }
        return address
    }
}
