/// Everything the heading filter can be told. The defaults meet the project's goals for a
/// QMC5883L-class magnetometer at 10 Hz–1 kHz: static jitter ≤ 0.1°, a 90° turn settled within
/// 0.5 s without overshoot.
///
/// ```swift
/// var config = HeadingFilterConfiguration()
/// config.smoothingSeconds = 1.0                     // steadier when still
/// config.declinationSource = .manual(degrees: 12.8) // --declination 12.8
/// config.noiseMicrotesla = 0.3                      // a noisier sensor
/// var filter = HeadingFilter(configuration: config)
/// ```
public struct HeadingFilterConfiguration: Sendable {
    /// Smoothing time constant when still, seconds (0 = no smoothing).
    public var smoothingSeconds: Double = 0.7
    /// Time constant approached while turning fast (adaptive mode), seconds.
    public var turnSmoothingSeconds: Double = 0.02
    /// Adaptive smoothing: heavy when still, light while turning. Off: plain `smoothingSeconds`.
    public var adaptive: Bool = true
    /// How far (in standard deviations of its noise) the turn indicator must rise to count as turning.
    public var turnThresholdSigma: Double = 4
    /// A gap longer than this between samples (or a backwards timestamp) restarts the filters.
    public var maxGapSeconds: Double = 1.0

    /// Where the declination comes from.
    public var declinationSource: DeclinationSource = .none
    /// The field model, for `.wmm` and `.location` sources (and disturbance detection).
    public var fieldProvider: FieldProvider?
    /// Ask the field model again after moving this far (m) …
    public var declinationRefreshMeters: Double = 1000
    /// … or after this much wall time (s).
    public var declinationRefreshSeconds: Double = 86_400
    /// 1σ uncertainty of a model declination when the model gives none, degrees.
    public var modelDeclinationUncertainty: Double = 0.5
    /// 1σ uncertainty assumed for a manual declination, degrees.
    public var manualDeclinationUncertainty: Double = 0.5

    /// Deviation card use, the initial card, and the gates for learning it.
    public var deviationMode: DeviationMode = .off
    public var deviationTable = DeviationTable()
    public var deviationLearning = DeviationLearning()

    /// Accelerometer handling.
    public var tilt = TiltConfiguration()
    /// Accuracy terms (noise, calibration residual, tilt, level-only).
    public var accuracy = AccuracyModel()
    /// Disturbance detection.
    public var disturbance = DisturbanceConfiguration()

    public init() {}

    /// Magnetometer noise per axis per sample (1σ, µT): sets the adaptive threshold and the accuracy.
    public var noiseMicrotesla: Double {
        get { accuracy.noiseMicrotesla }
        set { accuracy.noiseMicrotesla = newValue }
    }

    /// Remaining calibration error (µT), e.g. the profile's RMS residual.
    public var calibrationResidualMicrotesla: Double {
        get { accuracy.calibrationResidualMicrotesla }
        set { accuracy.calibrationResidualMicrotesla = newValue }
    }
}
