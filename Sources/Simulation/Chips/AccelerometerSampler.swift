import Linear

/// The physics half shared by the accelerometer emulators: decides when a sample is due and what
/// it reads (g, chip axes, with white noise), so each emulator only encodes registers.
///
/// ```swift
/// var sampler = AccelerometerSampler(physics: physics, noise: 0.003, seed: 7)
/// sampler.setRate(100)
/// if let g = sampler.sampleIfDue() { encode(g) }
/// ```
public struct AccelerometerSampler: Sendable {
    public let physics: PhysicsSource
    /// RMS noise per axis in g.
    public var noise: Double
    /// When set, every sample reports this acceleration (plus noise) instead of the physics.
    public var forced: Vector3?
    private var clock = ChipClock(rate: 100)
    private var rng: SplitMix64

    public init(physics: PhysicsSource, noise: Double, seed: UInt64) {
        self.physics = physics
        self.noise = noise
        rng = SplitMix64(seed: seed)
    }

    /// Sets the output data rate (restarts the sample grid).
    public mutating func setRate(_ hertz: Double) {
        clock = ChipClock(rate: max(hertz, 0.1))
    }

    /// Forgets the last sample (after a reset or a power-down).
    public mutating func reset() { clock.reset() }

    /// The next sample in g when one is due now, else nil.
    public mutating func sampleIfDue() -> Vector3? {
        let now = physics.now()
        guard clock.sampleDue(at: now) else { return nil }
        let g = forced ?? physics.acceleration(now)
        return Vector3(g.x + noise * rng.nextGaussian(), g.y + noise * rng.nextGaussian(),
                       g.z + noise * rng.nextGaussian())
    }
}

/// Counts for a value in g, rounded and clamped to a signed `bits`-wide integer.
func accelerometerCounts(_ g: Double, perG: Double, bits: Int) -> Int {
    let limit = Double(1 << (bits - 1))
    let counts = (g * perG).rounded()
    guard counts.isFinite else { return 0 }
    return Int(max(-limit, min(limit - 1, counts)))
}
