/// Limits that decide whether a calibration passes. Defaults follow MotionCal's "good enough"
/// figures and ArduPilot's bounds.
///
/// ```swift
/// var t = QualityThresholds()
/// t.maximumGaps = 10          // stricter coverage
/// ```
public struct QualityThresholds: Sendable, Hashable {
    /// Distinct samples (after thinning) needed before a result can pass.
    public var minimumSamples = 300
    /// MotionCal gap score must be below this.
    public var maximumGaps = 15.0
    /// Percentage of the 100 regions that must hold a sample.
    public var minimumCoveragePercent = 75.0
    /// std/mean of the corrected |B|, %.
    public var maximumSpreadPercent = 4.5
    /// MotionCal wobble, % of the field.
    public var maximumWobblePercent = 4.0
    /// RMS radial residual, % of the field.
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
