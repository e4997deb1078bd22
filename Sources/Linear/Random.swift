#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small, fast, seedable generator (SplitMix64), so simulations and randomised tests repeat exactly.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let noise = rng.nextGaussian() * 0.2
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Standard normal (Box–Muller).
    public mutating func nextGaussian() -> Double {
        var u = nextUnit()
        while u <= 0 { u = nextUnit() }
        let v = nextUnit()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    /// Moves past one `nextGaussian()` without working it out (no logarithm, root or cosine): the
    /// same draws, so every value after it is the one it would have been. For a simulated sample
    /// that is overwritten before anyone reads it.
    public mutating func skipGaussian() {
        while next() >> 11 == 0 {}   // nextGaussian draws again while its u is 0
        _ = next()
    }
}
