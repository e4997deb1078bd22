#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The gain of a first-order low-pass filter with time constant `tau` (s) over a step `dt` (s):
/// `y += gain * (x - y)`. 1 for a zero time constant, 0 for a zero step.
///
/// ```swift
/// y += lowPassGain(dt: 0.01, tau: 5) * (x - y)
/// ```
@inlinable @inline(__always) func lowPassGain(dt: Double, tau: Double) -> Double {
    guard tau > 0 else { return 1 }
    guard dt > 0 else { return 0 }
    return lowPassGain(ratio: dt / tau)
}

/// 1 − e^−x, the gain of a step `x` = dt / τ (x ≥ 0): by its series while x is small (every step of
/// a running filter), relative error below x⁴/120 < 1e-7, without the cost of expm1.
@inlinable @inline(__always) func lowPassGain(ratio x: Double) -> Double {
    if x < 0.05 { return x * (1 - x * 0.5 * (1 - x * (1.0 / 3) * (1 - x * 0.25))) }
    return -expm1(-x)
}

/// A first-order low-pass of a fixed time constant, its reciprocal worked out once, so that a gain
/// costs a multiplication and the series instead of a division.
struct LowPass: Sendable {
    /// 1 / τ (per second), or −1 for a time constant that is not positive (gain 1).
    let rate: Double

    init(tau: Double) { rate = tau > 0 ? 1 / tau : -1 }

    /// The gain over a step `dt` (s): `lowPassGain(dt:tau:)`, to rounding.
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
