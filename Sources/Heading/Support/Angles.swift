#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

// Small angle and filter helpers shared by the Heading stages (internal: other modules have their own).

/// An angle in degrees normalised to [0, 360): `Linear.wrap360`.
@inline(__always)
func normalizeDegrees(_ angle: Double) -> Double { wrap360(angle) }

/// The smallest signed difference a − b of two angles in degrees, in (−180, 180]: `Linear.angleDifference`.
@inline(__always)
func signedDifference(_ a: Double, _ b: Double) -> Double { angleDifference(a, b) }

/// The weight α of a new sample in a first-order low-pass: `Linear.lowPassGain(dt:tau:)` (τ ≤ 0
/// gives 1, else dt ≤ 0 gives 0).
@inline(__always)
func smoothingFactor(dt: Double, tau: Double) -> Double { lowPassGain(dt: dt, tau: tau) }

/// atan(r) in degrees for r ≥ 0, by its series when small (the per-sample accuracy terms are).
@inline(__always)
func atanDegrees(_ r: Double) -> Double {
    if r < 0.1 {
        let r2 = r * r
        return deg(r * (1 - r2 * (1.0 / 3 - r2 * (1.0 / 5 - r2 * (1.0 / 7 - r2 * (1.0 / 9))))))
    }
    return deg(atan(r))
}

/// The heading error (degrees) that a horizontal field error of `r` times the horizontal field, in
/// any direction, stays within 90 % of the time: about atan(r) while it is small (the error across
/// the field, at most), asin(cos 9° · r) as it grows (the 10 % of directions nearest the worst), and,
/// once the error is as large as the field itself and the heading can point anywhere,
/// atan2(r sin 162°, 1 + r cos 162°), which tends to 162°. Plain atan(r) stops at 90°, promising
/// ±90° for a heading that is as likely to be 150° off.
@inline(__always)
func headingErrorBoundDegrees(_ r: Double) -> Double {
    guard r.isFinite else { return 180 }
    if r < 1 {
        let nearWorst = 0.98768834059513777 * r   // cos 9°: the worst 10 % of directions
        return nearWorst < 0.15 ? atanDegrees(r) : Swift.max(atanDegrees(r), deg(asin(nearWorst)))
    }
    let bound = deg(atan2(0.30901699437494742 * r, 1 - 0.95105651629515357 * r))   // sin, cos 162°
    return bound >= 135 ? 180 : bound
}

/// The standard-deviation reduction of white noise through a first-order low-pass in steady state:
/// √(α / (2 − α)) (≈ √(dt / 2τ) for small α).
@inline(__always)
func noiseReduction(alpha: Double) -> Double {
    guard alpha > 0 else { return 0 }
    guard alpha < 1 else { return 1 }
    return (alpha / (2 - alpha)).squareRoot()
}

/// Time constant of an adaptive first-order filter: `slow` when the smoothed innovation is within the
/// noise threshold, shrinking smoothly towards `fast` as it grows past it:
/// τ = fast + (slow − fast) / (1 + (|innovation| / threshold)²).
@inline(__always)
func adaptiveTimeConstant(slow: Double, fast: Double, innovation: Double, threshold: Double) -> Double {
    let r = innovation / threshold
    return adaptiveTimeConstant(slow: slow, fast: fast, squaredRatio: r * r)
}

/// The same with (innovation / threshold)² given.
@inline(__always)
func adaptiveTimeConstant(slow: Double, fast: Double, squaredRatio: Double) -> Double {
    guard slow > fast else { return slow }
    let t = fast + (slow - fast) / (1 + squaredRatio)
    return t.isFinite ? t : fast
}

@inline(__always) func rad(_ degrees: Double) -> Double { radians(degrees) }
@inline(__always) func deg(_ radians: Double) -> Double { degrees(radians) }

/// `smoothingFactor(dt:tau:)` remembered across samples: with a steady sample rate the interval
/// hardly changes, so the exponential is recomputed only when τ changes or dt moves by more than 1 ppm.
struct SmoothingFactorCache: Sendable, Hashable {
    private var tau = -1.0
    private var dt = 0.0
    private var alpha = 0.0
    /// `noiseReduction(alpha:)` of the current factor.
    private(set) var reduction = 0.0

    init() {}

    @inline(__always)
    mutating func factor(dt newDt: Double, tau newTau: Double) -> Double {
        if newTau == tau && abs(newDt - dt) <= 1e-6 * dt { return alpha }
        dt = newDt
        tau = newTau
        alpha = smoothingFactor(dt: newDt, tau: newTau)
        reduction = noiseReduction(alpha: alpha)
        return alpha
    }
}
