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

    /// From a latitude and longitude in the gazetteer's fixed units (1e-5°), through `FixedDegreeTrig`.
    @inline(__always) init(fixedLatitude: Int32, fixedLongitude: Int32) {
        let (sinPhi, cosPhi) = FixedDegreeTrig.sinCos(fixedLatitude)
        let (sinLambda, cosLambda) = FixedDegreeTrig.sinCos(fixedLongitude)
        x = cosPhi * cosLambda
        y = cosPhi * sinLambda
        z = sinPhi
    }

    @inline(__always) subscript(axis: Int) -> Double { axis == 0 ? x : (axis == 1 ? y : z) }

    @inline(__always) func chordSquared(_ o: UnitVector) -> Double {
        let dx = x - o.x, dy = y - o.y, dz = z - o.z
        return dx * dx + dy * dy + dz * dz
    }
}

/// Sine and cosine of an angle in the gazetteer's fixed units (1e-5°) without a call into libm: a
/// table of whole degrees and the remainder's Taylor series, summed by the angle-sum identities.
/// The remainder is below 1° (0.0175 rad), so the series to f⁷ (sine) and f⁸ (cosine) leave less
/// than 1e-21; the result is within a few units in the last place of libm's (a test). Why: the
/// tree search computes the unit vector of every place it visits, and libm's sin and cos were
/// nearly half of a `places near` query.
enum FixedDegreeTrig {
    /// Fixed units per degree.
    static let unitsPerDegree = 100_000
    /// sin and cos of 0°, 1°, …, 359°.
    static let table: [(sin: Double, cos: Double)] = (0..<360).map { d in
        let r = Double(d) * Double.pi / 180
        return (sin(r), cos(r))
    }

    @inline(__always) static func sinCos(_ units: Int32) -> (sin: Double, cos: Double) {
        var degrees = Int(units) / unitsPerDegree
        var rest = Int(units) % unitsPerDegree
        if rest < 0 { rest += unitsPerDegree; degrees -= 1 }
        degrees %= 360
        if degrees < 0 { degrees += 360 }
        let f = Double(rest) * (Double.pi / 180 / Double(unitsPerDegree))
        let f2 = f * f
        let sinF = f * (1 - f2 / 6 * (1 - f2 / 20 * (1 - f2 / 42)))
        let cosF = 1 - f2 / 2 * (1 - f2 / 12 * (1 - f2 / 30 * (1 - f2 / 56)))
        let whole = table[degrees]
        return (whole.sin * cosF + whole.cos * sinF, whole.cos * cosF - whole.sin * sinF)
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
        return UnitVector(fixedLatitude: lat, fixedLongitude: lon)
    }

    /// The `count` places nearest to a point on the sphere, nearest first (great-circle order on
    /// the sphere; `NearbySearch` re-ranks by the ellipsoid's geodesic).
    public func nearest(latitude: Double, longitude: Double, count k: Int) -> [SpatialHit] {
        nearest(latitude: latitude, longitude: longitude, count: k, widenedTo: { $0 }).nearest
    }

    /// The `count` places nearest on the sphere and, in the same walk of the tree, every place within
    /// `widen(c)` (squared chords) of the point, where c is the count-th nearest's squared chord
    /// (unordered). `widen` must be increasing and at least its argument: `NearbySearch` widens by
    /// the ellipsoid's curvature, so the candidates hold every place the geodesic may rank among
    /// the nearest. One walk instead of a search and then a second walk over the same cells.
    public func nearest(latitude: Double, longitude: Double, count k: Int,
                        widenedTo widen: @escaping (Double) -> Double) -> (nearest: [SpatialHit], candidates: [SpatialHit]) {
        guard k > 0, count > 0 else { return ([], []) }
        var walk = NearestWalk(k: k, widen: widen)
        var offsets = CellOffsets()
        nearest(UnitVector(latitude: latitude, longitude: longitude), 0, count, 0, &walk, &offsets, 0)
        let limit = walk.best.last.map { widen($0.chordSquared) } ?? .infinity
        return (walk.best, walk.candidates.filter { $0.chordSquared <= limit })
    }

