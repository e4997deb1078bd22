#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The angle of a direction that turns little from one sample to the next (the field's dip), without
/// an `atan2` per sample: the angle of the last direction worked out by `atan2` (the anchor), plus the
/// small angle from it to the new direction by the arctangent's series (its cross and dot product
/// with the anchor). Exact to a few units of rounding, 1e-16 rad; once the direction has turned
/// further than the series covers (0.1 rad), it becomes the anchor.
struct SlowAngle: Sendable {
    private var anchor = (x: 0.0, y: 0.0, radians: 0.0)

    init() {}

    /// atan2(y, x) in radians, to rounding.
    @inline(__always) mutating func radians(y: Double, x: Double) -> Double {
        if let angle = nearAnchor(y: y, x: x) { return angle }
        let angle = atan2(y, x)
        anchor = (x, y, angle)
        return angle
    }

    /// The same, within (−π, π] (an angle that goes right round).
    @inline(__always) mutating func wrappedRadians(y: Double, x: Double) -> Double {
        guard var angle = nearAnchor(y: y, x: x) else { return radians(y: y, x: x) }
        if angle > Double.pi { angle -= 2 * Double.pi } else if angle <= -Double.pi { angle += 2 * Double.pi }
        return angle
    }

    /// The anchor's angle plus the series, nil when (x, y) is too far from the anchor (or there is none).
    @inline(__always) private func nearAnchor(y: Double, x: Double) -> Double? {
        let along = x * anchor.x + y * anchor.y, across = y * anchor.x - x * anchor.y
        guard along > 0, abs(across) < 0.1 * along else { return nil }
        return anchor.radians + arctangentSeries(across / along)
    }
}

/// arctan t for |t| < 0.1 by its series, exact to rounding (the next term is below 1e-16). The
/// terms in t², t⁴ and t⁸ are summed in pairs (Estrin's scheme) rather than nested one inside the
/// next: the same terms, half as long a chain of dependent multiplications, which is what an
/// update waits on.
@inline(__always) func arctangentSeries(_ t: Double) -> Double {
    let t2 = t * t
    let t4 = t2 * t2
    let t8 = t4 * t4
    let low = (1 - t2 * (1.0 / 3)) + t4 * (1.0 / 5 - t2 * (1.0 / 7))
    let high = (1.0 / 9 - t2 * (1.0 / 11)) + t4 * (1.0 / 13)
    return t * (low + t8 * high)
}
