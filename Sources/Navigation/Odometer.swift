import Geodesy
import GNSS
import Glibc

/// The distance a receiver travelled, counted from movement rather than from position jitter.
///
/// Summing the distances between fixes counts their noise: a receiver at rest with ±10 m fixes
/// "travels" several metres a second. The odometer counts instead, for each interval between two
/// consecutive fixes:
///
/// 1. **Both fixes carry a speed, at most `maximumInterval` (5 s) apart:** the speed integrated
///    over the interval (trapezoid), where a speed that is not significant (below three times its
///    error, see `GroundVelocity`) counts as zero. Doppler speed is good to centimetres per second,
///    so a walk adds its length and a receiver at rest adds nothing.
/// 2. **Both carry a speed, further apart (a gap):** the geodesic between them, only when the
///    receiver was moving at either end, the move is beyond the fixes' error (see 3), and it is no
///    longer than the faster end's speed (plus its threshold) allows in the time. A jump that the
///    speed does not support, or one back in time, counts nothing.
/// 3. **A fix without a speed:** the displacement from the last counted point (the anchor), once it
///    exceeds 1.75 × √(e₁² + e₂²). With each `eph` the 95 % radius of its fix, that is the radius
///    a receiver at rest exceeds in one fix in 10 000 (for a 2D Gaussian the radius holding a
///    fraction p is σ·√(−2 ln(1 − p)), and √(−2 ln 10⁻⁴) / √(−2 ln 0.05) = 1.75). Straight moves
///    count in full, the corners of a winding one are cut. Across a gap nothing is counted.
///
/// ```swift
/// var odometer = Odometer()
/// for fix in fixes { odometer.add(fix) }
/// print(formatDistance(odometer.total))   // "1.23 km"
/// ```
public struct Odometer: Sendable {
    /// The factor on √(e₁² + e₂²) beyond which a displacement counts without a speed (rule 3).
    public static let displacementFactor = (-2 * log(1e-4)).squareRoot() / (-2 * log(0.05)).squareRoot()

    /// The error in metres assumed for a fix that carries no estimate.
    public var defaultHorizontalError: Double
    /// The speed error assumed when a fix gives none, m/s (see `GroundVelocity`).
    public var defaultSpeedError: Double
    /// The longest interval between fixes, seconds, over which speed is integrated; longer ones are
    /// gaps.
    public var maximumInterval: Double

    /// Distance travelled so far, metres.
    public private(set) var total = 0.0
    /// The previous fix added.
    public private(set) var previous: Fix?
    /// The last point counted up to (rule 3).
    private var anchor: Fix?

    public init(defaultHorizontalError: Double = 5, defaultSpeedError: Double = GroundVelocity.defaultSpeedError,
                maximumInterval: Double = 5) {
        self.defaultHorizontalError = defaultHorizontalError.isFinite ? max(0, defaultHorizontalError) : 5
        self.defaultSpeedError = defaultSpeedError.isFinite && defaultSpeedError > 0
            ? defaultSpeedError : GroundVelocity.defaultSpeedError
        self.maximumInterval = maximumInterval.isFinite && maximumInterval > 0 ? maximumInterval : 5
    }

    /// Counts the move to `fix` (which must have a position; others are ignored) and returns the
    /// metres added.
    @discardableResult
    public mutating func add(_ fix: Fix) -> Double {
        guard let here = point(fix) else { return 0 }
        guard let before = previous, let there = point(before) else {
            previous = fix
            anchor = fix
            return 0
        }
        previous = fix
        let added = step(from: before, there, to: fix, here)
        total += added
        return added
    }

    /// Starts again from zero.
    public mutating func reset() {
        total = 0
        previous = nil
        anchor = nil
    }

    private mutating func step(from before: Fix, _ there: GeoPoint, to fix: Fix, _ here: GeoPoint) -> Double {
        var dt: Double?
        if let t1 = before.time, let t2 = fix.time { dt = t2 - t1 }
        let isGap = dt.map { !($0 > 0 && $0 <= maximumInterval) } ?? false
        let v1 = GroundVelocity(fix: before, defaultSpeedError: defaultSpeedError)
        let v2 = GroundVelocity(fix: fix, defaultSpeedError: defaultSpeedError)

        if let v1, let v2, let dt {
            anchor = fix
            if !isGap {
                // Rule 1: the integrated speed.
                let s1 = v1.isMoving ? v1.speed : 0
                let s2 = v2.isMoving ? v2.speed : 0
                return (s1 + s2) / 2 * dt
            }
            // Rule 2: a gap, counted only when the speed supports it.
            guard dt > 0, v1.isMoving || v2.isMoving else { return 0 }
            let d = Geodesic.inverse(there, here).distance
            let reach = (max(v1.speed, v2.speed) + max(v1.movingThreshold, v2.movingThreshold)) * dt
            guard d.isFinite, d >= Self.displacementFactor * errorRadius(before, fix), d <= reach else { return 0 }
            return d
        }
        // Rule 3: no speed (or no time) at one end.
        guard !isGap, let start = anchor, let from = point(start) else {
            anchor = fix
            return 0
        }
        if let v2, !v2.isMoving { return 0 }
        let d = Geodesic.inverse(from, here).distance
        guard d.isFinite, d >= Self.displacementFactor * errorRadius(start, fix) else { return 0 }
        anchor = fix
        return d
    }

    private func errorRadius(_ a: Fix, _ b: Fix) -> Double {
        combinedError(a, b, default: defaultHorizontalError)
    }
}

/// √(e₁² + e₂²) of two fixes' horizontal errors, `default` standing in for a missing one.
func combinedError(_ a: Fix, _ b: Fix, default fallback: Double) -> Double {
    let e1 = a.horizontalError ?? fallback
    let e2 = b.horizontalError ?? fallback
    return (e1 * e1 + e2 * e2).squareRoot()
}

/// The fix's position as a `GeoPoint`, nil without a valid one.
func point(_ fix: Fix) -> GeoPoint? {
    guard let lat = fix.lat, let lon = fix.lon else { return nil }
    return try? GeoPoint(latitude: lat, longitude: lon)
}
