import Linear

/// The accelerometers Lodestone reads for tilt compensation.
public enum AccelerometerKind: String, CaseIterable, Sendable, Codable {
    /// The accelerometer half of the LSM303AGR (its magnetometer half is the LIS2MDL).
    case lsm303agr
    /// The accelerometer of the ICM-20948 9-axis IMU (its magnetometer is the AK09916).
    case icm20948
    /// The MPU-6050 on GY-521 boards: the commonest hobby IMU on a Pi (no magnetometer).
    case mpu6050
    /// The accelerometer and gyroscope of the LSM9DS1 (Sense HAT, BerryIMU v2); its magnetometer is `ChipKind.lsm9ds1`.
    case lsm9ds1
    /// The accelerometer and gyroscope of the MPU-9250/MPU-9255 (its magnetometer is `ChipKind.ak8963`).
    case mpu9250
    /// The LSM6DSL accelerometer and gyroscope (BerryIMU v3, beside a LIS3MDL).
    case lsm6dsl
    /// The LSM6DSOX, the LSM6DSL's successor (same registers here).
    case lsm6dsox
    /// The BNO055's accelerometer and gyroscope (AMG mode).
    case bno055

    /// The name as printed on datasheets.
    public var displayName: String {
        switch self {
        case .lsm303agr: return "LSM303AGR"
        case .icm20948: return "ICM-20948"
        case .mpu6050: return "MPU-6050"
        case .lsm9ds1: return "LSM9DS1"
        case .mpu9250: return "MPU-9250"
        case .lsm6dsl: return "LSM6DSL"
        case .lsm6dsox: return "LSM6DSOX"
        case .bno055: return "BNO055"
        }
    }

    /// Whether the part has a gyroscope Lodestone reads (`MagnetometerSample.rotationRate`).
    public var hasGyroscope: Bool { self != .lsm303agr }

    /// The address the part answers at on common boards (the other strap option in `addresses`).
    public var defaultAddress: I2CAddress {
        switch self {
        case .lsm303agr: return 0x19
        case .icm20948: return 0x69
        case .mpu6050: return 0x68
        case .lsm9ds1: return LSM9DS1AccelGyro.defaultAddress
        case .mpu9250: return 0x68
        case .lsm6dsl, .lsm6dsox: return LSM6DSL.defaultAddress
        case .bno055: return BNO055.defaultAddress
        }
    }

    /// Every address the part can be strapped to.
    public var addresses: [I2CAddress] {
        switch self {
        case .lsm303agr: return [0x19]
        case .icm20948: return [0x68, 0x69]
        case .mpu6050, .mpu9250: return [0x68, 0x69]
        case .lsm9ds1: return [LSM9DS1AccelGyro.defaultAddress, LSM9DS1AccelGyro.alternateAddress]
        case .lsm6dsl, .lsm6dsox: return [LSM6DSL.defaultAddress, LSM6DSL.alternateAddress]
        case .bno055: return [BNO055.defaultAddress, BNO055.alternateAddress]
        }
    }
}

/// What an accelerometer driver knows about its chip.
public struct AccelerometerInfo: Sendable, Equatable {
    public var kind: AccelerometerKind
    public var bus: Int
    public var address: I2CAddress
    /// Configured full scale per axis, in g.
    public var fullScale: Double
    /// Configured output data rate in Hz.
    public var outputRate: Double

    public init(kind: AccelerometerKind, bus: Int, address: I2CAddress, fullScale: Double, outputRate: Double) {
        self.kind = kind
        self.bus = bus
        self.address = address
        self.fullScale = fullScale
        self.outputRate = outputRate
    }

    /// "MPU-6050 accelerometer on bus 1 at 0x68".
    public var summary: String { "\(kind.displayName) accelerometer on bus \(bus) at \(hexAddress(address))" }
}

/// An accelerometer driver. Output is in g (1 g = 9.806 65 m/s²), in the chip's own axes as printed
/// on the board; the mounting orientation maps them to body axes, exactly as for the magnetometer.
/// A still board lying flat, components up, reads (0, 0, +1) g in chip axes, which is (0, 0, −1) g in
/// body axes (the reaction to gravity points up).
///
/// ```swift
/// let accel = try MPU6050(bus: bus)                  // probes WHO_AM_I and configures
/// if let g = try accel.readIfReady() { … }            // nil: no new sample yet
/// ```
public protocol Accelerometer: AnyObject {
    var info: AccelerometerInfo { get }
    /// The gyroscope read with the accelerometer, when the chip has one and the driver reads it.
    var gyroscope: GyroscopeInfo? { get }
    /// (Re)initialises the chip. Called again after the device returns from a fault.
    func configure() throws(SensorError)
    /// The newest sample in g (chip axes), or nil when no new data is ready.
    /// Throws `.accelerometerSaturated` when an axis sat at the end of its range: the sample is dropped.
    func readIfReady() throws(SensorError) -> Vector3?
    /// The newest accelerometer sample and, on chips with a gyroscope, the rotation rate of the same
    /// instant (one transfer where the chip allows it); nil when no new data is ready.
    /// Throws `.accelerometerSaturated` or `.gyroscopeSaturated`: the whole sample is dropped.
    func readMotionIfReady() throws(SensorError) -> MotionReading?
}

extension Accelerometer {
    /// An accelerometer without a gyroscope.
    public var gyroscope: GyroscopeInfo? { nil }

    /// The acceleration alone, for chips without a gyroscope.
    public func readMotionIfReady() throws(SensorError) -> MotionReading? {
        try readIfReady().map { MotionReading(acceleration: $0) }
    }
}

/// One inertial sample in the chip's own axes: acceleration in g and, when the chip has a gyroscope,
/// the rotation rate in degrees per second (right-handed about each axis), measured together.
///
/// ```swift
/// if let motion = try imu.readMotionIfReady() { print(motion.acceleration, motion.rotationRate ?? .zero) }
/// ```
public struct MotionReading: Sendable, Equatable {
    /// g, chip axes.
    public var acceleration: Vector3
    /// Degrees per second, chip axes; nil when the chip has no gyroscope.
    public var rotationRate: Vector3?

    public init(acceleration: Vector3, rotationRate: Vector3? = nil) {
        self.acceleration = acceleration
        self.rotationRate = rotationRate
    }
}

/// How a driver configured the gyroscope beside its accelerometer.
///
/// ```swift
/// if let gyro = imu.gyroscope { print(gyro.fullScale, gyro.bandwidth) }   // 500.0 41.0
/// ```
public struct GyroscopeInfo: Sendable, Equatable {
    /// Full scale per axis in degrees per second.
    public var fullScale: Double
    /// Low-pass filter bandwidth (-3 dB) in Hz.
    public var bandwidth: Double
    /// Output data rate in Hz.
    public var outputRate: Double

    public init(fullScale: Double, bandwidth: Double, outputRate: Double) {
        self.fullScale = fullScale
        self.bandwidth = bandwidth
        self.outputRate = outputRate
    }
}
