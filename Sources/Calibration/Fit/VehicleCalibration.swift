#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// Calibrates a compass fixed in a vehicle from slow full circles (a ring: turning about the
/// vertical with small roll and pitch), which an ellipsoid fit cannot do: from a ring alone the
/// vertical offset and the vertical soft-iron terms are unobservable.
///
/// Two constraints make them observable: the World Magnetic Model's field strength F and
/// inclination I at the place, and the accelerometer's gravity direction d (down, body axes).
/// The fit finds the hard iron o (all three axes) and a symmetric soft-iron matrix M so that
/// each corrected sample c = M·(x − o) has |c| = F and c·d = F·sin I, by Levenberg–Marquardt on
/// both residuals, each weighted by its own robust noise, with outliers re-selected by MAD. The
/// one combination a level ring leaves loose (the vertical gain against the vertical offset) is
/// pinned down by the tilts in the recording; it barely matters for the heading near level, and
/// the predicted heading error — at level and at `assessmentTiltDegrees` — says how much.
///
/// ```swift
/// var options = CalibrationOptions(expectedFieldStrength: 57.3, expectedInclinationDegrees: -64.4)
/// switch VehicleCalibration(options: options).solve(magnetic: mags, acceleration: accels) {
/// case .success(let r): print(r.headingError.level, r.fit.offset)
/// case .failure(let f): print(f.message)
/// }
/// ```
public struct VehicleCalibration: Sendable {
    public var options: CalibrationOptions

    /// The tilt at which a vehicle calibration is judged, degrees: cars on slopes and boats
    /// under way roll and pitch by up to ~10°; the 20° of a hand-held compass does not apply.
    public static let assessmentTiltDegrees = 10.0
    /// Samples needed (after pairing and outlier removal): two slow circles at 10 Hz or more.
    public static let minimumSamples = 200
    /// Heading bins (of 18, 20° each) the circles must cover: pypilot's "280°". On a shorter arc the
    /// linearised covariance underestimates the error (a quarter circle: ±2.0° predicted, 3.0° actual).
    public static let minimumHeadingBins = 14

    public init(options: CalibrationOptions) {
        self.options = options
    }

