import Linear

/// What the solver knows about the sensor and the place, and how strict it is. All field values
/// are in the unit of the samples.
///
/// ```swift
/// var options = CalibrationOptions()
/// options.expectedFieldStrength = 49.6        // from the World Magnetic Model, µT
/// options.expectedInclinationDegrees = 66.4   // for the "turn the board …" advice
/// options.fullScaleRange = 800                // QMC5883L at ±8 G
/// ```
public struct CalibrationOptions: Sendable, Hashable {
    /// Total field strength expected here (World Magnetic Model), for the "bad radius" check and
    /// to size the thinning before a fit exists.
    public var expectedFieldStrength: Double?
    /// Magnetic inclination here in degrees (positive down), only used to word advice.
    public var expectedInclinationDegrees: Double?
    /// The chip's full-scale range per axis: saturated samples are dropped and the hard-iron
    /// offset must stay inside it.
    public var fullScaleRange: Double?
    /// Field strengths that are plausible for the unit at all (e.g. 20...70 for µT).
    public var plausibleFieldRange: ClosedRange<Double>?
    /// The most complex model the solver may choose.
    public var maximumModel: CalibrationModel
    /// Minimum distance between kept samples, as a fraction of the field strength.
    public var thinningFraction: Double
    /// Outliers are samples whose residual is more than this many robust standard deviations
    /// (1.4826 · MAD) from the median residual.
    public var outlierMADMultiple: Double
    /// Pass/fail limits and bounds.
    public var thresholds: QualityThresholds

    public init(expectedFieldStrength: Double? = nil, expectedInclinationDegrees: Double? = nil,
                fullScaleRange: Double? = nil, plausibleFieldRange: ClosedRange<Double>? = nil,
                maximumModel: CalibrationModel = .full, thinningFraction: Double = 0.07,
                outlierMADMultiple: Double = 3.5, thresholds: QualityThresholds = QualityThresholds()) {
        self.expectedFieldStrength = expectedFieldStrength
        self.expectedInclinationDegrees = expectedInclinationDegrees
        self.fullScaleRange = fullScaleRange
        self.plausibleFieldRange = plausibleFieldRange
        self.maximumModel = maximumModel
        self.thinningFraction = thinningFraction
        self.outlierMADMultiple = outlierMADMultiple
        self.thresholds = thresholds
    }

    /// The expected field when it is a usable positive number.
    var validExpectedField: Double? {
        guard let e = expectedFieldStrength, e.isFinite, e > 0 else { return nil }
        return e
    }

    /// True when a raw reading can be used: finite and (when the range is known) not saturated.
    public func isUsable(_ v: Vector3) -> Bool {
        guard v.isFinite else { return false }
        if let range = fullScaleRange, range > 0, range.isFinite {
            return abs(v.x) < range && abs(v.y) < range && abs(v.z) < range
        }
        return true
    }
}
