#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// A first-order low-pass of a fixed time constant, its reciprocal worked out once, so that a gain
/// costs a multiplication and the series instead of a division.
struct LowPass: Sendable {
    /// 1 / τ (per second), or −1 for a time constant that is not positive (gain 1).
    let rate: Double

    init(tau: Double) { rate = tau > 0 ? 1 / tau : -1 }

    /// The gain over a step `dt` (s): Linear's `lowPassGain(dt:tau:)`, to rounding.
    @inline(__always) func gain(_ dt: Double) -> Double {
        guard rate >= 0 else { return 1 }
        guard dt > 0 else { return 0 }
        return lowPassGain(ratio: dt * rate)
    }
}

/// Radians to degrees by one multiplication (`degrees(_:)` multiplies and divides), for the
/// filter's per-sample arithmetic.
let degreesPerRadian = 180 / Double.pi
/// Degrees to radians by one multiplication.
let radiansPerDegree = Double.pi / 180
