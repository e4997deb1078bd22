import Linear
import Sensors

/// A register-level LSM9DS1 accelerometer and gyroscope: the driver talks to it as to the real chip on a
/// Sense HAT or BerryIMU v2.
///
/// Implements WHO_AM_I (0x68), power-down after power-on, SW_RESET, the gyro ODR (the accelerometer
/// follows it while the gyro is on, else its own ODR_XL), FS_G and FS_XL scaling with clamping at the
/// 16-bit rails, little-endian output words, IF_ADD_INC (without it a multi-byte read repeats one
/// register), XLDA/GDA set on each sample and cleared by reading the accelerometer/gyro words.
/// Physics: `PhysicsSource.acceleration` (g) and `.rotationRate` (°/s), chip axes.
///
/// ```swift
/// bus.attach(LSM9DS1AccelGyroEmulator(physics: physics), at: 0x6A)
/// let imu = try LSM9DS1AccelGyro(bus: bus)
/// ```
public final class LSM9DS1AccelGyroEmulator: STMotionEmulatorBase, RegisterDevice {
    typealias R = LSM9DS1AccelGyro.Register

    /// `noise`: RMS g per axis (datasheet: about 2 mg at ±2 g); `gyroNoise`: RMS °/s (about 0.1 °/s).
    public init(physics: PhysicsSource, noise: Double = 0.002, gyroNoise: Double = 0.1, seed: UInt64 = 11) {
        super.init(sampler: AccelerometerSampler(physics: physics, noise: noise, seed: seed, gyroNoise: gyroNoise),
                   outputs: STMotionRegisters(status: R.status, gyro: R.gyroXLow, accelerometer: R.accelXLow), size: 0x40)
        reset()
    }

    private func reset() {
        registers = [UInt8](repeating: 0, count: 0x40)
        registers[Int(R.whoAmI)] = LSM9DS1AccelGyro.identity
        registers[Int(R.control4)] = LSM9DS1AccelGyro.allAxes
        registers[Int(R.control5XL)] = LSM9DS1AccelGyro.allAxes
        registers[Int(R.control8)] = LSM9DS1AccelGyro.Control8.autoIncrement
        resetSampler()
    }

    private var gyroRate: UInt8 { registers[Int(R.control1G)] >> 5 }
    private var accelerometerRate: UInt8 { registers[Int(R.control6XL)] >> 5 }

    private func updateRate() {
        let code = gyroRate != 0 ? gyroRate : accelerometerRate
        // ODR_XL alone: 10, 50, 119 … Hz; with the gyro on, the gyro's 14.9, 59.5, 119 … Hz.
        let accelOnly: [Double] = [0, 10, 50, 119, 238, 476, 952, 0]
        let rate = gyroRate != 0 ? (LSM9DS1AccelGyro.Rate(rawValue: code)?.hertz ?? 0) : accelOnly[Int(code)]
        if rate > 0 { setSampleRate(rate) } else { resetSampler() }
    }

    public func write(register: UInt8, value: UInt8) {
        guard Int(register) < registers.count, register != R.whoAmI, register != R.status else { return }
        if register == R.control8 && value & LSM9DS1AccelGyro.Control8.softReset != 0 { reset(); return }
        if (R.gyroXLow...R.gyroXLow + 5).contains(register) || (R.accelXLow...R.accelXLow + 5).contains(register) { return }
        registers[Int(register)] = value
        if register == R.control1G || register == R.control6XL { updateRate() }
    }

    override var autoIncrements: Bool {
        registers[Int(R.control8)] & LSM9DS1AccelGyro.Control8.autoIncrement != 0
    }

    override var scales: Scales? {
        guard gyroRate != 0 || accelerometerRate != 0 else { return nil }
        let range = LSM9DS1AccelGyro.Range(rawValue: (registers[Int(R.control6XL)] >> 3) & 0b11) ?? .g2
        let gyroRange = LSM9DS1AccelGyro.GyroRange(rawValue: (registers[Int(R.control1G)] >> 3) & 0b11) ?? .dps245
        return (1 / range.gPerCount, gyroRate != 0 ? 1 / gyroRange.degreesPerSecondPerCount : nil)
    }
}
