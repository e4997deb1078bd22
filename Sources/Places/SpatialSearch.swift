import Glibc

/// A point on the unit sphere (x towards 0°N 0°E, z towards the north pole) for the gazetteer's
/// k-d tree: chord length orders places exactly as great-circle distance on the sphere does.
struct UnitVector {
    var x: Double, y: Double, z: Double

    init(latitude: Double, longitude: Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let c = cos(phi)
        x = c * cos(lambda)
        y = c * sin(lambda)
        z = sin(phi)
    }

    @inline(__always) subscript(axis: Int) -> Double { axis == 0 ? x : (axis == 1 ? y : z) }

    @inline(__always) func chordSquared(_ o: UnitVector) -> Double {
        let dx = x - o.x, dy = y - o.y, dz = z - o.z
        return dx * dx + dy * dy + dz * dz
    }
}

/// A place found by a spatial search, with its squared chord distance on the unit sphere.
public struct SpatialHit: Sendable, Equatable {
    public var index: Int
    public var chordSquared: Double
}

extension Gazetteer {
    /// The k-d tree was built from the same unit vectors computed in another language: a place
    /// may sit this far (squared chord) on the wrong side of a split, so pruning keeps that slack.
    static let splitSlack = 1e-12

    /// Place `index` on the unit sphere (from its stored latitude and longitude, exactly as the
    /// generator computed it).
    @inline(__always) func unitVector(_ index: Int) -> UnitVector {
        let (lat, lon) = fixedPosition(index)
        return UnitVector(latitude: Double(lat) / 1e5, longitude: Double(lon) / 1e5)
    }

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
        let v = unitVector(mid)
        let d2 = v.chordSquared(q)
        if best.count < k || d2 < best[best.count - 1].chordSquared {
            var i = best.count
            while i > 0 && best[i - 1].chordSquared > d2 { i -= 1 }
            best.insert(SpatialHit(index: mid, chordSquared: d2), at: i)
            if best.count > k { best.removeLast() }
        }
        let axis = depth % 3
        let diff = q[axis] - v[axis]
        if diff < 0 {
            nearest(q, lo, mid, depth + 1, k, &best)
            if best.count < k || diff * diff <= best[best.count - 1].chordSquared + Self.splitSlack {
                nearest(q, mid + 1, hi, depth + 1, k, &best)
            }
        } else {
            nearest(q, mid + 1, hi, depth + 1, k, &best)
            if best.count < k || diff * diff <= best[best.count - 1].chordSquared + Self.splitSlack {
                nearest(q, lo, mid, depth + 1, k, &best)
            }
        }
    }

    /// Every place within a chord distance of a point (unordered).
    public func within(latitude: Double, longitude: Double, chordSquared limit: Double) -> [SpatialHit] {
        var hits: [SpatialHit] = []
        within(UnitVector(latitude: latitude, longitude: longitude), 0, count, 0, limit, &hits)
        return hits
    }

    private func within(_ q: UnitVector, _ lo: Int, _ hi: Int, _ depth: Int, _ limit: Double, _ hits: inout [SpatialHit]) {
        if lo >= hi { return }
        let mid = (lo + hi) >> 1
        let v = unitVector(mid)
        let d2 = v.chordSquared(q)
        if d2 <= limit { hits.append(SpatialHit(index: mid, chordSquared: d2)) }
        let axis = depth % 3
        let diff = q[axis] - v[axis]
        let reach = limit + Self.splitSlack
        if diff < 0 || diff * diff <= reach { within(q, lo, mid, depth + 1, limit, &hits) }
        if diff >= 0 || diff * diff <= reach { within(q, mid + 1, hi, depth + 1, limit, &hits) }
    }
}
