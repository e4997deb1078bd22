#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// Turns a fit, its heading-error prediction and its diagnosis into the reasons it does not pass,
/// most important first. Refusals: too few samples, physical bounds (field strength, offset, soft
/// iron, outliers), a field change worth more than the level limit, and a predicted heading error
/// over the limits. Coverage, residual, spread and wobble only explain a refusal.
struct IssueEvaluator {
    let options: CalibrationOptions

    /// - Parameter underdetermined: no model was well determined; the explanation then says so
    ///   when the coverage cannot name what is missing.
    func issues(for result: CalibrationResult, underdetermined: Bool = false) -> [CalibrationIssue] {
        let t = options.thresholds
        let m = result.metrics
        var issues: [CalibrationIssue] = []
        if result.distinctCount < t.minimumSamples {
            issues.append(.tooFewSamples(have: result.distinctCount, need: t.minimumSamples))
        }
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
        if let change = result.diagnosis?.change {
            let heading = changeHeadingError(change, fieldStrength: result.fit.fieldStrength,
                                             inclination: result.headingError.inclinationDegrees)
            if heading > t.maximumLevelHeadingError {
                issues.append(.fieldChanged(fraction: change.fraction, index: change.index, shift: change.shift,
                                            headingDegrees: heading))
            }
        }
        let p = result.headingError
        let headingShort = !(p.level <= t.maximumLevelHeadingError) || !(p.tilted <= t.maximumTiltedHeadingError)
        if headingShort {
            issues.append(.headingErrorTooLarge(level: p.level, tilted: p.tilted, tiltDegrees: p.tiltDegrees,
                                                levelLimit: t.maximumLevelHeadingError,
                                                tiltedLimit: t.maximumTiltedHeadingError))
        }
        // Explanations, only when something already refuses the result.
        guard !issues.isEmpty else { return [] }
        let gapsShort = m.gaps >= t.maximumGaps || m.coveragePercent < t.minimumCoveragePercent
        let missing = m.coverage.missingSide
        if headingShort {
            if gapsShort && (!underdetermined || missing != nil) {
                issues.append(.incompleteCoverage(coveragePercent: m.coveragePercent, gaps: m.gaps, missing: missing,
                                                  inclinationDegrees: options.expectedInclinationDegrees))
            } else if underdetermined {
                issues.append(.tooFewOrientations)
            }
            if let d = result.diagnosis, d.whiteNoise > 0, d.systematic < d.whiteNoise {
                issues.append(.noisySensor(noise: d.whiteNoise, samples: result.usedCount))
            } else if m.residualPercent > t.maximumResidualPercent {
                issues.append(.residualTooLarge(percent: m.residualPercent, limit: t.maximumResidualPercent))
            } else if !gapsShort && !underdetermined && m.wobblePercent > t.maximumWobblePercent {
                issues.append(.wobbleTooLarge(percent: m.wobblePercent, limit: t.maximumWobblePercent))
            }
        }
        return issues
    }

    /// Heading error a field change leaves, degrees: the fit sits between the centres before and
    /// after, at least half the shift away from the one that stays; an offset error e costs up
    /// to e / H radians of heading, H the horizontal field.
    func changeHeadingError(_ change: ResidualDiagnosis.FieldChange, fieldStrength: Double, inclination: Double) -> Double {
        let horizontal = fieldStrength * cos(inclination * .pi / 180)
        guard horizontal > 0 else { return .infinity }
        let error = change.shift * max(change.fraction, 0.5)
        return atan(error / horizontal) * 180 / .pi
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
