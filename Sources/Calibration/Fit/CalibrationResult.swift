import Linear
import Platform

/// A fitted calibration with its quality figures and any reasons it does not pass.
///
/// ```swift
/// switch CalibrationSolver().solve(samples) {
/// case .success(let result): save(result.profile(sensor: id, created: now, unit: "uT"))
/// case .failure(let failure): failure.issues.forEach { print($0.message) }
/// }
/// ```
public struct CalibrationResult: Sendable, Hashable {
    /// The correction.
    public var fit: EllipsoidFit
    /// Quality figures on the samples used in the fit.
    public var metrics: QualityMetrics
    /// Samples given to the solver.
    public var inputCount: Int
    /// Samples dropped as non-finite or saturated.
    public var invalidCount: Int
    /// Distinct samples kept after thinning.
    public var distinctCount: Int
    /// Distinct samples rejected as outliers.
    public var rejectedCount: Int
    /// Reciprocal condition number of the chosen model's normal matrix (diagnostic).
    public var conditionReciprocal: Double
    /// Reasons the result does not pass (empty when it passes).
    public var issues: [CalibrationIssue]
    /// What the fit's remaining uncertainty does to the heading (the acceptance figure).
    public var headingError: HeadingErrorPrediction = .unknown(tiltDegrees: 20, inclinationDegrees: 60)
    /// What the residual scatter is made of: white noise, systematic, a field change.
    public var diagnosis: ResidualDiagnosis?
    /// Samples dropped as spikes before the fit (far outside the cloud of the others).
    public var spikeCount = 0
    /// Lag-1 correlation of the fit's residuals in recording order (0 for white noise); the
    /// covariance is scaled by (1 + ρ)/(1 − ρ), the number of samples per independent one.
    public var residualCorrelation = 0.0
    /// How the fit was made: an ellipsoid through a tumble, or a vehicle's circles.
    public var method: CalibrationMethod = .ellipsoid
    /// For a vehicle calibration: 20° heading bins the circles covered (of 18).
    public var headingBins: Int?
    /// The fit against its seed, a plain algebraic ellipsoid through every usable sample: the spread
    /// of |B| each leaves, and which was kept (nil when the fit is not a full ellipsoid).
    public var seed: SeedComparison?

    /// True when no issue was found.
    public var passed: Bool { issues.isEmpty }

    /// Samples used in the fit.
    public var usedCount: Int { distinctCount - rejectedCount }

    /// The profile to store for this result.
    public func profile(sensor: SensorIdentity, created: String, unit: String) -> CalibrationProfile {
        CalibrationProfile(sensor: sensor, offset: fit.offset, matrix: fit.matrix, fieldStrength: fit.fieldStrength,
                           residualPercent: metrics.residualPercent, coveragePercent: metrics.coveragePercent,
                           spreadBeforePercent: metrics.spreadBeforePercent, spreadAfterPercent: metrics.spreadAfterPercent,
                           wobblePercent: metrics.wobblePercent, sampleCount: usedCount, rejectedCount: rejectedCount,
                           model: fit.model, created: created, unit: unit)
    }
}

/// The spread of |B| over every usable sample after the solver's fit and after the plain algebraic
/// ellipsoid through them. The refinement weighs thinned regions equally and drops outliers, so where the
/// samples crowd one part of the sphere, or the sensor's error is not quite an ellipsoid, it can leave a
/// larger spread over the whole recording than its seed; where the samples do not pin an ellipsoid down
/// (a translation without rotation covers a patch of the sphere) or the field changed while recording
/// (a magnet attached part way), no model describes the sensor and a simpler one was chosen, which the
/// algebraic quadric through the same samples beats. The one with the smaller spread is kept, and the
/// reason says which of these it was.
public struct SeedComparison: Sendable, Hashable {
    /// The most a final fit's spread of |B| may exceed the algebraic ellipsoid's (× 1.02): a simpler model
    /// within it stays the fit offered.
    public static let margin = 1.02

    public var refinedSpreadPercent: Double
    public var algebraicSpreadPercent: Double
    /// True when the algebraic fit was kept because it left the smaller spread (for a simpler model than
    /// the full one, smaller by more than `margin`).
    public var keptAlgebraic: Bool
    /// The model the solver fitted (the algebraic seed is always a full ellipsoid).
    public var refinedModel: CalibrationModel = .full
    /// Why the algebraic fit was the better one, when it was kept.
    public var reason: SeedReason?

