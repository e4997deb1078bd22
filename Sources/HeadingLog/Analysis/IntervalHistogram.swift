/// The intervals between consecutive rows, kept as a histogram so a log of any length needs a fixed
/// amount of memory: millisecond bins up to a minute, then one-second bins up to a day.
///
/// Gaps are intervals longer than three times the median interval.
///
/// ```swift
/// var h = IntervalHistogram()
/// for d in [100, 100, 101, 99, 2500] { h.add(milliseconds: d) }
/// h.median            // 100
/// h.gaps(above: 300)  // count 1, longest 2500
/// ```
public struct IntervalHistogram: Sendable {
    private static let fineLimit = 60_000            // ms
    private static let coarseBins = 86_400 - 60      // one per second, 60 s … 1 day
    private var fine = [Int32](repeating: 0, count: fineLimit)
    private var coarse = [Int32](repeating: 0, count: coarseBins)
    private var beyond = 0
    public private(set) var count = 0
    /// The longest interval, ms, and where it started (ms since 1970).
    public private(set) var longest: (length: Int64, start: Int64)?

    public init() {}

    /// Adds one non-negative interval that started at `start` (ms since 1970).
    @inline(__always)
    public mutating func add(milliseconds d: Int64, start: Int64 = 0) {
        guard d >= 0 else { return }
        if d < Self.fineLimit {
            fine[Int(d)] &+= 1
        } else {
            let bin = Int((d - Int64(Self.fineLimit)) / 1000)
            if bin < Self.coarseBins { coarse[bin] &+= 1 } else { beyond += 1 }
        }
        count += 1
        if let current = longest, current.length >= d { return }
        longest = (d, start)
    }

    /// The lower bound of the bin an interval of rank `rank` (0-based, ascending) falls in, ms.
    private func value(atRank rank: Int) -> Int64? {
        guard rank >= 0, rank < count else { return nil }
        var seen = 0
        for (i, c) in fine.enumerated() where c > 0 {
            seen += Int(c)
            if seen > rank { return Int64(i) }
        }
        for (i, c) in coarse.enumerated() where c > 0 {
            seen += Int(c)
            if seen > rank { return Int64(Self.fineLimit + i * 1000) }
        }
        return longest?.length
    }

    /// The median interval, ms (the mean of the two middle ones for an even count).
    public var median: Double? {
        guard count > 0 else { return nil }
        let low = value(atRank: (count - 1) / 2), high = value(atRank: count / 2)
        guard let low, let high else { return nil }
        return Double(low + high) / 2
    }

    /// How many intervals are longer than `threshold` ms, and the longest of them.
    public func gaps(above threshold: Double) -> (count: Int, longest: Int64?) {
        var n = 0
        for (i, c) in fine.enumerated() where c > 0 && Double(i) > threshold { n += Int(c) }
        for (i, c) in coarse.enumerated() where c > 0 && Double(Self.fineLimit + i * 1000) > threshold { n += Int(c) }
        n += beyond
        guard n > 0, let longest else { return (0, nil) }
        return (n, longest.length)
    }
}
