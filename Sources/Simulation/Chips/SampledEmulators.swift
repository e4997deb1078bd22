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
    /// The physics the samples measure (the sampler's).
    private let physics: PhysicsSource
    /// When a sample is due and what it reads (g, chip axes, with noise). Not checked for exclusivity
    /// at run time (two checks a sample, each through the runtime's access set): it is private, the
    /// emulators are not Sendable, and nothing an access calls can reach the emulator again (the
    /// sampler calls only the physics, a world model that knows no emulator).
    @exclusivity(unchecked) private var sampler: AccelerometerSampler

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
        physics = sampler.physics
        self.sampler = sampler
    }

    /// Sets the output data rate (restarts the sample grid).
    final func setSampleRate(_ hertz: Double) { sampler.setRate(hertz) }

    /// Forgets the last sample (after a reset or a power-down), and any latched one.
    final func resetSampler() {
        dropLatchedMotion()
        sampler.reset()
    }

    /// A sample latched (`latchMotionIfDue`) and not yet worked out: its time, and the forced
    /// values and noise then. Not checked for exclusivity, as `sampler`: every access is a plain
    /// read or write that calls nothing.
    @exclusivity(unchecked) private var latched: LatchedMotion?

    private struct LatchedMotion {
        var time: Double
        var forced: Vector3?
        var forcedRotationRate: Vector3?
        var noise: Double
        var gyroNoise: Double
    }

    /// When a sample is due now, latches it without working it out (its time, and the forced
    /// values and noise then): true when one was. The values are worked out only when read
    /// (`takeLatchedMotion`); a latched sample never read is skipped (its noise drawn past), so
    /// the samples that are read are the ones `motionIfDue` would give. Why: an emulated chip
    /// faster than its reader's polls overwrites samples nobody reads, each a few thousand
    /// instructions of world model (serve reads a 100 Hz MPU-6050 at 50 Hz).
    final func latchMotionIfDue() -> Bool {
        let now = physics.now()
        guard sampler.isDue(at: now) else { return false }
        dropLatchedMotion()
        latched = LatchedMotion(time: now, forced: sampler.forced, forcedRotationRate: sampler.forcedRotationRate,
                                noise: sampler.noise, gyroNoise: sampler.gyroNoise)
        return true
    }

    /// The latched sample (acceleration g, rotation rate °/s, chip axes, with noise), worked out
    /// once; nil when none is latched.
    final func takeLatchedMotion() -> (acceleration: Vector3, rotationRate: Vector3)? {
        guard let sample = latched else { return nil }
        latched = nil
        let acceleration = sample.forced ?? physics.acceleration(sample.time)
        let rotationRate = sample.forcedRotationRate ?? physics.rotationRate(sample.time)
        return (sampler.noisyAcceleration(acceleration, rms: sample.noise),
                sampler.noisyRotationRate(rotationRate, rms: sample.gyroNoise))
    }

    /// Forgets a latched sample that was never read, its noise drawn past.
    private func dropLatchedMotion() {
        guard latched != nil else { return }
        latched = nil
        sampler.skipMotionNoise()
    }

    /// Acceleration (g) and rotation rate (°/s), chip axes, with noise, when a sample is due now,
    /// else nil (`AccelerometerSampler.motionIfDue`).
    final func motionIfDue() -> (acceleration: Vector3, rotationRate: Vector3)? { sampler.motionIfDue() }

    /// The acceleration (g, chip axes, with noise) when a sample is due now, else nil
    /// (`AccelerometerSampler.sampleIfDue`).
    final func accelerationIfDue() -> Vector3? { sampler.sampleIfDue() }
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

/// An emulator whose reads go register by register through `readEach` (with each register's side
/// effects in order): it answers `read` with an array and `readBlock` with a block from it.
protocol ByteByByteRegisters: RegisterDevice {
    /// A read of `count` registers from `start`, each byte handed to `take` in order.
    func readEach(start: UInt8, count: Int, _ take: (UInt8) -> Void)
}

extension ByteByByteRegisters {
    public func read(start: UInt8, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        readEach(start: start, count: count) { bytes.append($0) }
        return bytes
    }

    public func readBlock(start: UInt8, count: Int) -> RegisterBlock {
        var block = RegisterBlock()
        readEach(start: start, count: min(count, RegisterBlock.capacity)) { block.append($0) }
        return block
    }
}
