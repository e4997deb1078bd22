import Linear

/// The samples of one series that fell into one time bucket, reduced to what a pixel column shows:
/// the first, the smallest, the largest and the last value with their times ("M4" downsampling).
///
/// Angle series are unwrapped inside the bucket (each value continues from the previous one by the
/// shortest turn), so a heading wandering across north gives, say, 355…365 rather than 0…360.
public struct BucketExtent: Sendable, Equatable {
    public var count: Int32 = 0
    public var first = 0.0, last = 0.0, min = 0.0, max = 0.0
    public var firstTime: Int64 = 0, lastTime: Int64 = 0, minTime: Int64 = 0, maxTime: Int64 = 0
    /// The last value as given (wrapped into [0, 360) for angles), to continue from.
    var lastGiven = 0.0

    public init() {}

    @inline(__always)
    mutating func add(_ value: Double, at time: Int64, isAngle: Bool) {
        if count == 0 {
            first = value; last = value; min = value; max = value
            firstTime = time; lastTime = time; minTime = time; maxTime = time
            lastGiven = value
            count = 1
            return
        }
        let u = isAngle ? last + angleDifference(value, lastGiven) : value
        last = u
        lastGiven = value
        lastTime = time
        if u < min { min = u; minTime = time }
        if u > max { max = u; maxTime = time }
        count &+= 1
    }

    /// This extent followed by a later one, in this extent's unwrapped frame.
    func merged(with later: BucketExtent, isAngle: Bool) -> BucketExtent {
        if later.count == 0 { return self }
        if count == 0 { return later }
        let shift = isAngle ? (last + angleDifference(later.first, lastGiven)) - later.first : 0
        var m = self
        m.count = count &+ later.count
        m.last = later.last + shift
        m.lastGiven = later.lastGiven
        m.lastTime = later.lastTime
        if later.min + shift < m.min { m.min = later.min + shift; m.minTime = later.minTime }
        if later.max + shift > m.max { m.max = later.max + shift; m.maxTime = later.maxTime }
        return m
    }

    /// The points to draw, in time order: first, the extremes in the order they occurred, last.
    public var points: [(time: Int64, value: Double)] {
        guard count > 0 else { return [] }
        var out: [(time: Int64, value: Double)] = [(firstTime, first)]
        let extremes = minTime <= maxTime ? [(minTime, min), (maxTime, max)] : [(maxTime, max), (minTime, min)]
        for p in extremes + [(lastTime, last)] {
            if let previous = out.last, previous.time == p.0 && previous.value == p.1 { continue }
            out.append((p.0, p.1))
        }
        return out
    }
}

/// Which series the plot keeps per bucket.
public enum PlotSeriesKind: Int, Sendable, CaseIterable {
    case trueHeading = 0, magneticHeading = 1, field = 2

    var isAngle: Bool { self != .field }
}

/// Downsampled plot data for a log of any length: at most `2 × columns` time buckets. The bucket
/// width starts small and doubles (merging neighbours) whenever the log outgrows the buckets, so a
/// single pass with fixed memory serves a 1-million-row file.
public struct PlotSeries: Sendable {
    public let columns: Int
    /// Time of the first row, ms since 1970.
    public private(set) var origin: Int64?
    /// Bucket width, ms.
    public private(set) var width: Int64 = 100
    /// Extents per bucket, indexed [bucket * 3 + kind].
    public private(set) var extents: [BucketExtent]
    /// Buckets in use (the highest filled index + 1).
    public private(set) var used = 0

    public init(columns: Int = 900) {
        self.columns = max(16, columns)
        extents = [BucketExtent](repeating: BucketExtent(), count: self.columns * 2 * 3)
    }

    var capacity: Int { columns * 2 }

    /// Adds a row's values at time `t` (ms since 1970); nil values are skipped.
    @inline(__always)
    public mutating func add(at t: Int64, trueHeading: Double?, magneticHeading: Double?, field: Double?) {
        guard let origin else {
            origin = t
            add(at: t, trueHeading: trueHeading, magneticHeading: magneticHeading, field: field)
            return
        }
        var index = Int(max(0, t - origin) / width)
        if index < used - 1 { index = used - 1 }   // a clock stepping back stays in the current bucket
        while index >= capacity {
            halve()
            index = Int(max(0, t - origin) / width)
            if index < used - 1 { index = used - 1 }
        }
        if index >= used { used = index + 1 }
        let base = index * 3
        if let trueHeading { extents[base].add(trueHeading, at: t, isAngle: true) }
        if let magneticHeading { extents[base + 1].add(magneticHeading, at: t, isAngle: true) }
        if let field { extents[base + 2].add(field, at: t, isAngle: false) }
    }

    /// Merges neighbouring buckets pairwise and doubles the width.
    private mutating func halve() {
        let newUsed = (used + 1) / 2
        for i in 0..<newUsed {
            for kind in PlotSeriesKind.allCases {
                let a = extents[(2 * i) * 3 + kind.rawValue]
                let b = 2 * i + 1 < used ? extents[(2 * i + 1) * 3 + kind.rawValue] : BucketExtent()
                extents[i * 3 + kind.rawValue] = a.merged(with: b, isAngle: kind.isAngle)
            }
        }
        for i in newUsed..<capacity { for k in 0..<3 { extents[i * 3 + k] = BucketExtent() } }
        used = newUsed
        width *= 2
    }

    /// The extent of one series in one bucket.
    public func extent(_ kind: PlotSeriesKind, bucket: Int) -> BucketExtent { extents[bucket * 3 + kind.rawValue] }

    /// True when the series has at least one value.
    public func hasData(_ kind: PlotSeriesKind) -> Bool {
        (0..<used).contains { extents[$0 * 3 + kind.rawValue].count > 0 }
    }
}