    /// Fits paired magnetometer (any one unit) and accelerometer (any unit; only the direction is
    /// used) samples in recording order. Needs `options.expectedFieldStrength` (in the
    /// magnetometer's unit) and `options.expectedInclinationDegrees`.
    public func solve(magnetic: [Vector3], acceleration: [Vector3?]) -> Result<CalibrationResult, CalibrationFailure> {
        guard let dipDegrees = options.expectedInclinationDegrees, dipDegrees.isFinite, abs(dipDegrees) < 89 else {
            return .failure(CalibrationFailure(issues: [.ringNeedsLocation], result: nil))
        }
        // Pairs with a finite reading of both; accelerations far from the median magnitude are
        // the vehicle speeding up, braking or bumping, not gravity.
        var mags: [Vector3] = [], downs: [Vector3] = []
        let norms = acceleration.compactMap { $0.flatMap { $0.isFinite ? $0.norm : nil } }
        let g = RobustStatistics.median(norms)
        let usable = magnetic.filter(options.isUsable)
        let keep = SpikeFilter.mask(magnetic, fullScale: options.fullScaleRange)
        let spikes = usable.count - keep.filter { $0 }.count
        for (i, m) in magnetic.enumerated() where i < acceleration.count && keep[i] {
            guard let a = acceleration[i], a.isFinite, g > 0, abs(a.norm - g) < 0.15 * g else { continue }
            mags.append(m)
            downs.append(a * (-1 / a.norm))
        }
        let invalid = magnetic.count - usable.count
        guard mags.count >= 12 else {
            return .failure(CalibrationFailure(issues: [.tooFewSamples(have: mags.count, need: Self.minimumSamples)], result: nil))
        }
        // The field strength only sets the scale of the output (it trades against the matrix's
        // scale); in an unknown unit it is estimated from the circles' radius and the dip.
        guard let field = options.validExpectedField ?? Self.roughField(mags, downs: downs, inclinationDegrees: dipDegrees) else {
            return .failure(CalibrationFailure(issues: [.fitFailed], result: nil))
        }
        // Work with x' = (x − centre)/F, so |c'| = 1 and the parameters are of order 1.
        var centre = Vector3.zero
        for m in mags { centre += m }
        centre = centre / Double(mags.count)
        let points = mags.map { ($0 - centre) / field }
        let dip = dipDegrees * .pi / 180
        let vertical = sin(dip)
        guard var params = Self.start(points, downs: downs, vertical: vertical) else {
            return .failure(CalibrationFailure(issues: [.fitFailed], result: nil))
        }
        // Noise of the readings and of the down direction, from successive samples (white noise
        // doubles the variance of a difference; slow turning hardly shows).
        let readingNoise = max(Self.successiveNoise(points), 1e-9)
        let downNoise = Self.successiveNoise(downs)
        let ratio = downNoise / readingNoise
        var mask = [Bool](repeating: true, count: points.count)
        var solution: VehicleLM.Solution?
        for _ in 0..<3 {
            guard let s = VehicleLM.refine(points, downs: downs, mask: mask, start: params, vertical: vertical,
                                           noiseRatio: ratio, priorScale: readingNoise) else { break }
            solution = s
            params = s.parameters
            let (r1, r2) = VehicleLM.residuals(points, downs: downs, params, vertical: vertical, noiseRatio: ratio)
            let m1 = RobustStatistics.inliers(r1, k: options.outlierMADMultiple, floor: 1e-4)
            let m2 = RobustStatistics.inliers(r2, k: options.outlierMADMultiple, floor: 1e-4)
            let next = zip(m1, m2).map { $0 && $1 }
            if next == mask { break }
            mask = next
        }
        guard let s = solution, let inverse = s.normalInverse, let matrixInverse = params.matrix.inverse else {
            return .failure(CalibrationFailure(issues: [.fitFailed], result: nil))
        }
        // Tilt the accelerometer saw beyond its own noise. Under a degree the vertical terms rest
        // on the prior, and accelerometer noise would pass for information about them: the
        // tilted heading error is then unknown, and only the level one is judged.
        let tiltObserved = Self.tiltSignal(downs, noise: downNoise) >= Self.minimumTiltSignal
        // Back to input units: c = F·M'·(x' − o') = M'·(x − (centre + F·o')).
        let offset = centre + params.offset * field
        let det = params.matrix.determinant
        guard det > 0, det.isFinite else { return .failure(CalibrationFailure(issues: [.fitFailed], result: nil)) }
        let d = cubeRoot(det)
        let fit = EllipsoidFit(offset: offset, matrix: params.matrix / d, fieldStrength: field / d, model: .full)
        guard fit.offset.isFinite, fit.matrix.isFinite, fit.fieldStrength.isFinite else {
            return .failure(CalibrationFailure(issues: [.fitFailed], result: nil))
        }
        let used = zip(mags, mask).compactMap { $1 ? $0 : nil }
        let usedDowns = zip(downs, mask).compactMap { $1 ? $0 : nil }
        let (r1, r2) = VehicleLM.residuals(points, downs: downs, params, vertical: vertical, noiseRatio: ratio)
        let kept1 = zip(r1, mask).compactMap { $1 ? $0 : nil }
        let kept2 = zip(r2, mask).compactMap { $1 ? $0 : nil }
        let rho = max(CalibrationSolver.lagOneCorrelation(kept1), CalibrationSolver.lagOneCorrelation(kept2))
        let inflation = min((1 + rho) / (1 - rho), Double(max(used.count, 1)))
        let prediction = HeadingErrorPrediction.propagate(
            covariance: inverse * (s.rms * s.rms * inflation), inclinationDegrees: dipDegrees,
            tiltDegrees: Self.assessmentTiltDegrees) { direction in
            HeadingErrorPrediction.columns(model: .full, matrix: params.matrix, v: matrixInverse * direction)
        }
        let metrics = QualityMetrics(samples: used, fit: fit, expectedFieldStrength: field)
        var result = CalibrationResult(fit: fit, metrics: metrics, inputCount: magnetic.count, invalidCount: invalid,
                                       distinctCount: mags.count, rejectedCount: mags.count - used.count,
                                       conditionReciprocal: s.conditionReciprocal, issues: [])
        result.spikeCount = spikes
        result.residualCorrelation = rho
        result.headingError = prediction
        if !tiltObserved { result.headingError.tilted = .infinity }
        result.headingBins = Self.headingBins(used.map(fit.apply), downs: usedDowns)
        result.method = .vehicle
        result.issues = issues(for: result, judgeTilted: tiltObserved)
        return result.passed ? .success(result) : .failure(CalibrationFailure(issues: result.issues, result: result))
    }

