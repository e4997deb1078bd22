/// Opens the driver for an accelerometer kind.
///
/// ```swift
/// let accel = try AccelerometerFactory.open(.mpu6050, bus: bus)   // default address 0x68
/// ```
public enum AccelerometerFactory {
    /// Probes and configures the chip at `address` (the kind's default address when nil).
    public static func open(_ kind: AccelerometerKind, bus: any I2CBus,
                            address: I2CAddress? = nil) throws(SensorError) -> any Accelerometer {
        let address = address ?? kind.defaultAddress
        switch kind {
        case .lsm303agr: return try LSM303AGRAccelerometer(bus: bus, address: address)
        case .icm20948: return try ICM20948Accelerometer(bus: bus, address: address)
        case .mpu6050: return try MPU6050(bus: bus, address: address)
        case .lsm9ds1: return try LSM9DS1AccelGyro(bus: bus, address: address)
        case .mpu9250: return try MPU6050(bus: bus, address: address, model: .mpu9250)
        case .lsm6dsl, .lsm6dsox: return try LSM6DSL(bus: bus, address: address)
        case .bno055: return try BNO055Motion(bus: bus, address: address)
        }
    }
}