    /// Why the samples leave the algebraic ellipsoid the smaller spread.
    public enum SeedReason: Sendable, Hashable {
        /// The field changed while recording (a magnet attached or moved part way): two environments,
        /// which no single calibration describes; the algebraic quadric spreads the difference thinner.
        case fieldChanged(fraction: Double, shift: Double)
        /// No ellipsoid describes the samples (the residual is far past the acceptance's limit): the field
        /// changed while recording (a magnet attached and taken off again), or the readings are not a
        /// field's.
        case noEllipsoid(residualPercent: Double)
        /// The samples cover too little of the sphere to pin an ellipsoid down (a translation without
        /// rotation): the algebraic quadric's smaller spread is the noise of that patch fitted.
        case patch(coveragePercent: Double)
        /// The samples crowd one part of the sphere, or the sensor's error is not quite an ellipsoid:
        /// the refinement weighs the thinned regions equally, the spread counts every sample.
        case crowdedOrNotAnEllipsoid
    }

    /// The reason the algebraic fit was better: a residual no ellipsoid leaves (a field change when the
    /// residuals show where), then too little of the sphere for the full model (a simpler model chosen),
    /// else crowding or a non-ellipsoid error.
    static func reason(diagnosis: ResidualDiagnosis?, refinedModel: CalibrationModel, underdetermined: Bool,
                       metrics: QualityMetrics, residualLimitPercent: Double) -> SeedReason {
        if metrics.residualPercent > residualLimitPercent {
            if let change = diagnosis?.change { return .fieldChanged(fraction: change.fraction, shift: change.shift) }
            return .noEllipsoid(residualPercent: metrics.residualPercent)
        }
        if refinedModel != .full || underdetermined { return .patch(coveragePercent: metrics.coveragePercent) }
        return .crowdedOrNotAnEllipsoid
    }

    /// The reason in words (nil when the solver's fit was kept).
    public var reasonText: String? {
        guard keptAlgebraic else { return nil }
        switch reason ?? .crowdedOrNotAnEllipsoid {
        case let .fieldChanged(fraction, shift):
            return "the field changed " + fixed(fraction * 100, 0) + " % of the way through the recording (the centre moved by "
                + fixed(shift, 1) + "; a magnet attached or moved?): no one calibration describes both parts"
        case let .noEllipsoid(residual):
            return "no ellipsoid describes these samples (a residual of " + fixed(residual, 1)
                + " %): the field changed while recording (a magnet attached and removed?); the algebraic one only "
                + "spreads the change thinner"
        case let .patch(coverage):
            return "the samples cover " + fixed(coverage, 0) + " % of the sphere, too little to pin an ellipsoid down: "
                + "the algebraic one's smaller spread is the noise of that patch fitted, not the sensor"
        case .crowdedOrNotAnEllipsoid:
            return "the samples crowd part of the sphere, or the error is not quite an ellipsoid"
        }
    }

    /// One line for the report: which fit was kept and why.
    public var explanation: String {
        let name = refinedModel == .full ? "the refined fit" : "the \(refinedModel.rawValue) fit"
        if let why = reasonText {
            return "kept the algebraic ellipsoid: its spread of |B| over every sample, \(fixed(algebraicSpreadPercent, 3)) %, "
                + "is below \(name)'s \(fixed(refinedSpreadPercent, 3)) % (\(why))"
        }
        return "\(name)'s spread of |B| over every sample, \(fixed(refinedSpreadPercent, 3)) %, is no worse than "
            + "its algebraic seed's \(fixed(algebraicSpreadPercent, 3)) %"
    }
}

/// How a calibration was fitted.
public enum CalibrationMethod: String, Sendable, Hashable {
    /// An ellipsoid through samples of a tumble (`CalibrationSolver`).
    case ellipsoid
    /// A compass fixed in a vehicle, from circles, the expected field and gravity (`VehicleCalibration`).
    case vehicle
}

/// A calibration that did not pass: the issues, and the fit when one could be made.
public struct CalibrationFailure: Error, Sendable, Hashable {
    /// Every reason, most important first (never empty).
    public var issues: [CalibrationIssue]
    /// The fit and metrics, when the samples allowed one.
    public var result: CalibrationResult?

    public init(issues: [CalibrationIssue], result: CalibrationResult?) {
        self.issues = issues.isEmpty ? [.fitFailed] : issues
        self.result = result
    }

    /// All issue messages, one per line.
    public var message: String { issues.map(\.message).joined(separator: "\n") }
}