    /// A subtree's cell is pruned by its squared distance from the query (`cellDistance`, the sum of
    /// the squared offsets of the query from the cell along each axis: Arya and Mount's incremental
    /// distance), not by the last split alone: in three dimensions that visits far fewer cells.
    private func nearest(_ q: UnitVector, _ lo: Int, _ hi: Int, _ depth: Int, _ walk: inout NearestWalk,
                         _ offsets: inout CellOffsets, _ cellDistance: Double) {
        if lo >= hi { return }
        let mid = (lo + hi) >> 1
        let v = unitVector(mid)
        walk.visit(SpatialHit(index: mid, chordSquared: v.chordSquared(q)))
        let axis = depth % 3
        let diff = q[axis] - v[axis]
        let (nearLo, nearHi, farLo, farHi) = diff < 0 ? (lo, mid, mid + 1, hi) : (mid + 1, hi, lo, mid)
        nearest(q, nearLo, nearHi, depth + 1, &walk, &offsets, cellDistance)
        let old = offsets[axis]
        let farDistance = cellDistance - old * old + diff * diff
        if farDistance <= walk.reach {
            offsets[axis] = diff
            nearest(q, farLo, farHi, depth + 1, &walk, &offsets, farDistance)
            offsets[axis] = old
        }
    }

    /// Every place within a chord distance of a point (unordered).
    public func within(latitude: Double, longitude: Double, chordSquared limit: Double) -> [SpatialHit] {
        var hits: [SpatialHit] = []
        var offsets = CellOffsets()
        within(UnitVector(latitude: latitude, longitude: longitude), 0, count, 0, limit + Self.splitSlack, &hits, &offsets, 0)
        return hits.filter { $0.chordSquared <= limit }
    }

    private func within(_ q: UnitVector, _ lo: Int, _ hi: Int, _ depth: Int, _ reach: Double, _ hits: inout [SpatialHit],
                        _ offsets: inout CellOffsets, _ cellDistance: Double) {
        if lo >= hi { return }
        let mid = (lo + hi) >> 1
        let v = unitVector(mid)
        let d2 = v.chordSquared(q)
        if d2 <= reach { hits.append(SpatialHit(index: mid, chordSquared: d2)) }
        let axis = depth % 3
        let diff = q[axis] - v[axis]
        let (nearLo, nearHi, farLo, farHi) = diff < 0 ? (lo, mid, mid + 1, hi) : (mid + 1, hi, lo, mid)
        within(q, nearLo, nearHi, depth + 1, reach, &hits, &offsets, cellDistance)
        let old = offsets[axis]
        let farDistance = cellDistance - old * old + diff * diff
        if farDistance <= reach {
            offsets[axis] = diff
            within(q, farLo, farHi, depth + 1, reach, &hits, &offsets, farDistance)
            offsets[axis] = old
        }
    }
}

/// The state of one nearest-places walk: the k nearest so far (nearest first), the candidates
/// within the widened reach, and that reach (squared chord, with the split slack) for pruning.
struct NearestWalk {
    let k: Int
    let widen: (Double) -> Double
    var best: [SpatialHit] = []
    var candidates: [SpatialHit] = []
    /// Cells farther than this cannot hold a candidate: infinite until k places are found.
    var reach = Double.infinity

    init(k: Int, widen: @escaping (Double) -> Double) {
        self.k = k
        self.widen = widen
        best.reserveCapacity(k + 1)
    }

    @inline(__always) mutating func visit(_ hit: SpatialHit) {
        if hit.chordSquared <= reach { candidates.append(hit) }
        guard best.count < k || hit.chordSquared < best[best.count - 1].chordSquared else { return }
        var i = best.count
        while i > 0 && best[i - 1].chordSquared > hit.chordSquared { i -= 1 }
        best.insert(hit, at: i)
        if best.count > k { best.removeLast() }
        if best.count == k { reach = widen(best[k - 1].chordSquared) + Gazetteer.splitSlack }
    }
}

/// The query's offset from a k-d cell along each axis (0 inside the cell's slab on that axis).
struct CellOffsets {
    private var x = 0.0, y = 0.0, z = 0.0

    @inline(__always) subscript(axis: Int) -> Double {
        get { axis == 0 ? x : (axis == 1 ? y : z) }
        set {
            switch axis {
            case 0: x = newValue
            case 1: y = newValue
            default: z = newValue
            }
        }
    }
}
