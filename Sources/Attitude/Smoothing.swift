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
@inlinable public func lowPassGain(dt: Double, tau: Double) -> Double {
    guard tau > 0 else { return 1 }
    guard dt > 0 else { return 0 }
    return -expm1(-dt / tau)
}