    /// Refusals: too few samples, physical bounds, a predicted heading error over the limits (the
    /// tilted one at `assessmentTiltDegrees`), less than 280° of the heading circle.
    func issues(for result: CalibrationResult, judgeTilted: Bool) -> [CalibrationIssue] {
        let t = options.thresholds
        var issues: [CalibrationIssue] = []
        if result.usedCount < Self.minimumSamples {
            issues.append(.tooFewSamples(have: result.usedCount, need: Self.minimumSamples))
        }
        let evaluator = IssueEvaluator(options: options)
        if let limit = options.fullScaleRange, limit > 0, result.fit.offset.norm > limit {
            issues.append(.offsetTooLarge(magnitude: result.fit.offset.norm, limit: limit))
        }
        if let ratio = evaluator.softIronViolation(result.fit.matrix, t) {
            issues.append(.softIronTooStrong(axisRatio: ratio))
        }
        if result.distinctCount > 0,
           Double(result.rejectedCount) > t.maximumRejectedFraction * Double(result.distinctCount) {
            issues.append(.tooManyOutliers(rejected: result.rejectedCount, total: result.distinctCount))
        }
        let p = result.headingError
        if !(p.level <= t.maximumLevelHeadingError) || (judgeTilted && !(p.tilted <= t.maximumTiltedHeadingError)) {
            issues.append(.headingErrorTooLarge(level: p.level, tilted: p.tilted, tiltDegrees: p.tiltDegrees,
                                                levelLimit: t.maximumLevelHeadingError,
                                                tiltedLimit: t.maximumTiltedHeadingError))
        }
        // Less than pypilot's 280° of the circle is refused outright: on a short arc the fit is far
        // from linear in its parameters, and the predicted error is no longer to be trusted.
        if let bins = result.headingBins, bins < Self.minimumHeadingBins {
            issues.append(.headingCircleIncomplete(bins: bins, of: 18))
        }
        return issues
    }

    /// 20° heading bins covered by the corrected field's horizontal direction (of 18).
    static func headingBins(_ corrected: [Vector3], downs: [Vector3]) -> Int {
        headingSectors(corrected, acceleration: downs.map { $0 * -1 }).filter { $0 }.count
    }

    /// Which of the 18 20° heading sectors the horizontal part of `corrected` (body axes) pointed
    /// into, horizontal being square to gravity from `acceleration` (a level accelerometer reads
    /// (0, 0, −1)); sector 0 starts at the body's x axis projected level. Samples without an
    /// acceleration are skipped.
    ///
    /// ```swift
    /// let covered = VehicleCalibration.headingSectors(mags.map(fit.apply), acceleration: accels).filter { $0 }.count
    /// ```
    public static func headingSectors(_ corrected: [Vector3], acceleration: [Vector3?]) -> [Bool] {
        var sectors = [Bool](repeating: false, count: 18)
        for (c, a) in zip(corrected, acceleration) {
            guard let a, a.isFinite, let down = (a * -1).normalized,
                  let north = (Vector3(1, 0, 0) - down * down.x).normalized else { continue }
            let east = down.cross(north)
            var angle = atan2(c.dot(east), c.dot(north)) * 180 / .pi
            if angle < 0 { angle += 360 }
            guard angle.isFinite else { continue }
            sectors[min(17, Int(angle / 20))] = true
        }
        return sectors
    }

    /// Whether a recording's gravity says it was turned in circles rather than tumbled: the
    /// direction of gravity stays within 15° of its mean for 95 % of the samples (pypilot fits in
    /// 2D when the gravity spread is under 0.25 g, about 14.5°).
    ///
    /// ```swift
    /// if VehicleCalibration.isCircling(accelerations) { /* use VehicleCalibration */ }
    /// ```
    public static func isCircling(_ acceleration: [Vector3?]) -> Bool {
        let downs = acceleration.compactMap { a -> Vector3? in
            guard let a, a.isFinite, a.norm > 0 else { return nil }
            return a / a.norm
        }
        guard downs.count >= 12 else { return false }
        var mean = Vector3.zero
        for d in downs { mean += d }
        guard let axis = mean.normalized else { return false }
        let within = downs.filter { $0.dot(axis) >= cos(15 * Double.pi / 180) }.count
        return Double(within) >= 0.95 * Double(downs.count)
    }

    /// The total field in the samples' unit, from the RMS radius of the circles square to gravity
    /// and the dip: H / cos I.
    static func roughField(_ mags: [Vector3], downs: [Vector3], inclinationDegrees: Double) -> Double? {
        var mean = Vector3.zero, down = Vector3.zero
        for m in mags { mean += m }
        for d in downs { down += d }
        mean = mean / Double(mags.count)
        guard let axis = down.normalized else { return nil }
        var sum = 0.0
        for m in mags {
            let v = m - mean
            sum += (v - axis * v.dot(axis)).squaredNorm
        }
        let horizontal = (sum / Double(mags.count)).squareRoot()
        let field = horizontal / cos(inclinationDegrees * .pi / 180)
        return field.isFinite && field > 0 ? field : nil
    }

