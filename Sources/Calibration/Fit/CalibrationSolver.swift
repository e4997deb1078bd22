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

    /// Fits all `samples` (raw readings in one unit, in recording order). Non-finite and saturated
    /// samples are dropped, and so are spikes far outside the cloud of the others
    /// (`SpikeFilter`), before anything is fitted.
    public func solve(_ samples: [Vector3]) -> Result<CalibrationResult, CalibrationFailure> {
        let usable = samples.filter(options.isUsable)
        let keep = SpikeFilter.mask(usable)
        let clean = zip(usable, keep).compactMap { $1 ? $0 : nil }
        var thinner = SampleThinner(spacing: thinningSpacing(for: clean))
        for s in clean { thinner.insert(s) }
        return solve(distinct: thinner.points, inputCount: samples.count, invalidCount: samples.count - usable.count,
                     sequence: clean, spikes: usable.count - clean.count)
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
    ///
    /// - Parameters:
    ///   - distinct: thinned samples in recording order.
    ///   - sequence: every usable sample in recording order, for the residual diagnosis (white
    ///     noise from successive samples, field changes); `distinct` when nil.
    ///   - spikes: samples already dropped as spikes by the caller.
    public func solve(distinct: [Vector3], inputCount: Int, invalidCount: Int, sequence: [Vector3]? = nil,
                      spikes: Int = 0) -> Result<CalibrationResult, CalibrationFailure> {
        let finite = distinct.filter(options.isUsable)
        // Samples that come with their sequence were filtered by `solve(_:)` already.
        let keep = sequence == nil ? SpikeFilter.mask(finite) : [Bool](repeating: true, count: finite.count)
        let points = zip(finite, keep).compactMap { $1 ? $0 : nil }
        let spikeCount = spikes + finite.count - points.count
        let need = options.thresholds.minimumSamples
        let invalid = invalidCount + distinct.count - finite.count
        guard points.count >= 12 else {
            return .failure(CalibrationFailure(issues: [.tooFewSamples(have: points.count, need: need)], result: nil))
        }
        // Centre and scale so the parameters are of order 1.
        let (centre, scale) = Self.centreAndScale(points)
        guard scale > 0, scale.isFinite else {
            // All samples identical (one pose, no noise), or readings too large to be real.
            return .failure(CalibrationFailure(issues: [scale == 0 ? .tooFewOrientations : .fitFailed], result: nil))
        }
        let q = points.map { ($0 - centre) / scale }
        if let axis = Self.planeAxis(q) {
            // A ring is the reason; its thinned sample count says nothing more.
            return .failure(CalibrationFailure(issues: [.singlePlane(axis: axis)], result: nil))
        }
        guard let all = ModelFitter(points: q, options: options).fitAll() else {
            var issues: [CalibrationIssue] = [.fitFailed]
            if points.count < need { issues.insert(.tooFewSamples(have: points.count, need: need), at: 0) }
            return .failure(CalibrationFailure(issues: issues, result: nil))
        }
        // Judge every candidate by its heading error. The richest model (soft iron included) is
        // the physical one: a simpler model cannot pass unless the user restricted the model,
        // because the soft iron it ignores could cost any amount of heading where the samples
        // did not reach; it is still the fit offered (and written with --force) when the richest
        // one is not pinned down.
        let inclination = options.expectedInclinationDegrees.flatMap { $0.isFinite && abs($0) < 89 ? $0 : nil }
            ?? options.thresholds.defaultInclinationDegrees
        func assess(_ c: ModelFitter.Candidate, on set: [Vector3]) -> (prediction: HeadingErrorPrediction, correlation: Double) {
            let residuals = zip(set, c.inliers).compactMap { $1 ? (c.fit.parameters.matrix * ($0 - c.fit.parameters.offset)).norm - 1 : nil }
            let rho = Self.lagOneCorrelation(residuals)
            return (Self.predictHeadingError(c.fit, correlation: rho, inclinationDegrees: inclination,
                                             tiltDegrees: options.thresholds.assessmentTiltDegrees), rho)
        }
        var candidates = all.candidates
        var assessments = candidates.map { assess($0, on: q) }
        let richest = candidates.count - 1
        // White noise averages out with the number of samples, so when it is most of the
        // scatter the richest model is refined on every sample (up to 8,000, evenly spread), not
        // only the thinned ones. Lingering in one pose cannot bias a fit whose scatter is noise.
        var refinedOnSequence = false
        if let sequence, sequence.count >= 2 * points.count,
           let refined = Self.refineOnSequence(candidates[richest], sequence: sequence, centre: centre, scale: scale,
                                               options: options) {
            candidates[richest] = refined.candidate
            assessments[richest] = assess(refined.candidate, on: refined.points)
            refinedOnSequence = true
        }
        let t = options.thresholds
        var index = all.chosen, underdetermined = all.underdetermined
        if assessments[richest].prediction.level <= t.maximumLevelHeadingError,
           assessments[richest].prediction.tilted <= t.maximumTiltedHeadingError,
           candidates[richest].fit.parameters.matrix.symmetricEigen().map({ $0.values.x > 0 }) == true {
            index = richest
            underdetermined = false
        }
        var chosen = candidates[index]
        if refinedOnSequence && index == richest {
            // Its inliers among the thinned samples, for the metrics.
            let p = chosen.fit.parameters
            chosen.inliers = RobustStatistics.inliers(q.map { (p.matrix * ($0 - p.offset)).norm - 1 },
                                                      k: options.outlierMADMultiple, floor: 0.01)
        }
        var prediction = assessments[index].prediction
        prediction.level = max(prediction.level, assessments[richest].prediction.level)
        prediction.tilted = max(prediction.tilted, assessments[richest].prediction.tilted)
        // Back to input units: M·((x − c)/s − o') = (M/s)·(x − (c + s·o')); then det(M) = 1.
        let rawMatrix = chosen.fit.parameters.matrix / scale
        let offset = centre + chosen.fit.parameters.offset * scale
        let det = rawMatrix.determinant
        guard det > 0, det.isFinite else {
            return .failure(CalibrationFailure(issues: [.fitFailed], result: nil))
        }
        let d = cubeRoot(det)
        var fit = EllipsoidFit(offset: offset, matrix: rawMatrix / d, fieldStrength: 1 / d, model: chosen.fit.model)
        guard fit.offset.isFinite, fit.matrix.isFinite, fit.fieldStrength.isFinite, fit.fieldStrength > 0 else {
            return .failure(CalibrationFailure(issues: [.fitFailed], result: nil))
        }
        // No worse than its seed: whatever model was chosen, when a full ellipsoid is allowed the fit is
        // compared with the plain algebraic one over every usable sample, and the smaller spread of |B|
        // is kept. (A simpler model is chosen only when the full one is not pinned down, a calibration
        // that is then refused: the algebraic ellipsoid describes such samples better, not the sensor.)
        let seed = options.maximumModel == .full ? Self.compareWithSeed(fit, samples: sequence ?? points) : nil
        if let seed, seed.comparison.keptAlgebraic { fit = seed.algebraic }
        let used = zip(points, chosen.inliers).compactMap { $1 ? $0 : nil }
        let metrics = QualityMetrics(samples: used, fit: fit, expectedFieldStrength: options.validExpectedField)
        var result = CalibrationResult(fit: fit, metrics: metrics, inputCount: inputCount, invalidCount: invalid,
                                       distinctCount: points.count, rejectedCount: points.count - used.count,
                                       conditionReciprocal: chosen.fit.conditionReciprocal, issues: [])
        result.spikeCount = spikeCount
        result.residualCorrelation = assessments[index].correlation
        result.headingError = prediction
        result.diagnosis = ResidualDiagnosis(sequence: sequence ?? used, fit: fit)
        result.seed = seed.map { seed in
            var comparison = seed.comparison
            if comparison.keptAlgebraic {
                comparison.reason = SeedComparison.reason(diagnosis: result.diagnosis, refinedModel: chosen.fit.model,
                                                          underdetermined: underdetermined, metrics: metrics,
                                                          residualLimitPercent: options.thresholds.maximumResidualPercent)
            }
            return comparison
        }
        result.issues = IssueEvaluator(options: options).issues(for: result, underdetermined: underdetermined)
        return result.passed ? .success(result) : .failure(CalibrationFailure(issues: result.issues, result: result))
    }

    /// The candidate refined on the whole sequence (centred and scaled like the thinned points),
    /// when its scatter is mostly white noise: successive samples differ by noise alone, so
    /// white² = (1.4826 · median |Δr|)² / 2 against the thinned fit's rms²; nil otherwise.
    static func refineOnSequence(_ candidate: ModelFitter.Candidate, sequence: [Vector3], centre: Vector3, scale: Double,
                                 options: CalibrationOptions) -> (candidate: ModelFitter.Candidate, points: [Vector3])? {
        let step = max(1, sequence.count / 8000)
        let qs = Swift.stride(from: 0, to: sequence.count, by: step).map { (sequence[$0] - centre) / scale }
        let p = candidate.fit.parameters
        // Geometric residuals, in the unit of the fit's rms: (|M·v| − 1) / det(M)^⅓.
        let g = cubeRoot(p.matrix.determinant)
        guard g > 0, g.isFinite else { return nil }
        let r = qs.map { ((p.matrix * ($0 - p.offset)).norm - 1) / g }
        let differences = (1..<max(1, r.count)).map { abs(r[$0] - r[$0 - 1]) }
        let white = 1.4826 * RobustStatistics.median(differences) / 2.0.squareRoot()
        // The thinned fit's rms is in the same (scaled) unit; white must be at least half the variance.
        guard white > 0, white * white >= 0.5 * candidate.fit.rms * candidate.fit.rms else { return nil }
        let fitter = ModelFitter(points: qs, options: options)
        guard let refined = fitter.robustRefine(candidate.fit.model, start: p, mask: [Bool](repeating: true, count: qs.count)),
              refined.fit.normalInverse != nil else { return nil }
        return (refined, qs)
    }

    /// The fit and the algebraic ellipsoid through `samples` (input units), each judged by the spread of
    /// |B| it leaves over them; nil when there is no algebraic ellipsoid.
    static func compareWithSeed(_ fit: EllipsoidFit, samples: [Vector3]) -> (comparison: SeedComparison, algebraic: EllipsoidFit)? {
        guard let algebraic = EllipsoidFit.algebraic(samples), algebraic.offset.isFinite, algebraic.matrix.isFinite,
              algebraic.matrix.symmetricEigen().map({ $0.values.x > 0 }) == true else { return nil }
        let refined = QualityMetrics.magnitudeSpreadPercent(samples.map(fit.apply))
        let seed = QualityMetrics.magnitudeSpreadPercent(samples.map(algebraic.apply))
        guard refined.isFinite, seed.isFinite else { return nil }
        // A simpler model was chosen because the full one is not pinned down: it stays the fit offered
        // unless the algebraic ellipsoid beats it by more than the goal's margin (fitting the noise with
        // nine parameters instead of four or six gains a little always).
        let kept = fit.model == .full ? seed < refined : refined > SeedComparison.margin * seed
        return (SeedComparison(refinedSpreadPercent: refined, algebraicSpreadPercent: seed, keptAlgebraic: kept,
                               refinedModel: fit.model),
                algebraic)
    }

    /// The mean of `points` and their RMS distance from it.
    static func centreAndScale(_ points: [Vector3]) -> (centre: Vector3, scale: Double) {
        guard !points.isEmpty else { return (.zero, 0) }
        var centre = Vector3.zero
        for p in points { centre += p }
        centre = centre / Double(points.count)
        var scale = 0.0
        for p in points { scale += (p - centre).squaredNorm }
        return (centre, (scale / Double(points.count)).squareRoot())
    }

    /// Lag-1 autocorrelation of residuals in recording order, clamped to [0, 0.999]: near 0 for
    /// white noise, near 1 when the residual follows the orientation or the time.
    static func lagOneCorrelation(_ r: [Double]) -> Double {
        guard r.count >= 3 else { return 0 }
        let mean = r.reduce(0, +) / Double(r.count)
        var num = 0.0, den = 0.0
        for i in r.indices {
            let d = r[i] - mean
            den += d * d
            if i > 0 { num += d * (r[i - 1] - mean) }
        }
        guard den > 0, num.isFinite, den.isFinite else { return 0 }
        return min(max(num / den, 0), 0.999)
    }

    /// The heading error the fit's uncertainty allows: covariance rms² · (JᵀJ)⁻¹, scaled by the
    /// samples per independent one, (1 + ρ)/(1 − ρ) (at most the sample count), propagated to
    /// the heading. Works in the fit's own centred, scaled coordinates: the heading depends only
    /// on the direction of the corrected field.
    static func predictHeadingError(_ fit: RefinedFit, correlation: Double, inclinationDegrees: Double,
                                    tiltDegrees: Double) -> HeadingErrorPrediction {
        guard let inverse = fit.normalInverse, let matrixInverse = fit.parameters.matrix.inverse else {
            return .unknown(tiltDegrees: tiltDegrees, inclinationDegrees: inclinationDegrees)
        }
        let inflation = min((1 + correlation) / (1 - correlation), Double(max(fit.count, 1)))
        let covariance = inverse * (fit.rms * fit.rms * inflation)
        let matrix = fit.parameters.matrix
        return HeadingErrorPrediction.propagate(covariance: covariance, inclinationDegrees: inclinationDegrees,
                                                tiltDegrees: tiltDegrees) { direction in
            HeadingErrorPrediction.columns(model: fit.model, matrix: matrix, v: matrixInverse * direction)
        }
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
