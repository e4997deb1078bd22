import Linear

/// An incremental calibration for the wizard: add samples one at a time, watch coverage and
/// progress live, and `finish()` for the result or the reasons it failed.
///
/// ```swift
/// var session = CalibrationSession(options: CalibrationOptions(expectedFieldStrength: 49.6))
/// while !session.isReady {
///     session.add(readMagnetometer())
///     draw(session.progressPercent, session.coverage, session.issues.first?.message)
/// }
/// switch session.finish() { … }
/// ```
public struct CalibrationSession: Sendable {
    /// What happened to an added sample.
    public enum SampleDisposition: Sendable, Hashable {
        /// Kept: a new orientation.
        case kept
        /// Valid but too close to a kept sample (lingering in one pose).
        case redundant
        /// Non-finite or saturated: dropped.
        case invalid
    }

    public let options: CalibrationOptions
    /// New distinct samples between automatic refits.
    public let refitInterval: Int
    /// Samples stored for re-thinning when the radius estimate changes.
    public static let maximumStoredSamples = 100_000

    /// Every sample passed to `add`.
    public private(set) var receivedCount = 0
    /// Samples dropped as non-finite or saturated.
    public private(set) var invalidCount = 0
    /// Live coverage of the distinct samples under the current correction.
    public private(set) var coverage = SphereCoverage()
    /// The most recent refit (passing or not), nil before the first one.
    public private(set) var latest: CalibrationResult?
    private var latestIssues: [CalibrationIssue] = []

    private var stored: [Vector3] = []
    private var thinner: SampleThinner?
    private var spacingRadius = 0.0
    private var minimum = Vector3(.infinity, .infinity, .infinity)
    private var maximum = Vector3(-.infinity, -.infinity, -.infinity)
    private var newSinceRefit = 0

    public init(options: CalibrationOptions = CalibrationOptions(), refitInterval: Int = 25) {
        self.options = options
        self.refitInterval = max(1, refitInterval)
        if let e = options.validExpectedField { startThinning(radius: e) }
    }

    /// Adds one raw reading (cheap: a hash-grid lookup; a refit runs after every
    /// `refitInterval` new distinct samples).
    @discardableResult
    public mutating func add(_ raw: Vector3) -> SampleDisposition {
        receivedCount += 1
        guard options.isUsable(raw) else { invalidCount += 1; return .invalid }
        if stored.count < Self.maximumStoredSamples { stored.append(raw) }
        minimum = Vector3(min(minimum.x, raw.x), min(minimum.y, raw.y), min(minimum.z, raw.z))
        maximum = Vector3(max(maximum.x, raw.x), max(maximum.y, raw.y), max(maximum.z, raw.z))
        if thinner == nil {
            guard stored.count >= 20 else { return .kept }
            let r = CalibrationSolver.roughRadius(stored)
            guard r > 0, r.isFinite else { return .redundant }
            startThinning(radius: r)
            return .kept
        }
        guard thinner?.insert(raw) == true else { return .redundant }
        coverage.add(direction: direction(raw))
        newSinceRefit += 1
        if newSinceRefit >= refitInterval { refit() }
        return .kept
    }

    /// Distinct samples kept so far.
    public var distinctCount: Int { thinner?.count ?? min(stored.count, 20) }

    /// True once a refit passed every check.
    public var isReady: Bool { latest?.passed == true }

    /// Reasons the current samples would not pass (from the latest refit, or "too few samples").
    public var issues: [CalibrationIssue] {
        latest == nil ? [.tooFewSamples(have: distinctCount, need: options.thresholds.minimumSamples)] : latestIssues
    }

    /// 0–100; 100 only when a refit has passed every check (never before success). Samples count
    /// for 30 %; the rest follows whichever is further along: the coverage, or the predicted
    /// heading error approaching its limits (the acceptance figure).
    public var progressPercent: Int {
        if isReady { return 100 }
        let t = options.thresholds
        let samples = min(1, Double(distinctCount) / Double(max(1, t.minimumSamples)))
        let cover = min(1, max(0, (Double(SphereCoverage.regionCount) - coverage.gaps)
                                / (Double(SphereCoverage.regionCount) - t.maximumGaps)))
        var heading = 0.0
        if let p = latest?.headingError, p.level > 0, p.tilted > 0 {
            let ratio = min(t.maximumLevelHeadingError / p.level, t.maximumTiltedHeadingError / p.tilted)
            if ratio.isFinite { heading = min(1, max(0, ratio)) }
        }
        return min(99, Int((100 * (0.3 * samples + 0.7 * max(cover, heading))).rounded(.down)))
    }

    /// Refits now on the distinct samples (also runs automatically).
    public mutating func refit() {
        guard let points = thinner?.points else { return }
        newSinceRefit = 0
        var outcome = solve(points)
        // Without an expected field, the thinning was sized from a rough radius: re-size it
        // once the fit knows the field strength better.
        if options.validExpectedField == nil, let r = outcome.result?.fit.fieldStrength,
           abs(r - spacingRadius) > 0.25 * r {
            startThinning(radius: r)
            if let again = thinner?.points { outcome = solve(again) }
        }
        latest = outcome.result
        latestIssues = outcome.issues
        recomputeCoverage()
    }

    /// Fits the current distinct samples and judges them.
    public func finish() -> Result<CalibrationResult, CalibrationFailure> {
        let points = thinner?.points ?? stored
        return CalibrationSolver(options: options).solve(distinct: points, inputCount: receivedCount,
                                                         invalidCount: invalidCount)
    }

    // MARK: Internals

    private func solve(_ points: [Vector3]) -> (result: CalibrationResult?, issues: [CalibrationIssue]) {
        switch CalibrationSolver(options: options).solve(distinct: points, inputCount: receivedCount,
                                                         invalidCount: invalidCount) {
        case let .success(r): return (r, [])
        case let .failure(f): return (f.result, f.issues)
        }
    }

    private mutating func startThinning(radius: Double) {
        spacingRadius = radius
        var t = SampleThinner(spacing: options.thinningFraction * radius)
        for s in stored { t.insert(s) }
        thinner = t
        recomputeCoverage()
    }

    private mutating func recomputeCoverage() {
        var c = SphereCoverage()
        for p in thinner?.points ?? [] { c.add(direction: direction(p)) }
        coverage = c
    }

    private func direction(_ raw: Vector3) -> Vector3 {
        if let fit = latest?.fit { return fit.apply(raw) }
        // Before the first fit: the centre of the box spanned so far.
        let centre = (minimum + maximum) * 0.5
        return centre.isFinite ? raw - centre : raw
    }
}