    /// Tilts smaller than this (RMS, radians: 1°) are not taken as information about the vertical terms.
    static let minimumTiltSignal = 1.0 * .pi / 180

    /// RMS tilt of the down directions about their mean, with the noise's share removed, radians.
    static func tiltSignal(_ downs: [Vector3], noise: Double) -> Double {
        guard !downs.isEmpty else { return 0 }
        var mean = Vector3.zero
        for d in downs { mean += d }
        mean = mean / Double(downs.count)
        var sum = 0.0
        for d in downs { sum += (d - mean).squaredNorm }
        return max(sum / Double(downs.count) - 2 * noise * noise, 0).squareRoot()
    }

    /// Per-axis white noise of a sequence of vectors: 1.4826 · median |Δ| / √2 over successive
    /// samples, averaged over the axes.
    static func successiveNoise(_ v: [Vector3]) -> Double {
        guard v.count >= 3 else { return 0 }
        var total = 0.0
        for axis in 0..<3 {
            let differences = (1..<v.count).map { abs(v[$0][axis] - v[$0 - 1][axis]) }
            total += 1.4826 * RobustStatistics.median(differences) / 2.0.squareRoot()
        }
        return total / 3
    }

    /// A start for a level-ish ring: a circle fit in the plane square to the mean gravity gives
    /// the horizontal centre and the scale (horizontal field / circle radius); the dip constraint
    /// gives the vertical offset.
    static func start(_ points: [Vector3], downs: [Vector3], vertical: Double) -> UnitSphereParameters? {
        var mean = Vector3.zero
        for d in downs { mean += d }
        guard let down = mean.normalized else { return nil }
        let helper = abs(down.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
        guard let u = (helper - down * down.dot(helper)).normalized else { return nil }
        let v = down.cross(u)
        // Algebraic circle: a² + b² = 2·c₁a + 2·c₂b + k.
        var normal = DenseMatrix(n: 3)
        var rhs = [0.0, 0, 0]
        var verticalSum = 0.0
        for p in points {
            let a = p.dot(u), b = p.dot(v)
            let row = [2 * a, 2 * b, 1]
            for i in 0..<3 { rhs[i] += row[i] * (a * a + b * b) }
            normal.addOuterUpper(row)
            verticalSum += p.dot(down)
        }
        normal.symmetrize()
        guard let s = normal.solve(rhs) else { return nil }
        let radius2 = s[2] + s[0] * s[0] + s[1] * s[1]
        let horizontal = max(1 - vertical * vertical, 1e-6).squareRoot()
        guard radius2 > 0 else { return nil }
        let scale = horizontal / radius2.squareRoot()
        let height = verticalSum / Double(points.count) - vertical / scale
        let offset = u * s[0] + v * s[1] + down * height
        return UnitSphereParameters(offset: offset, matrix: Matrix3.diagonal(Vector3(scale, scale, scale)))
    }
}

/// Levenberg–Marquardt for the vehicle model (field strength 1), parameters packed as
/// `UnitSphereParameters.packed(.full)`. Each sample gives two residuals, both as distances in
/// the raw reading's space (first-order geometric, Sampson's): (|c| − 1)/|M·ĉ| and
/// (c·d − sin I)/√(|M·d|² + (σ_d/σ_x)²·|c − (c·d)d|²), with c = M·(x − o), d the unit down
/// direction, σ_x the reading noise and σ_d the gravity direction's. Dividing by how much the
/// reading's noise moves each residual matters: plain residuals reward shrinking the vertical
/// gain, which shrinks the vertical noise, and a ring cannot resist that.
enum VehicleLM {
    struct Solution {
        var parameters: UnitSphereParameters
        /// (JᵀJ)⁻¹ at the solution; times the residual variance, the covariance.
        var normalInverse: DenseMatrix?
        var conditionReciprocal: Double
        /// Root-mean-square residual (both kinds, kept samples), raw-space distance.
        var rms: Double
    }

    /// The two residuals of one sample.
    @inline(__always)
    static func residuals(_ x: Vector3, down d: Vector3, _ p: UnitSphereParameters, vertical: Double,
                          noiseRatio: Double) -> (Double, Double) {
        let c = p.matrix * (x - p.offset)
        let n = c.norm
        guard n > 1e-12 else { return (.infinity, .infinity) }
        let along = c.dot(d)
        let across = (c - d * along).squaredNorm
        let g1 = (p.matrix * (c / n)).norm
        let g2 = ((p.matrix * d).squaredNorm + noiseRatio * noiseRatio * across).squareRoot()
        return ((n - 1) / max(g1, 1e-12), (along - vertical) / max(g2, 1e-12))
    }

