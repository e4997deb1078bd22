#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The one home of the numerics every stage shares: angle wrapping and differences (degrees),
// degrees ↔ radians (`radians`, `degrees` in Vector3.swift), the first-order low-pass gain and the
// mean of vectors.

/// An angle in degrees wrapped into [0, 360). A non-finite angle gives 0 (callers reject such
/// values earlier; a heading is never NaN). −0 gives +0.
///
/// ```swift
/// wrap360(-90)      // 270
/// wrap360(725)      // 5
/// wrap360(-1e-20)   // 0, not 360
/// ```
@inlinable public func wrap360(_ degrees: Double) -> Double {
    if degrees >= 0 && degrees < 360 { return degrees + 0 }   // + 0 turns −0 into +0
    if degrees < 0 && degrees >= -360 {
        let r = degrees + 360
        return r >= 360 ? 0 : r + 0   // −1e-17 + 360 rounds to 360
    }
    guard degrees.isFinite else { return 0 }
    var r = degrees.truncatingRemainder(dividingBy: 360)   // exact, |r| < 360
    if r < 0 { r += 360 }
    return r >= 360 ? 0 : r + 0
}

/// An angle in degrees wrapped into (−180, 180]. A non-finite angle gives 0.
///
/// ```swift
/// wrap180(190)   // -170
/// wrap180(-180)  // 180
/// ```
@inlinable public func wrap180(_ degrees: Double) -> Double {
    if degrees > -180 && degrees <= 180 { return degrees + 0 }
    let r = wrap360(degrees)
    return r > 180 ? r - 360 : r
}

/// The gain of a first-order low-pass filter with time constant `tau` over a step `dt` (seconds),
/// `y += gain * (x - y)`: 1 − e^(−dt/τ), exact for any step. τ ≤ 0 gives 1 (no smoothing: the output
/// is the input, so also at dt = τ = 0); otherwise dt ≤ 0 (or NaN) gives 0 (no time, no update).
///
/// ```swift
/// y += lowPassGain(dt: 0.01, tau: 5) * (x - y)
/// ```
@inlinable public func lowPassGain(dt: Double, tau: Double) -> Double {
    guard tau > 0 else { return 1 }
    guard dt > 0 else { return 0 }
    return lowPassGain(ratio: dt / tau)
}

/// 1 − e^(−x), the gain of a step `x` = dt / τ (x ≥ 0), for a filter that keeps 1 / τ and so needs
/// no division per step: by its series while x is small (the first omitted term is below 1e-9 of the
/// result), else `expm1`.
@inlinable @inline(__always) public func lowPassGain(ratio x: Double) -> Double {
    if x < 0.125 {
        return x * (1 - x * (0.5 - x * (1.0 / 6 - x * (1.0 / 24 - x * (1.0 / 120 - x * (1.0 / 720))))))
    }
    return -expm1(-x)
}

/// The mean of vectors; nil for none.
///
/// ```swift
/// mean([Vector3(0, 0, 1), Vector3(0, 0, 3)])   // (0, 0, 2)
/// ```
@inlinable public func mean(_ vectors: some Collection<Vector3>) -> Vector3? {
    guard !vectors.isEmpty else { return nil }
    return vectors.reduce(Vector3.zero, +) / Double(vectors.count)
}
