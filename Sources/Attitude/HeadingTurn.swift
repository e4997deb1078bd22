#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The filter's heading correction, a rotation about the down axis, kept as the cosine and sine of
/// its half angle (the quaternion's w and z) rather than as an angle: the quaternion needs no sine
/// or cosine, the disagreement with the field is a dot and a cross product (no `atan2` while it is
/// small), a small step turns it by a short series, and there is nothing to wrap.
struct HeadingTurn: Sendable {
    /// cos(angle / 2) and sin(angle / 2).
    private(set) var halfCosine = 1.0
    private(set) var halfSine = 0.0

    init() {}

    /// The turn by `angle` radians (clockwise seen from above).
    init(radians angle: Double) {
        halfCosine = cos(angle / 2)
        halfSine = sin(angle / 2)
    }

    /// cos and sin of the whole angle.
    @inline(__always) var cosine: Double { halfCosine * halfCosine - halfSine * halfSine }
    @inline(__always) var sine: Double { 2 * halfCosine * halfSine }

    var isFinite: Bool { halfCosine.isFinite && halfSine.isFinite }

    /// The angle (radians, within ±π) by which this turn must turn further to bring a horizontal
    /// direction (x, y) (not necessarily of unit length) onto north: −(its heading + this angle).
    /// A large one (the field disagreeing by more than 0.1 rad) by a series from the last one
    /// worked out by `atan2` (`SlowAngle`, to rounding): a disagreement changes slowly as well.
    @inline(__always) func angle(toNorthFrom x: Double, _ y: Double, large: inout SlowAngle) -> Double {
        let c = cosine, s = sine
        let along = x * c - y * s, across = y * c + x * s
        // arctan of a small tangent by its series (the next term below 1e-16).
        if along > 0, abs(across) < 0.1 * along {
            return -arctangentSeries(across / along)
        }
        return -large.wrappedRadians(y: across, x: along)
    }

    /// Turns further by `delta` radians.
    @inline(__always) mutating func turn(by delta: Double) {
        let a = delta / 2
        let ca: Double, sa: Double
        if abs(a) < 0.01 {
            // cos and sin by their series, exact to rounding below 0.01 rad.
            let a2 = a * a
            ca = 1 - a2 * 0.5 * (1 - a2 * (1.0 / 12) * (1 - a2 * (1.0 / 30)))
            sa = a * (1 - a2 * (1.0 / 6) * (1 - a2 * (1.0 / 20) * (1 - a2 * (1.0 / 42))))
        } else {
            ca = cos(a); sa = sin(a)
        }
        let c = halfCosine * ca - halfSine * sa
        let s = halfSine * ca + halfCosine * sa
        // Back to unit length without a square root (it is off by rounding only), by the factor the
        // two squared lengths' product gives: worked out beside the turn, not after it.
        let k = (3 - (halfCosine * halfCosine + halfSine * halfSine) * (ca * ca + sa * sa)) * 0.5
        halfCosine = c * k
        halfSine = s * k
    }
}
