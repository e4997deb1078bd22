import Linear

/// Keeps a sample only when no kept sample lies within `spacing` of it, so lingering in one pose
/// does not dominate the fit. A spatial hash grid with cells twice the spacing makes each
/// insertion O(1): a neighbour closer than the spacing can only lie in the sample's cell or the
/// adjacent cell on the nearer side along each axis (a 2×2×2 block).
///
/// ```swift
/// var thinner = SampleThinner(spacing: 0.07 * 50)
/// for s in samples { thinner.insert(s) }
/// let distinct = thinner.points
/// ```
public struct SampleThinner: Sendable {
    public let spacing: Double
    public private(set) var points: [Vector3] = []
    private let inverseCell: Double
    private let spacingSquared: Double
    /// Open hash table of chain heads (index into `points`, −1 empty); its size is a power of two.
    private var heads: [Int32] = []
    /// Next point in the same hash chain (−1 ends).
    private var next: [Int32] = []

    /// - Parameter spacing: the minimum distance between kept samples (input units); values that
    ///   are not positive and finite keep every finite sample.
    public init(spacing: Double) {
        let s = spacing.isFinite && spacing > 0 ? spacing : 0
        self.spacing = s
        inverseCell = s > 0 ? 0.5 / s : 0
        spacingSquared = s * s
        heads = [Int32](repeating: -1, count: 1024)
    }

    /// Number of kept samples.
    public var count: Int { points.count }

    /// Inserts `v` when it is finite and far enough from every kept sample; returns whether it was kept.
    @discardableResult
    public mutating func insert(_ v: Vector3) -> Bool {
        guard v.isFinite else { return false }
        guard spacing > 0 else { points.append(v); return true }
        let fx = v.x * inverseCell, fy = v.y * inverseCell, fz = v.z * inverseCell
        let limit = Double(Int32.max / 2)
        guard abs(fx) < limit, abs(fy) < limit, abs(fz) < limit else { return false }
        let cx = fx.rounded(.down), cy = fy.rounded(.down), cz = fz.rounded(.down)
        let x = Int64(cx), y = Int64(cy), z = Int64(cz)
        // The neighbouring cell on the nearer side along each axis.
        let sx: Int64 = fx - cx < 0.5 ? -1 : 1, sy: Int64 = fy - cy < 0.5 ? -1 : 1, sz: Int64 = fz - cz < 0.5 ? -1 : 1
        for dx in [0, sx] {
            for dy in [0, sy] {
                for dz in [0, sz] {
                    var i = heads[slot(x + dx, y + dy, z + dz)]
                    while i >= 0 {
                        if (points[Int(i)] - v).squaredNorm < spacingSquared { return false }
                        i = next[Int(i)]
                    }
                }
            }
        }
        if points.count * 2 >= heads.count { grow() }
        let s = slot(x, y, z)
        next.append(heads[s])
        heads[s] = Int32(points.count)
        points.append(v)
        return true
    }

    private func slot(_ x: Int64, _ y: Int64, _ z: Int64) -> Int {
        var h = UInt64(bitPattern: x) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt64(bitPattern: y) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= UInt64(bitPattern: z) &* 0x1656_67B1_9E37_79F9
        h ^= h >> 29
        return Int(truncatingIfNeeded: h & UInt64(heads.count - 1))
    }

    /// Doubles the table and re-links every kept point.
    private mutating func grow() {
        heads = [Int32](repeating: -1, count: heads.count * 2)
        for (k, p) in points.enumerated() {
            let s = slot(Int64((p.x * inverseCell).rounded(.down)), Int64((p.y * inverseCell).rounded(.down)),
                         Int64((p.z * inverseCell).rounded(.down)))
            next[k] = heads[s]
            heads[s] = Int32(k)
        }
    }
}
