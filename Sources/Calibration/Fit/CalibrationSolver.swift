import Linear

/// Fits a magnetometer calibration: thinning, an algebraic start, Levenberg–Marquardt on the
/// radial residuals with robust outlier rejection, model selection, metrics and checks.
///
/// ```swift
/// let solver = CalibrationSolver(options: CalibrationOptions(expectedFieldStrength: 49.6))
/// switch solver.solve(rawSamples) {
/// case .success(let r): print(r.fit.offset, r.metrics.residualPercent)
/// case .failure(let f): print(f.message)
/// }
/// ```
public struct CalibrationSolver: Sendable {
    public var options: CalibrationOptions

    public init(options: CalibrationOptions = CalibrationOptions()) {
        self.options = options
    }

    /// Fits all `samples` (raw readings in one unit). Non-finite and saturated samples are dropped.
    public func solve(_ samples: [Vector3]) -> Result<CalibrationResult, CalibrationFailure> {
        let usable = samples.filter(options.isUsable)
        var thinner = SampleThinner(spacing: thinningSpacing(for: usable))
        for s in usable { thinner.insert(s) }
        return solve(distinct: thinner.points, inputCount: samples.count, invalidCount: samples.count - usable.count)
    }

    /// The minimum distance between kept samples: a fraction of the expected field, or of a
    /// robust radius estimate (median distance from the centre of the 2–98 % range).
    public func thinningSpacing(for samples: [Vector3]) -> Double {
        options.thinningFraction * (options.validExpectedField ?? Self.roughRadius(samples))
    }

    static func roughRadius(_ samples: [Vector3]) -> Double {
        guard samples.count >= 2 else { return 0 }
        var centre = Vector3.zero
        for axis in 0..<3 {
            let values = samples.map { $0[axis] }
            centre[axis] = 0.5 * (RobustStatistics.quantile(values, 0.02) + RobustStatistics.quantile(values, 0.98))
        }
        return RobustStatistics.median(samples.map { ($0 - centre).norm })
    }

    /// Fits already-thinned distinct samples.
    public func solve(distinct: [Vector3], inputCount: Int, invalidCount: Int) -> Result<CalibrationResult, CalibrationFailure> {
        let points = distinct.filter(options.isUsable)
        let need = options.thresholds.minimumSamples
        let invalid = invalidCount + distinct.count - points.count
        guard points.count >= 12 else {
            return .failure(CalibrationFailure(issues: [.tooFewSamples(have: points.count, need: need)], result: nil))
        }
        // Centre and scale so the parameters are of order 1.
        var centre = Vector3.zero
        for p in points { centre += p }
        centre = centre / Double(points.count)
        var scale = 0.0
        for p in points { scale += (p - centre).squaredNorm }
        scale = (scale / Double(points.count)).squareRoot()
        guard scale > 0, scale.isFinite else {
            // All samples identical (one pose, no noise), or readings too large to be real.
            return .failure(CalibrationFailure(issues: [scale == 0 ? .tooFewOrientations : .fitFailed], result: nil))
        }
        let q = points.map { ($0 - centre) / scale }
        if let axis = Self.planeAxis(q) {
            var issues: [CalibrationIssue] = [.singlePlane(axis: axis)]
            if points.count < need { issues.insert(.tooFewSamples(have: points.count, need: need), at: 0) }
            return .failure(CalibrationFailure(issues: issues, result: nil))
        }
        guard let (chosen, underdetermined) = ModelFitter(points: q, options: options).fitBest() else {
            var issues: [CalibrationIssue] = [.fitFailed]
            if points.count < need { issues.insert(.tooFewSamples(have: points.count, need: need), at: 0) }
            return .failure(CalibrationFailure(issues: issues, result: nil))
        }
        // Back to input units: M·((x − c)/s − o') = (M/s)·(x − (c + s·o')); then det(M) = 1.
        let rawMatrix = chosen.fit.parameters.matrix / scale
        let offset = centre + chosen.fit.parameters.offset * scale
        let det = rawMatrix.determinant
        guard det > 0, det.isFinite else {
            return .failure(CalibrationFailure(issues: [.fitFailed], result: nil))
        }
        let d = cubeRoot(det)
        let fit = EllipsoidFit(offset: offset, matrix: rawMatrix / d, fieldStrength: 1 / d, model: chosen.fit.model)
        guard fit.offset.isFinite, fit.matrix.isFinite, fit.fieldStrength.isFinite, fit.fieldStrength > 0 else {
            return .failure(CalibrationFailure(issues: [.fitFailed], result: nil))
        }
        let used = zip(points, chosen.inliers).compactMap { $1 ? $0 : nil }
        let metrics = QualityMetrics(samples: used, fit: fit, expectedFieldStrength: options.validExpectedField)
        var result = CalibrationResult(fit: fit, metrics: metrics, inputCount: inputCount, invalidCount: invalid,
                                       distinctCount: points.count, rejectedCount: points.count - used.count,
                                       conditionReciprocal: chosen.fit.conditionReciprocal, issues: [])
        result.issues = IssueEvaluator(options: options).issues(for: result, underdetermined: underdetermined)
        return result.passed ? .success(result) : .failure(CalibrationFailure(issues: result.issues, result: result))
    }

    /// The axis the samples turned about when they all lie near one plane (a flat ring), else nil.
    static func planeAxis(_ q: [Vector3]) -> BoardAxis? {
        var mean = Vector3.zero
        for p in q { mean += p }
        mean = mean / Double(q.count)
        var cov = Matrix3(rows: .zero, .zero, .zero)
        for p in q {
            let d = p - mean
            cov = cov + Matrix3(rows: d * d.x, d * d.y, d * d.z)
        }
        guard let e = (cov / Double(q.count)).symmetricEigen() else { return nil }
        // Thin in one direction compared with BOTH others (a flat ring), not merely elongated.
        guard e.values.y > 0, (max(e.values.x, 0) / e.values.y).squareRoot() < 0.12 else { return nil }
        let n = e.vector(0)
        let a = [abs(n.x), abs(n.y), abs(n.z)]
        if a[2] >= a[0] && a[2] >= a[1] { return .z }
        return a[0] >= a[1] ? .x : .y
    }
}
