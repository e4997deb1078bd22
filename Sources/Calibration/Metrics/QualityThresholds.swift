/// Limits that decide whether a calibration passes.
///
/// A calibration is judged by what it will do to the heading: the parameters' uncertainty (the
/// fit's covariance, scaled by the residual and by how correlated the residuals are in recording
/// order) is propagated to a 95 % heading-error bound at the worst heading, level and tilted by
/// `assessmentTiltDegrees`. It passes when both are within their limits:
///
/// - `maximumLevelHeadingError` = 2° (95 %), i.e. a standard deviation of 1° at the worst heading:
///   the 1° a compass display shows and a hand-bearing compass is read to, and the notes' "under 1°
///   needs residual hard iron under ~0.35 µT at 20 µT horizontal field". The bound is taken at the
///   worst heading, so the error averaged over headings is smaller still.
/// - `maximumTiltedHeadingError` = 4° (95 %) at 20° tilt: tilt compensation multiplies field errors
///   by up to 1/cos(tilt) and brings the vertical terms in (× tan(inclination) ≈ 1.7 at 60° dip),
///   so the same calibration gives about twice the error when a hand-held or boat compass is
///   tilted by 20°.
///
/// Coverage, gap score, spread and wobble (MotionCal's figures) are kept as guidance: they
/// explain a refusal and say what to do, but a recording that pins the calibration down passes
/// whatever its coverage. The bounds on the field strength, offset and soft iron (ArduPilot's)
/// are physical sanity checks and still refuse.
///
/// ```swift
/// var t = QualityThresholds()
/// t.maximumLevelHeadingError = 1   // a survey compass
/// ```
public struct QualityThresholds: Sendable, Hashable {
    /// Distinct samples (after thinning) needed before a result can pass.
    public var minimumSamples = 300
    /// Largest accepted predicted heading error, level (95 % bound at the worst heading), degrees.
    public var maximumLevelHeadingError = 2.0
    /// Largest accepted predicted heading error at `assessmentTiltDegrees`, degrees.
    public var maximumTiltedHeadingError = 4.0
    /// The tilt of the tilted assessment, degrees.
    public var assessmentTiltDegrees = 20.0
    /// Inclination assumed for the heading prediction when the place is not known (mid-latitudes;
    /// the prediction grows as 1/cos(inclination)), degrees.
    public var defaultInclinationDegrees = 60.0
    /// Guidance: MotionCal gap score; above it, a refusal names the missing orientations.
    public var maximumGaps = 15.0
    /// Guidance: percentage of the 100 regions that should hold a sample.
    public var minimumCoveragePercent = 75.0
    /// Guidance: std/mean of the corrected |B|, %.
    public var maximumSpreadPercent = 4.5
    /// Guidance: MotionCal wobble, % of the field.
    public var maximumWobblePercent = 4.0
    /// Guidance: RMS radial residual, % of the field.
    public var maximumResidualPercent = 5.0
    /// Accepted fitted/expected field ratio (ArduPilot "bad radius" uses ×1.5).
    public var fieldRatioRange: ClosedRange<Double> = 0.67...1.5
    /// Accepted eigenvalues of the soft-iron matrix (normalised to determinant 1).
    public var softIronEigenvalueRange: ClosedRange<Double> = 0.2...5
    /// Largest accepted |off-diagonal| entry of the normalised soft-iron matrix.
    public var maximumOffDiagonal = 1.0
    /// Largest accepted fraction of distinct samples rejected as outliers.
    public var maximumRejectedFraction = 0.25

    public init() {}

    /// The default limits.
    public static let standard = QualityThresholds()
}
