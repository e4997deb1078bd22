/// Median and median-absolute-deviation helpers for outlier rejection. Order statistics use a
/// selection (expected linear time), not a sort: they run over every sample of a recording.
enum RobustStatistics {
    /// The median of finite values (0 for an empty array).
    static func median(_ values: [Double]) -> Double {
        var v = values.filter(\.isFinite)
        guard !v.isEmpty else { return 0 }
        let mid = v.count / 2
        let upper = select(&v, mid)
        guard v.count % 2 == 0 else { return upper }
        // The lower middle is the largest of the part left of `mid` after selection.
        var lower = v[0]
        for i in 1..<mid { lower = max(lower, v[i]) }
        return 0.5 * (lower + upper)
    }

    /// Inlier mask: |r − median| ≤ max(k · 1.4826 · MAD, floor). Non-finite residuals are outliers.
    static func inliers(_ residuals: [Double], k: Double, floor: Double) -> [Bool] {
        let med = median(residuals)
        let mad = median(residuals.map { abs($0 - med) })
        let limit = max(k * 1.4826 * mad, floor)
        return residuals.map { $0.isFinite && abs($0 - med) <= limit }
    }

    /// The value at fraction `q` (0…1) of the sorted finite values (nearest rank).
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        var v = values.filter(\.isFinite)
        guard !v.isEmpty else { return 0 }
        return select(&v, Int((Double(v.count - 1) * min(max(q, 0), 1)).rounded()))
    }

    /// Rearranges `v` so that `v[k]` is the value a sort would put there, everything before it is
    /// no larger and everything after no smaller (Hoare's selection, median-of-three pivots); returns `v[k]`.
    static func select(_ v: inout [Double], _ k: Int) -> Double {
        var low = 0, high = v.count - 1
        while high > low {
            let mid = low + (high - low) / 2
            if v[mid] < v[low] { v.swapAt(mid, low) }
            if v[high] < v[low] { v.swapAt(high, low) }
            if v[high] < v[mid] { v.swapAt(high, mid) }
            let pivot = v[mid]
            var i = low, j = high
            while i <= j {
                while v[i] < pivot { i += 1 }
                while v[j] > pivot { j -= 1 }
                if i <= j { v.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { high = j } else if k >= i { low = i } else { break }
        }
        return v[k]
    }
}
