import Linear

/// The numbers that judge a calibration, computed on the samples used in the fit.
///
/// ```swift
/// let m = QualityMetrics(samples: used, fit: fit, expectedFieldStrength: 49.8)
/// print(m.coveragePercent, m.residualPercent, m.spreadAfterPercent, m.wobblePercent)
/// ```
public struct QualityMetrics: Sendable, Hashable {
    /// Samples the metrics were computed on.
    public var sampleCount: Int
    /// Region coverage of the corrected field directions.
    public var coverage: SphereCoverage
    /// Root-mean-square of |corrected| − fieldStrength, % of fieldStrength.
    public var residualPercent: Double
    /// std/mean of |raw|, %.
    public var spreadBeforePercent: Double
    /// std/mean of |corrected|, %.
    public var spreadAfterPercent: Double
    /// MotionCal's "wobble": over the covered regions, the mean offset of each region's mean
    /// corrected sample from that region's ideal point on the sphere, % of the mean |corrected|.
    /// Large when the corrected samples sit lopsided about the centre.
    public var wobblePercent: Double
    /// The fitted field strength (input unit).
    public var fieldStrength: Double
    /// fieldStrength / expected field strength, when an expected value was given.
    public var fieldRatio: Double?

    public var coveragePercent: Double { coverage.coveragePercent }
    public var gaps: Double { coverage.gaps }

    public init(sampleCount: Int, coverage: SphereCoverage, residualPercent: Double, spreadBeforePercent: Double,
                spreadAfterPercent: Double, wobblePercent: Double, fieldStrength: Double, fieldRatio: Double?) {
        self.sampleCount = sampleCount; self.coverage = coverage; self.residualPercent = residualPercent
        self.spreadBeforePercent = spreadBeforePercent; self.spreadAfterPercent = spreadAfterPercent
        self.wobblePercent = wobblePercent; self.fieldStrength = fieldStrength; self.fieldRatio = fieldRatio
    }

    /// Computes every metric for `samples` (raw readings) under `fit`. Non-finite samples are skipped.
    public init(samples: [Vector3], fit: EllipsoidFit, expectedFieldStrength: Double? = nil) {
        var coverage = SphereCoverage()
        var rawStats = RunningMoments(), correctedStats = RunningMoments()
        var residualSquares = 0.0
        var regionSums = [Vector3](repeating: .zero, count: SphereCoverage.regionCount)
        let r = fit.fieldStrength
        var n = 0
        for raw in samples where raw.isFinite {
            let c = fit.apply(raw)
            let mag = c.norm
            guard mag.isFinite else { continue }
            n += 1
            rawStats.add(raw.norm)
            correctedStats.add(mag)
            residualSquares += (mag - r) * (mag - r)
            if let region = SphereCoverage.region(of: c) {
                coverage.add(direction: c)
                regionSums[region] += c
            }
        }
        let meanMagnitude = correctedStats.mean
        var offsetSum = Vector3.zero
        var filled = 0
        for (region, count) in coverage.counts.enumerated() where count > 0 {
            offsetSum += regionSums[region] / Double(count) - SphereCoverage.centre(ofRegion: region) * meanMagnitude
            filled += 1
        }
        let valid = n > 0 && r > 0 && r.isFinite
        self.sampleCount = n
        self.coverage = coverage
        self.residualPercent = valid ? (residualSquares / Double(n)).squareRoot() / r * 100 : 100
        self.spreadBeforePercent = rawStats.relativeSpreadPercent
        self.spreadAfterPercent = correctedStats.relativeSpreadPercent
        self.wobblePercent = valid && filled > 0 && meanMagnitude > 0
            ? (offsetSum / Double(filled)).norm / meanMagnitude * 100 : 100
        self.fieldStrength = valid ? r : 0
        if let e = expectedFieldStrength, e > 0, e.isFinite, valid {
            self.fieldRatio = r / e
        } else {
            self.fieldRatio = nil
        }
    }
}

/// Mean and standard deviation by Welford's method.
struct RunningMoments: Sendable {
    private(set) var count = 0
    private(set) var mean = 0.0
    private var m2 = 0.0

    mutating func add(_ x: Double) {
        count += 1
        let d = x - mean
        mean += d / Double(count)
        m2 += d * (x - mean)
    }

    var standardDeviation: Double { count > 1 ? (m2 / Double(count)).squareRoot() : 0 }

    /// std/mean in percent (100 when undefined).
    var relativeSpreadPercent: Double {
        guard count > 0, mean > 0 else { return 100 }
        return standardDeviation / mean * 100
    }
}