    static func residuals(_ points: [Vector3], downs: [Vector3], _ p: UnitSphereParameters,
                          vertical: Double, noiseRatio: Double) -> ([Double], [Double]) {
        var r1: [Double] = [], r2: [Double] = []
        r1.reserveCapacity(points.count); r2.reserveCapacity(points.count)
        for (x, d) in zip(points, downs) {
            let (a, b) = residuals(x, down: d, p, vertical: vertical, noiseRatio: noiseRatio)
            r1.append(a); r2.append(b)
        }
        return (r1, r2)
    }

    /// JᵀJ, Jᵀr and Σr² over the kept samples, with a central-difference Jacobian, plus the
    /// prior on the vertical gain (`verticalGainPrior`) counted as one more residual of size
    /// `priorScale`.
    static func system(_ points: [Vector3], downs: [Vector3], mask: [Bool], _ packed: [Double], vertical: Double,
                       noiseRatio: Double, priorScale: Double) -> (DenseMatrix, [Double], Double) {
        var normal = DenseMatrix(n: 9)
        var gradient = [Double](repeating: 0, count: 9)
        var cost = 0.0
        let base = UnitSphereParameters(packed: packed, model: .full)
        var plus = [UnitSphereParameters](), minus = [UnitSphereParameters](), steps = [Double]()
        for j in 0..<9 {
            let h = 1e-6 * max(1, abs(packed[j]))
            var a = packed, b = packed
            a[j] += h; b[j] -= h
            plus.append(UnitSphereParameters(packed: a, model: .full))
            minus.append(UnitSphereParameters(packed: b, model: .full))
            steps.append(2 * h)
        }
        var row1 = [Double](repeating: 0, count: 9), row2 = row1
        for i in points.indices where mask[i] {
            let x = points[i], d = downs[i]
            let (r1, r2) = residuals(x, down: d, base, vertical: vertical, noiseRatio: noiseRatio)
            guard r1.isFinite, r2.isFinite else { continue }
            for j in 0..<9 {
                let (a1, a2) = residuals(x, down: d, plus[j], vertical: vertical, noiseRatio: noiseRatio)
                let (b1, b2) = residuals(x, down: d, minus[j], vertical: vertical, noiseRatio: noiseRatio)
                row1[j] = (a1 - b1) / steps[j]
                row2[j] = (a2 - b2) / steps[j]
            }
            cost += r1 * r1 + r2 * r2
            for j in 0..<9 { gradient[j] += row1[j] * r1 + row2[j] * r2 }
            normal.addOuterUpper(row1)
            normal.addOuterUpper(row2)
        }
        let m = base.matrix
        let k = priorScale / verticalGainPrior
        let prior = (m[2, 2] - 0.5 * (m[0, 0] + m[1, 1])) * k
        var row = [Double](repeating: 0, count: 9)
        row[3] = -0.5 * k; row[4] = -0.5 * k; row[5] = k
        cost += prior * prior
        for j in 0..<9 { gradient[j] += row[j] * prior }
        normal.addOuterUpper(row)
        normal.symmetrize()
        return (normal, gradient, cost)
    }

    /// A level ring cannot tell the vertical gain from the vertical offset, so the vertical gain
    /// is held near the mean of the horizontal ones with this relative standard deviation: loose
    /// enough for real soft iron (axis gains rarely differ by more than a quarter), and outweighed
    /// wherever real tilts determine it. Its uncertainty is part of the covariance and so of the
    /// predicted tilted heading error.
    static let verticalGainPrior = 0.25

    static func refine(_ points: [Vector3], downs: [Vector3], mask: [Bool], start: UnitSphereParameters,
                       vertical: Double, noiseRatio: Double, priorScale: Double, maxIterations: Int = 60) -> Solution? {
        guard let (p, normal, cost, _) = LevenbergMarquardt.minimize(start: start.packed(.full), maxIterations: maxIterations,
                                                                     tolerance: 1e-10, system: {
            system(points, downs: downs, mask: mask, $0, vertical: vertical, noiseRatio: noiseRatio, priorScale: priorScale)
        }) else { return nil }
        let params = UnitSphereParameters(packed: p, model: .full)
        guard params.offset.isFinite, params.matrix.isFinite else { return nil }
        let kept = max(1, 2 * mask.filter { $0 }.count)
        return Solution(parameters: params, normalInverse: normal.inverse(),
                        conditionReciprocal: normal.correlationConditionReciprocal(),
                        rms: (cost / Double(kept)).squareRoot())
    }
}
