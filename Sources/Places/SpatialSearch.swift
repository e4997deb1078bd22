import Glibc

/// A point on the unit sphere (x towards 0°N 0°E, z towards the north pole) for the gazetteer's
/// k-d tree: chord length orders places exactly as great-circle distance on the sphere does.
struct UnitVector {
    var x: Float, y: Float, z: Float

    init(latitude: Double, longitude: Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        x = Float(cos(phi) * cos(lambda))
        y = Float(cos(phi) * sin(lambda))
        z = Float(sin(phi))
    }

    subscript(axis: Int) -> Float { axis == 0 ? x : (axis == 1 ? y : z) }
}

/// A place found by a spatial search, with its squared chord distance on the unit sphere.
public struct SpatialHit: Sendable, Equatable {
    public var index: Int
    public var chordSquared: Float
}

extension Gazetteer {
    /// The `count` places nearest to a point on the sphere, nearest first (great-circle order on
    /// the sphere; `NearbySearch` re-ranks by the ellipsoid's geodesic).
    public func nearest(latitude: Double, longitude: Double, count k: Int) -> [SpatialHit] {
        guard k > 0, count > 0 else { return [] }
        var best: [SpatialHit] = []
        best.reserveCapacity(k + 1)
        let q = UnitVector(latitude: latitude, longitude: longitude)
        nearest(q, 0, count, 0, k, &best)
        return best
    }

    private func nearest(_ q: UnitVector, _ lo: Int, _ hi: Int, _ depth: Int, _ k: Int, _ best: inout [SpatialHit]) {
        if lo >= hi { return }
        let mid = (lo + hi) >> 1
        let d2 = chordSquared(mid, q)
        if best.count < k || d2 < best[best.count - 1].chordSquared {
            var i = best.count
            while i > 0 && best[i - 1].chordSquared > d2 { i -= 1 }
            best.insert(SpatialHit(index: mid, chordSquared: d2), at: i)
            if best.count > k { best.removeLast() }
        }
        let axis = depth % 3
        let diff = q[axis] - coordinate(mid, axis: axis)
        if diff < 0 {
            nearest(q, lo, mid, depth + 1, k, &best)
            if best.count < k || diff * diff < best[best.count - 1].chordSquared { nearest(q, mid + 1, hi, depth + 1, k, &best) }
        } else {
            nearest(q, mid + 1, hi, depth + 1, k, &best)
            if best.count < k || diff * diff < best[best.count - 1].chordSquared { nearest(q, lo, mid, depth + 1, k, &best) }
        }
    }

    /// The squared chord between place `i` and the point `q` on the unit sphere.
    @inline(__always)
    private func chordSquared(_ i: Int, _ q: UnitVector) -> Float {
        let dx = coordinate(i, axis: 0) - q.x, dy = coordinate(i, axis: 1) - q.y, dz = coordinate(i, axis: 2) - q.z
        return dx * dx + dy * dy + dz * dz
    }

    /// Every place within a chord distance of a point (unordered).
    public func within(latitude: Double, longitude: Double, chordSquared limit: Float) -> [SpatialHit] {
        var hits: [SpatialHit] = []
        within(UnitVector(latitude: latitude, longitude: longitude), 0, count, 0, limit, &hits)
        return hits
    }

    private func within(_ q: UnitVector, _ lo: Int, _ hi: Int, _ depth: Int, _ limit: Float, _ hits: inout [SpatialHit]) {
        if lo >= hi { return }
        let mid = (lo + hi) >> 1
        let d2 = chordSquared(mid, q)
        if d2 <= limit { hits.append(SpatialHit(index: mid, chordSquared: d2)) }
        let axis = depth % 3
        let diff = q[axis] - coordinate(mid, axis: axis)
        if diff < 0 || diff * diff <= limit { within(q, lo, mid, depth + 1, limit, &hits) }
        if diff >= 0 || diff * diff <= limit { within(q, mid + 1, hi, depth + 1, limit, &hits) }
    }
}
