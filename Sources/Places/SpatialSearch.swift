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

    /// The place of a tree node (`index`, at `depth`, `heapIndex` in heap order), from the cell
    /// table when it holds the node's position (the top cells' records lie a page apart in the
    /// gazetteer: read there, each would bring a page into memory for 8 bytes), else its record.
    @inline(__always) func nodeVector(_ index: Int, depth: Int, heapIndex: Int) -> UnitVector {
        if let cellBounds, depth < cellBounds.depth {
            let (lat, lon) = cellBounds.position(heapIndex)
            return UnitVector(fixedLatitude: lat, fixedLongitude: lon)
        }
        return unitVector(index)
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
        nearest(UnitVector(latitude: latitude, longitude: longitude), &walk)
        let limit = walk.best.last.map { widen($0.chordSquared) } ?? .infinity
        return (walk.best, walk.candidates.filter { $0.chordSquared <= limit })
    }

    /// Best first: cells wait in a queue by the least squared chord from the query to their box, and
    /// the walk always goes on from the nearest one, so a point far from every place (the ocean, a
    /// pole) finds its nearest places before it looks at far cells, and stops as soon as the nearest
    /// waiting cell lies beyond the reach. Below a visited place, the nearer child is walked at once
    /// and the other queued. A cell's box is its parent's cut at the split and, in the tree's top
    /// levels, narrowed to the box of its places (`CellBounds`); its distance is bounded below both
    /// by the box and by the plane of the box's corner farthest along the query (`CellBox`).
    private func nearest(_ q: UnitVector, _ walk: inout NearestWalk) {
        var queue = CellQueue()
        var root = PendingCell(lo: 0, hi: count, depth: 0, heapIndex: 0, box: CellBox.whole, bound: 0)
        prepare(&root, q)
        queue.push(root)
        while let next = queue.popNearest() {
            if next.bound > walk.reach { return }
            var cell = next
            while true {
                let mid = (cell.lo + cell.hi) >> 1
                let v = nodeVector(mid, depth: cell.depth, heapIndex: cell.heapIndex)
                walk.visit(SpatialHit(index: mid, chordSquared: v.chordSquared(q)))
                let axis = cell.depth % 3
                var left = PendingCell(lo: cell.lo, hi: mid, depth: cell.depth + 1, heapIndex: 2 * cell.heapIndex + 1,
                                       box: cell.box, bound: .infinity)
                var right = PendingCell(lo: mid + 1, hi: cell.hi, depth: cell.depth + 1,
                                        heapIndex: 2 * cell.heapIndex + 2, box: cell.box, bound: .infinity)
                left.box.cut(axis: axis, below: v[axis])
                right.box.cut(axis: axis, above: v[axis])
                prepare(&left, q)
                prepare(&right, q)
                let (near, far) = left.bound <= right.bound ? (left, right) : (right, left)
                if far.lo < far.hi, far.bound <= walk.reach { queue.push(far) }
                if near.lo >= near.hi || near.bound > walk.reach { break }
                cell = near
            }
        }
    }

    /// A cell's box narrowed to its places' box where `CellBounds` has one, and its bound from `q`
    /// (infinite for an empty cell).
    @inline(__always) private func prepare(_ cell: inout PendingCell, _ q: UnitVector) {
        guard cell.lo < cell.hi else {
            cell.bound = .infinity
            return
        }
        if let cellBounds, cell.depth < cellBounds.depth { cell.box.narrow(to: cellBounds, cell: cell.heapIndex) }
        cell.bound = cell.box.chordSquaredBound(from: q)
    }

    /// Every place within a chord distance of a point (unordered).
    public func within(latitude: Double, longitude: Double, chordSquared limit: Double) -> [SpatialHit] {
        var hits: [SpatialHit] = []
        var offsets = CellOffsets()
        within(UnitVector(latitude: latitude, longitude: longitude), 0, count, 0, 0, limit + Self.splitSlack, &hits,
               &offsets, 0)
        return hits.filter { $0.chordSquared <= limit }
    }

    private func within(_ q: UnitVector, _ lo: Int, _ hi: Int, _ depth: Int, _ heapIndex: Int, _ reach: Double,
                        _ hits: inout [SpatialHit], _ offsets: inout CellOffsets, _ cellDistance: Double) {
        if lo >= hi { return }
        let mid = (lo + hi) >> 1
        let v = nodeVector(mid, depth: depth, heapIndex: heapIndex)
        let d2 = v.chordSquared(q)
        if d2 <= reach { hits.append(SpatialHit(index: mid, chordSquared: d2)) }
        let axis = depth % 3
        let diff = q[axis] - v[axis]
        let (nearLo, nearHi, farLo, farHi) = diff < 0 ? (lo, mid, mid + 1, hi) : (mid + 1, hi, lo, mid)
        let (nearHeap, farHeap) = diff < 0 ? (2 * heapIndex + 1, 2 * heapIndex + 2) : (2 * heapIndex + 2, 2 * heapIndex + 1)
        within(q, nearLo, nearHi, depth + 1, nearHeap, reach, &hits, &offsets, cellDistance)
        let old = offsets[axis]
        let farDistance = cellDistance - old * old + diff * diff
        if farDistance <= reach {
            offsets[axis] = diff
            within(q, farLo, farHi, depth + 1, farHeap, reach, &hits, &offsets, farDistance)
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

/// A cell of the tree waiting to be walked: its range of places, depth, index in `CellBounds`'
/// heap order, box and the least squared chord from the query to it.
struct PendingCell {
    var lo: Int, hi: Int, depth: Int, heapIndex: Int
    var box: CellBox
    var bound: Double
}

/// An axis-aligned box around unit vectors, and a lower bound on the squared chord from a point on
/// the unit sphere to any unit vector in it.
struct CellBox {
    var low: (Double, Double, Double)
    var high: (Double, Double, Double)

    static let whole = CellBox(low: (-1, -1, -1), high: (1, 1, 1))

    @inline(__always) mutating func cut(axis: Int, below split: Double) {
        switch axis {
        case 0: high.0 = min(high.0, split)
        case 1: high.1 = min(high.1, split)
        default: high.2 = min(high.2, split)
        }
    }

    @inline(__always) mutating func cut(axis: Int, above split: Double) {
        switch axis {
        case 0: low.0 = max(low.0, split)
        case 1: low.1 = max(low.1, split)
        default: low.2 = max(low.2, split)
        }
    }

    /// The box cut to the box of cell `cell`'s places.
    @inline(__always) mutating func narrow(to bounds: CellBounds, cell: Int) {
        let b = bounds.box(cell)
        low = (max(low.0, b.low.0), max(low.1, b.low.1), max(low.2, b.low.2))
        high = (min(high.0, b.high.0), min(high.1, b.high.1), min(high.2, b.high.2))
    }

    /// At most the squared chord from unit vector `q` to any unit vector p in the box: the greater
    /// of the squared distance from q to the box, and 2 − 2 max(q·p) over the box's corners (for
    /// unit vectors the squared chord is 2 − 2 q·p, and a linear function is greatest at a corner).
    /// The second is the tighter for a large cell whose box reaches deep inside the sphere.
    @inline(__always) func chordSquaredBound(from q: UnitVector) -> Double {
        @inline(__always) func axis(_ v: Double, _ lo: Double, _ hi: Double) -> (Double, Double) {
            let gap = v < lo ? lo - v : (v > hi ? v - hi : 0)
            return (gap * gap, max(v * lo, v * hi))
        }
        let (gx, dx) = axis(q.x, low.0, high.0)
        let (gy, dy) = axis(q.y, low.1, high.1)
        let (gz, dz) = axis(q.z, low.2, high.2)
        return max(gx + gy + gz, 2 - 2 * (dx + dy + dz))
    }
}

/// The boxes of the places in the k-d tree's top cells, from `Tools/gazetteer/make_bounds.py`:
/// "LGB2", u32 place count, u32 depth D, then 2^D − 1 cells in heap order (children of i at 2i + 1
/// and 2i + 2) of 32 bytes: six little-endian f32 (min x, y, z, max x, y, z), already widened past
/// f32 rounding and the difference between the generator's sine and cosine and `FixedDegreeTrig`'s,
/// then the i32 latitude and longitude (1e-5°) of the cell's own place (its range's middle record).
struct CellBounds {
    let base: UnsafeRawPointer
    /// Cells of depth below this carry a box.
    let depth: Int

    static let headerSize = 12
    static let cellSize = 32

    init?(bytes: UnsafeRawPointer, size: Int, placeCount: Int) {
        guard size >= Self.headerSize, bytes.load(as: UInt8.self) == 0x4C, (bytes + 1).load(as: UInt8.self) == 0x47,
              (bytes + 2).load(as: UInt8.self) == 0x42, (bytes + 3).load(as: UInt8.self) == 0x32 else { return nil }
        let count = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
        let depth = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        guard count == placeCount, depth >= 1, depth <= 24, size == Self.headerSize + ((1 << depth) - 1) * Self.cellSize else { return nil }
        base = bytes + Self.headerSize
        self.depth = depth
    }

    @inline(__always) func box(_ cell: Int) -> CellBox {
        @inline(__always) func f(_ i: Int) -> Double {
            Double(Float(bitPattern: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: cell * Self.cellSize + 4 * i,
                                                                              as: UInt32.self))))
        }
        return CellBox(low: (f(0), f(1), f(2)), high: (f(3), f(4), f(5)))
    }

    /// Latitude and longitude (1e-5°) of cell `cell`'s own place.
    @inline(__always) func position(_ cell: Int) -> (Int32, Int32) {
        let o = cell * Self.cellSize + 24
        return (Int32(littleEndian: base.loadUnaligned(fromByteOffset: o, as: Int32.self)),
                Int32(littleEndian: base.loadUnaligned(fromByteOffset: o + 4, as: Int32.self)))
    }
}

/// The cells waiting in a best-first walk: a binary min-heap on their bound.
struct CellQueue {
    private var cells: [PendingCell] = []

    init() { cells.reserveCapacity(64) }

    mutating func push(_ cell: PendingCell) {
        cells.append(cell)
        var i = cells.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            if cells[parent].bound <= cells[i].bound { break }
            cells.swapAt(parent, i)
            i = parent
        }
    }

    mutating func popNearest() -> PendingCell? {
        guard let last = cells.popLast() else { return nil }
        guard !cells.isEmpty else { return last }
        let top = cells[0]
        cells[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < cells.count, cells[l].bound < cells[m].bound { m = l }
            if r < cells.count, cells[r].bound < cells[m].bound { m = r }
            if m == i { break }
            cells.swapAt(m, i)
            i = m
        }
        return top
    }
}
