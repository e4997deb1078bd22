#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// How evenly field directions cover the sphere: 100 equal-area regions in 10 latitude bands
/// about the body z axis (1, 6, 11, 15, 17, 17, 15, 11, 6, 1 regions per band; each band's
/// height in z is proportional to its region count, so every region has the same area).
///
/// ```swift
/// var coverage = SphereCoverage()
/// coverage.add(direction: fit.apply(raw))
/// print(coverage.coveragePercent, coverage.gaps)
/// ```
public struct SphereCoverage: Sendable, Hashable {
    public static let regionCount = 100
    static let bandCounts = [1, 6, 11, 15, 17, 17, 15, 11, 6, 1]
    static let bandStarts: [Int] = {
        var starts: [Int] = [], sum = 0
        for c in bandCounts { starts.append(sum); sum += c }
        return starts
    }()

    /// Regions per latitude band, from the band around body +z (field out of the board's bottom)
    /// to the band around −z (out of its top). Within a band, region `i` of `n` spans longitudes
    /// atan2(y, x) from `i · 360° / n` to `(i + 1) · 360° / n`; region numbers run band by band.
    ///
    /// ```swift
    /// SphereCoverage.bandRegionCounts      // [1, 6, 11, 15, 17, 17, 15, 11, 6, 1]
    /// ```
    public static var bandRegionCounts: [Int] { bandCounts }

    /// Samples counted in each region.
    public private(set) var counts: [Int] = Array(repeating: 0, count: regionCount)

    public init() {}

    /// The region (0..<100) of a direction, or nil for a zero or non-finite vector.
    public static func region(of direction: Vector3) -> Int? {
        guard let u = direction.normalized else { return nil }
        let t = min(max((1 - u.z) / 2 * Double(regionCount), 0), Double(regionCount) - 1e-9)
        var band = 0
        while band + 1 < bandCounts.count, Double(bandStarts[band + 1]) <= t { band += 1 }
        var lon = atan2(u.y, u.x)
        if lon < 0 { lon += 2 * .pi }
        let cells = bandCounts[band]
        let cell = min(cells - 1, Int(lon / (2 * .pi) * Double(cells)))
        return bandStarts[band] + cell
    }

    /// The unit direction at the centre of a region.
    public static func centre(ofRegion region: Int) -> Vector3 {
        let r = min(max(region, 0), regionCount - 1)
        var band = 0
        while band + 1 < bandCounts.count, bandStarts[band + 1] <= r { band += 1 }
        let cells = bandCounts[band]
        let zTop = 1 - 2 * Double(bandStarts[band]) / Double(regionCount)
        let zBottom = 1 - 2 * Double(bandStarts[band] + cells) / Double(regionCount)
        if cells == 1 { return Vector3(0, 0, zTop > 0 ? 1 : -1) }
        let z = (zTop + zBottom) / 2
        let lon = (Double(r - bandStarts[band]) + 0.5) / Double(cells) * 2 * .pi
        let h = max(0, 1 - z * z).squareRoot()
        return Vector3(h * cos(lon), h * sin(lon), z)
    }

    /// `counts` grouped by latitude band, in the order of `bandRegionCounts`.
    public var countsByBand: [[Int]] {
        Self.bandCounts.indices.map { b in Array(counts[Self.bandStarts[b]..<(Self.bandStarts[b] + Self.bandCounts[b])]) }
    }

    /// Counts a direction (ignored when zero or non-finite).
    public mutating func add(direction: Vector3) {
        if let r = Self.region(of: direction) { counts[r] += 1 }
    }

    /// Regions holding at least one sample.
    public var coveredRegions: Int { counts.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } }

    /// Percentage of regions holding at least one sample.
    public var coveragePercent: Double { Double(coveredRegions) * 100 / Double(Self.regionCount) }

    /// Gap score: +1 per empty region, +0.2 per region with one sample, +0.01 with two.
    public var gaps: Double {
        counts.reduce(0.0) { acc, c in
            acc + (c == 0 ? 1 : (c == 1 ? 0.2 : (c == 2 ? 0.01 : 0)))
        }
    }

    /// Indices of the empty regions.
    public var emptyRegions: [Int] { counts.indices.filter { counts[$0] == 0 } }

    /// Empty regions whose centre lies within 60° of `side`'s axis.
    public func emptyRegionCount(toward side: BoardSide) -> Int {
        emptyRegions.reduce(0) { $0 + (Self.centre(ofRegion: $1).dot(side.axis) > 0.5 ? 1 : 0) }
    }

    /// The side of the board the missing field directions cluster around, or nil when nothing
    /// is missing or the gaps are scattered evenly.
    public var missingSide: BoardSide? {
        // Sum of the centres of empty (and nearly empty) regions. The centres of all regions sum
        // to zero, so this is also minus the sum over covered ones; it is long only when the
        // gaps, or the covered part, are bunched on one side. n scattered gaps sum to about √n.
        var sum = Vector3.zero
        var weight = 0.0
        for (r, c) in counts.enumerated() where c < 2 {
            let w = c == 0 ? 1.0 : 0.2
            sum += Self.centre(ofRegion: r) * w
            weight += w
        }
        let smaller = min(weight, Double(Self.regionCount) - weight)
        guard weight > 0, smaller > 0, sum.norm > max(0.4 * smaller, 1.5 * smaller.squareRoot()) else { return nil }
        return BoardSide.nearest(to: sum)
    }
}

/// A side of the board, named by the body axis pointing out of it (x forward, y right, z down).
public enum BoardSide: String, Sendable, Hashable, CaseIterable {
    case front, back, right, left, bottom, top

    /// The outward unit axis in body coordinates.
    public var axis: Vector3 {
        switch self {
        case .front: return Vector3(1, 0, 0)
        case .back: return Vector3(-1, 0, 0)
        case .right: return Vector3(0, 1, 0)
        case .left: return Vector3(0, -1, 0)
        case .bottom: return Vector3(0, 0, 1)
        case .top: return Vector3(0, 0, -1)
        }
    }

    /// Axis label such as "+x" or "−z".
    public var axisLabel: String {
        switch self {
        case .front: return "+x"
        case .back: return "-x"
        case .right: return "+y"
        case .left: return "-y"
        case .bottom: return "+z"
        case .top: return "-z"
        }
    }

    /// The side whose axis is closest to `v` (front for a zero vector).
    public static func nearest(to v: Vector3) -> BoardSide {
        allCases.max { $0.axis.dot(v) < $1.axis.dot(v) } ?? .front
    }
}
