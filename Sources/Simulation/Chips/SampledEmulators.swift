import Linear
import Sensors

/// What every accelerometer emulator shares: the physics sampler and the hooks tests and the rig use
/// on it. Each chip subclasses it and adds its own registers and encoding.
///
/// ```swift
/// let accel = MPU6050Emulator(physics: physics)      // an AccelerometerEmulatorBase
/// accel.forcedAcceleration = Vector3(0, 0, 3)        // 3 g on Z: the ±2 g range saturates
/// accel.noise = 0                                    // exact readings
/// ```
public class AccelerometerEmulatorBase {
    /// When a sample is due and what it reads (g, chip axes, with noise).
    var sampler: AccelerometerSampler

    /// RMS noise per axis in g.
    public var noise: Double {
        get { sampler.noise }
        set { sampler.noise = newValue }
    }
    /// When set, every sample reports this acceleration in g (chip axes) instead of the physics.
    public var forcedAcceleration: Vector3? {
        get { sampler.forced }
        set { sampler.forced = newValue }
    }
    /// RMS gyroscope noise per axis in °/s (chips with a gyroscope).
    public var gyroNoise: Double {
        get { sampler.gyroNoise }
        set { sampler.gyroNoise = newValue }
    }
    /// When set, every sample reports this rotation rate in °/s (chip axes) instead of the physics.
    public var forcedRotationRate: Vector3? {
        get { sampler.forcedRotationRate }
        set { sampler.forcedRotationRate = newValue }
    }

    init(sampler: AccelerometerSampler) {
        self.sampler = sampler
    }
}

/// What every sampled magnetometer emulator shares: the physics sampler and the `forcedField` hook
/// of `EmulatedMagnetometer` on it. Each chip subclasses it and adds its own registers and encoding.
///
/// ```swift
/// let chip = LIS3MDLEmulator(physics: physics)       // a MagnetometerEmulatorBase
/// chip.forcedField = Vector3(2000, 0, 0)             // a magnet: the next samples overflow
/// ```
public class MagnetometerEmulatorBase {
    /// When a sample is due and the noisy field it measures (µT, chip axes).
    var sampler: MagneticSampler

    /// When set, every sample measures this field (µT, chip axes, noise still added) instead of the physics.
    public var forcedField: Vector3? {
        get { sampler.forced }
        set { sampler.forced = newValue }
    }

    init(sampler: MagneticSampler) {
        self.sampler = sampler
    }
}
