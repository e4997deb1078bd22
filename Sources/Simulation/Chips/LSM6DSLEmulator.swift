import Linear
import Sensors

/// A register-level LSM6DSL or LSM6DSOX accelerometer and gyroscope (BerryIMU v3).
///
/// Implements WHO_AM_I by model, power-down after power-on, SW_RESET, ODR_XL and ODR_G (the sample
/// grid follows the accelerometer's rate, or the gyro's when the accelerometer is off), FS_XL and FS_G
/// scaling with clamping at the 16-bit rails, little-endian output words (gyro 0x22–0x27, accelerometer
/// 0x28–0x2D), IF_INC (without it a multi-byte read repeats one register), and XLDA/GDA set on each
/// sample and cleared by reading the accelerometer/gyro words. Physics: `PhysicsSource.acceleration`
/// (g) and `.rotationRate` (°/s), chip axes.
///
/// ```swift
/// bus.attach(LSM6DSLEmulator(physics: physics), at: 0x6A)
/// let imu = try LSM6DSL(bus: bus)
/// ```
public final class LSM6DSLEmulator: STMotionEmulatorBase, RegisterDevice {
    typealias R = LSM6DSL.Register
    public let model: LSM6DSL.Model

    /// `noise`: RMS g per axis (datasheet: 80–90 µg/√Hz, about 1 mg); `gyroNoise`: RMS °/s (about 0.05 °/s).
    public init(physics: PhysicsSource, noise: Double = 0.001, gyroNoise: Double = 0.05, seed: UInt64 = 13,
                model: LSM6DSL.Model = .lsm6dsl) {
        self.model = model
        super.init(sampler: AccelerometerSampler(physics: physics, noise: noise, seed: seed, gyroNoise: gyroNoise),
                   outputs: STMotionRegisters(status: R.status, gyro: R.gyroXLow, accelerometer: R.accelXLow), size: 0x80)
        reset()
    }

    private func reset() {
        registers = [UInt8](repeating: 0, count: 0x80)
        registers[Int(R.whoAmI)] = model.identity
        registers[Int(R.control3C)] = LSM6DSL.Control3.autoIncrement
        resetSampler()
    }

    private var accelerometerCode: Int { Int(registers[Int(R.control1XL)] >> 4) }
    private var gyroCode: Int { Int(registers[Int(R.control2G)] >> 4) }

    private func updateRate() {
        let code = accelerometerCode != 0 ? accelerometerCode : gyroCode
        let rate = code < LSM6DSL.rates.count ? LSM6DSL.rates[code] : 0
        if rate > 0 { setSampleRate(rate) } else { resetSampler() }
    }

    public func write(register: UInt8, value: UInt8) {
        guard Int(register) < registers.count, register != R.whoAmI, register != R.status else { return }
        if register == R.control3C && value & LSM6DSL.Control3.softReset != 0 { reset(); return }
        if (R.gyroXLow...R.accelXLow + 5).contains(register) { return }
        registers[Int(register)] = value
        if register == R.control1XL || register == R.control2G { updateRate() }
    }

    override var autoIncrements: Bool { registers[Int(R.control3C)] & LSM6DSL.Control3.autoIncrement != 0 }

    override var scales: Scales? {
        guard accelerometerCode != 0 || gyroCode != 0 else { return nil }
        let range = LSM6DSL.Range(rawValue: (registers[Int(R.control1XL)] >> 2) & 0b11) ?? .g2
        let gyroRange = LSM6DSL.GyroRange(rawValue: (registers[Int(R.control2G)] >> 2) & 0b11) ?? .dps250
        return (accelerometerCode != 0 ? 1 / range.gPerCount : nil,
                gyroCode != 0 ? 1 / gyroRange.degreesPerSecondPerCount : nil)
    }
}
