/// Median and median-absolute-deviation helpers for outlier rejection.
enum RobustStatistics {
    /// The median of finite values (0 for an empty array).
    static func median(_ values: [Double]) -> Double {
        let v = values.filter(\.isFinite).sorted()
        guard !v.isEmpty else { return 0 }
        let mid = v.count / 2
        return v.count % 2 == 1 ? v[mid] : 0.5 * (v[mid - 1] + v[mid])
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
        let v = values.filter(\.isFinite).sorted()
        guard !v.isEmpty else { return 0 }
        let i = Int((Double(v.count - 1) * min(max(q, 0), 1)).rounded())
        return v[i]
    }
}
