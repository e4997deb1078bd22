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
    private var schedule: SampleSchedule

    public init(physics: PhysicsSource, noise: Double, seed: UInt64) {
        self.physics = physics
        self.noise = noise
        schedule = SampleSchedule(rate: 100, slowestRate: 0.1, seed: seed)
    }

    /// Sets the output data rate (restarts the sample grid).
    public mutating func setRate(_ hertz: Double) { schedule.setRate(hertz) }

    /// Forgets the last sample (after a reset or a power-down).
    public mutating func reset() { schedule.reset() }

    /// The next sample in g when one is due now, else nil.
    public mutating func sampleIfDue() -> Vector3? {
        let now = physics.now()
        guard schedule.isDue(at: now) else { return nil }
        return schedule.addingNoise(to: forced ?? physics.acceleration(now), rms: Vector3(noise, noise, noise))
    }
}

/// Stores X, Y, Z of `g` as three 16-bit words from `registers[start]`: each `accelerometerCounts`
/// left-justified (a `bits`-wide count fills the top bits of its word), in the chip's byte order.
func storeAccelerometerWords(_ g: Vector3, perG: Double, bits: Int, littleEndian: Bool,
                             into registers: inout [UInt8], at start: Int) {
    for axis in 0..<3 {
        let word = wordBytes(accelerometerCounts(g[axis], perG: perG, bits: bits) << (16 - bits), littleEndian: littleEndian)
        registers[start + 2 * axis] = word[0]
        registers[start + 2 * axis + 1] = word[1]
    }
}

/// Counts for a value in g, rounded and clamped to a signed `bits`-wide integer.
func accelerometerCounts(_ g: Double, perG: Double, bits: Int) -> Int {
    let limit = Double(1 << (bits - 1))
    let counts = (g * perG).rounded()
    guard counts.isFinite else { return 0 }
    return Int(max(-limit, min(limit - 1, counts)))
}
