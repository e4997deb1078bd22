import Linear

extension QualityMetrics {
    /// std/mean of |v| over the finite samples, % (100 when undefined). Applied to raw readings it is
    /// the "spread before"; to corrected ones, the "spread after".
    ///
    /// ```swift
    /// let before = QualityMetrics.magnitudeSpreadPercent(raw)
    /// let after = QualityMetrics.magnitudeSpreadPercent(raw.map(fit.apply))
    /// ```
    public static func magnitudeSpreadPercent(_ samples: [Vector3]) -> Double {
        var moments = RunningMoments()
        for v in samples where v.isFinite { moments.add(v.norm) }
        return moments.relativeSpreadPercent
    }

    /// Root-mean-square of |v| − `fieldStrength` over the finite samples, % of `fieldStrength`
    /// (100 when undefined). For raw readings and the expected field it says how far the
    /// uncalibrated sensor is from the truth; for corrected ones it is the fit's residual.
    ///
    /// ```swift
    /// let before = QualityMetrics.radialResidualPercent(raw, fieldStrength: 57.3)
    /// ```
    public static func radialResidualPercent(_ samples: [Vector3], fieldStrength: Double) -> Double {
        guard fieldStrength > 0, fieldStrength.isFinite else { return 100 }
        var sum = 0.0, n = 0
        for v in samples where v.isFinite {
            let d = v.norm - fieldStrength
            sum += d * d
            n += 1
        }
        guard n > 0 else { return 100 }
        let value = (sum / Double(n)).squareRoot() / fieldStrength * 100
        return value.isFinite ? value : 100
    }
}
