import Linear

/// The part of a chip emulator's sampler that does not depend on what it measures: the output-rate
/// grid (a `ChipClock` with a slowest allowed rate) and seeded white noise added per axis.
/// `AccelerometerSampler` and `MagneticSampler` are both built on it.
///
/// ```swift
/// var schedule = SampleSchedule(rate: 100, slowestRate: 0.1, seed: 7)
/// if schedule.isDue(at: t) { let g = schedule.addingNoise(to: truth, rms: Vector3(0.003, 0.003, 0.003)) }
/// ```
struct SampleSchedule: Sendable {
    private var clock: ChipClock
    private var rng: SplitMix64
    /// `setRate` never goes below this (a stopped clock would never sample).
    let slowestRate: Double

    init(rate: Double, slowestRate: Double, seed: UInt64) {
        clock = ChipClock(rate: rate)
        rng = SplitMix64(seed: seed)
        self.slowestRate = slowestRate
    }

    /// Sets the output data rate (restarts the sample grid).
    mutating func setRate(_ hertz: Double) { clock = ChipClock(rate: max(hertz, slowestRate)) }

    /// Forgets the last sample.
    mutating func reset() { clock.reset() }

    /// True (and advances the grid) when a sample is due at `t`.
    mutating func isDue(at t: Double) -> Bool { clock.sampleDue(at: t) }

    /// Moves past the noise of one `addingNoise` without working it out (`SplitMix64.skipGaussian`).
    mutating func skipNoise() {
        for _ in 0..<3 { rng.skipGaussian() }
    }

    /// `value` plus Gaussian noise of RMS `rms` on each axis (drawn X, then Y, then Z).
    mutating func addingNoise(to value: Vector3, rms: Vector3) -> Vector3 {
        Vector3(value.x + rms.x * rng.nextGaussian(), value.y + rms.y * rng.nextGaussian(),
                value.z + rms.z * rng.nextGaussian())
    }
}
