import Linear

/// Turns a fit and its metrics into the list of reasons it does not pass, most important first.
struct IssueEvaluator {
    let options: CalibrationOptions

    /// - Parameter underdetermined: the samples could not pin down any model well; coverage is
    ///   then reported as incomplete whatever the gap score.
    func issues(for result: CalibrationResult, underdetermined: Bool = false) -> [CalibrationIssue] {
        let t = options.thresholds
        let m = result.metrics
        var issues: [CalibrationIssue] = []
        if result.distinctCount < t.minimumSamples {
            issues.append(.tooFewSamples(have: result.distinctCount, need: t.minimumSamples))
        }
        let gapsShort = m.gaps >= t.maximumGaps || m.coveragePercent < t.minimumCoveragePercent
        let missing = m.coverage.missingSide
        // When no model is well determined, say so, unless the coverage can name the missing side.
        if gapsShort && (!underdetermined || missing != nil) {
            issues.append(.incompleteCoverage(coveragePercent: m.coveragePercent, gaps: m.gaps, missing: missing,
                                              inclinationDegrees: options.expectedInclinationDegrees))
        } else if underdetermined {
            issues.append(.tooFewOrientations)
        }
        let coverageShort = gapsShort || underdetermined
        if let ratio = m.fieldRatio {
            if ratio > t.fieldRatioRange.upperBound { issues.append(.fieldTooStrong(ratio: ratio)) }
            if ratio < t.fieldRatioRange.lowerBound { issues.append(.fieldTooWeak(ratio: ratio)) }
        }
        if let range = options.plausibleFieldRange, !range.contains(result.fit.fieldStrength) {
            issues.append(.fieldImplausible(value: result.fit.fieldStrength, range: range))
        }
        if let limit = options.fullScaleRange, limit > 0, result.fit.offset.norm > limit {
            issues.append(.offsetTooLarge(magnitude: result.fit.offset.norm, limit: limit))
        }
        if let ratio = softIronViolation(result.fit.matrix, t) {
            issues.append(.softIronTooStrong(axisRatio: ratio))
        }
        if result.distinctCount > 0,
           Double(result.rejectedCount) > t.maximumRejectedFraction * Double(result.distinctCount) {
            issues.append(.tooManyOutliers(rejected: result.rejectedCount, total: result.distinctCount))
        }
        if m.residualPercent > t.maximumResidualPercent {
            issues.append(.residualTooLarge(percent: m.residualPercent, limit: t.maximumResidualPercent))
        }
        if m.spreadAfterPercent > t.maximumSpreadPercent {
            issues.append(.spreadTooLarge(percent: m.spreadAfterPercent, limit: t.maximumSpreadPercent))
        }
        // Incomplete coverage makes the sample cloud lopsided by itself; report it once.
        if !coverageShort, m.wobblePercent > t.maximumWobblePercent {
            issues.append(.wobbleTooLarge(percent: m.wobblePercent, limit: t.maximumWobblePercent))
        }
        return issues
    }

    /// The eigenvalue ratio when the normalised soft-iron matrix is out of bounds, else nil.
    func softIronViolation(_ m: Matrix3, _ t: QualityThresholds) -> Double? {
        guard let e = m.symmetricEigen() else { return .infinity }
        let ratio = e.values.x > 0 ? e.values.z / e.values.x : .infinity
        let eigenOK = t.softIronEigenvalueRange.contains(e.values.x) && t.softIronEigenvalueRange.contains(e.values.z)
        let off = max(abs(m[0, 1]), abs(m[0, 2]), abs(m[1, 2]))
        return eigenOK && off <= t.maximumOffDiagonal ? nil : ratio
    }
}
