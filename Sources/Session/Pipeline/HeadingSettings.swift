import Heading

/// The filter-stage settings a command asks for: smoothing, where the declination comes from, and
/// what to do with the profile's deviation card. The executable's heading option group fills it.
///
/// ```swift
/// var settings = HeadingSettings()
/// settings.declinationSource = .location(latitude: -33.87, longitude: 151.21)
/// ```
public struct HeadingSettings: Sendable {
    /// Smoothing time constant when still, seconds; nil: the filter's (`HeadingFilterConfiguration`).
    public var smoothingSeconds: Double?
    /// Where the declination comes from (default: the WMM at the GNSS fix, when there is one).
    public var declinationSource: DeclinationSource = .none
    /// `--deviation`: nil means "apply the profile's card when it has one".
    public var deviation: DeviationMode?
    /// `--refine`: the background refinement of the hard-iron offset.
    public var refine = false

    public init(smoothingSeconds: Double? = nil, declinationSource: DeclinationSource = .none,
                deviation: DeviationMode? = nil, refine: Bool = false) {
        self.refine = refine
        self.smoothingSeconds = smoothingSeconds
        self.declinationSource = declinationSource
        self.deviation = deviation
    }

    /// True with `--deviation learn`.
    public var learnsDeviation: Bool { deviation == .learn }

    /// The filter configuration these settings describe (before a profile is applied): the WMM as the
    /// expected field, and the deviation card applied unless switched off.
    public var configuration: HeadingFilterConfiguration {
        var c = HeadingFilterConfiguration()
        if let smoothingSeconds { c.smoothingSeconds = smoothingSeconds }
        c.fieldProvider = ExpectedField.wmm
        c.declinationSource = declinationSource
        c.deviationMode = deviation ?? .apply
        return c
    }
}
