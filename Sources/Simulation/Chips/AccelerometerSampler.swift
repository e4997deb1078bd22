import Linear

/// The physics half shared by the accelerometer emulators: decides when a sample is due and what
/// it reads (g, chip axes, with white noise) and, for chips with a gyroscope, the rotation rate of the
/// same instant (°/s, chip axes, with its own seeded noise), so each emulator only encodes registers.
///
/// ```swift
/// var sampler = AccelerometerSampler(physics: physics, noise: 0.003, seed: 7)
/// sampler.setRate(100)
/// if let g = sampler.sampleIfDue() { encode(g) }
/// if let m = sampler.motionIfDue() { encode(m.acceleration, m.rotationRate) }
/// ```
public struct AccelerometerSampler: Sendable {
    public let physics: PhysicsSource
    /// RMS noise per axis in g.
    public var noise: Double
    /// RMS gyroscope noise per axis in °/s.
    public var gyroNoise: Double
    /// When set, every sample reports this acceleration (plus noise) instead of the physics.
    public var forced: Vector3?
    /// When set, every sample reports this rotation rate (°/s, plus noise) instead of the physics.
    public var forcedRotationRate: Vector3?
    private var schedule: SampleSchedule
    private var gyroSchedule: SampleSchedule

    public init(physics: PhysicsSource, noise: Double, seed: UInt64, gyroNoise: Double = 0) {
        self.physics = physics
        self.noise = noise
        self.gyroNoise = gyroNoise
        schedule = SampleSchedule(rate: 100, slowestRate: 0.1, seed: seed)
        // The gyro's noise has its own stream, so adding a gyro leaves the accelerometer's noise as it was.
        gyroSchedule = SampleSchedule(rate: 100, slowestRate: 0.1, seed: seed &+ 0x9E37_79B9)
    }

    /// Acceleration (g) and rotation rate (°/s), chip axes, when a sample is due now, else nil.
    public mutating func motionIfDue() -> (acceleration: Vector3, rotationRate: Vector3)? {
        let now = physics.now()
        guard isDue(at: now) else { return nil }
        return (noisyAcceleration(forced ?? physics.acceleration(now)),
                noisyRotationRate(forcedRotationRate ?? physics.rotationRate(now)))
    }

    /// Sets the output data rate (restarts the sample grid).
    public mutating func setRate(_ hertz: Double) { schedule.setRate(hertz) }

    /// Forgets the last sample (after a reset or a power-down).
    public mutating func reset() { schedule.reset() }

    /// The next sample in g when one is due now, else nil.
    public mutating func sampleIfDue() -> Vector3? {
        let now = physics.now()
        guard isDue(at: now) else { return nil }
        return noisyAcceleration(forced ?? physics.acceleration(now))
    }

    /// True (and the sample grid advanced) when a sample is due at `t`. With `noisyAcceleration`
    /// and `noisyRotationRate`, the parts of a sample that do not call the physics.
    public mutating func isDue(at t: Double) -> Bool { schedule.isDue(at: t) }

    /// `truth` (g) with the accelerometer's noise added (RMS `rms`, by default `noise`).
    public mutating func noisyAcceleration(_ truth: Vector3, rms: Double? = nil) -> Vector3 {
        let rms = rms ?? noise
        return schedule.addingNoise(to: truth, rms: Vector3(rms, rms, rms))
    }

    /// Moves past the noise of one motion sample (`noisyAcceleration` and `noisyRotationRate`)
    /// without working it out: a sample overwritten before it was read.
    public mutating func skipMotionNoise() {
        schedule.skipNoise()
        gyroSchedule.skipNoise()
    }

    /// `truth` (°/s) with the gyroscope's noise added (its own stream; RMS `rms`, by default `gyroNoise`).
    public mutating func noisyRotationRate(_ truth: Vector3, rms: Double? = nil) -> Vector3 {
        let rms = rms ?? gyroNoise
        return gyroSchedule.addingNoise(to: truth, rms: Vector3(rms, rms, rms))
    }
}

/// Stores X, Y, Z of `g` as three 16-bit words from `registers[start]`: each `accelerometerCounts`
/// left-justified (a `bits`-wide count fills the top bits of its word), in the chip's byte order.
func storeAccelerometerWords(_ g: Vector3, perG: Double, bits: Int, littleEndian: Bool,
                             into registers: inout [UInt8], at start: Int) {
    var span = registers.mutableSpan
    storeAccelerometerWords(g, perG: perG, bits: bits, littleEndian: littleEndian, into: &span, at: start)
}

/// `storeAccelerometerWords` into any register file (an emulator's fixed-size one).
func storeAccelerometerWords(_ g: Vector3, perG: Double, bits: Int, littleEndian: Bool,
                             into registers: inout MutableSpan<UInt8>, at start: Int) {
    for axis in 0..<3 {
        let word = wordPair(accelerometerCounts(g[axis], perG: perG, bits: bits) << (16 - bits), littleEndian: littleEndian)
        registers[start + 2 * axis] = word.first
        registers[start + 2 * axis + 1] = word.second
    }
}

/// Counts for a value in g, rounded and clamped to a signed `bits`-wide integer.
func accelerometerCounts(_ g: Double, perG: Double, bits: Int) -> Int {
    let limit = Double(1 << (bits - 1))
    let counts = (g * perG).rounded()
    guard counts.isFinite else { return 0 }
    return Int(max(-limit, min(limit - 1, counts)))
}
