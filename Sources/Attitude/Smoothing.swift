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
    let x = dt / tau
    // 1 − e^−x by its series while x is small (every step of a running filter): relative error
    // below x⁴/120 < 1e-7, without the cost of expm1.
    if x < 0.05 { return x * (1 - x / 2 * (1 - x / 3 * (1 - x / 4))) }
    return -expm1(-x)
}
