/// Where the declination (and the expected Earth field) comes from. Every `HeadingEstimate` carries it,
/// so a display or a log can say what its true heading rests on.
///
/// Precedence used by `HeadingFilter.updateFix(latitude:longitude:)`: a manual declination is never
/// replaced by a GNSS fix; `.location` and `.none` give way to `.wmm` once a fix arrives.
///
/// ```swift
/// let source = DeclinationSource.manual(degrees: 12.5)   // from --declination 12.5
/// source.label                                           // "manual"
/// ```
public enum DeclinationSource: Sendable, Hashable, CustomStringConvertible {
    /// The field model at the current GNSS fix.
    case wmm(latitude: Double, longitude: Double)
    /// The field model at a position given by the user (--location).
    case location(latitude: Double, longitude: Double)
    /// A declination given by the user (--declination), degrees, east positive.
    case manual(degrees: Double)
    /// No declination: true heading unavailable.
    case none

    /// A short machine-friendly name: "wmm", "location", "manual" or "none".
    public var label: String {
        switch self {
        case .wmm: "wmm"
        case .location: "location"
        case .manual: "manual"
        case .none: "none"
        }
    }

    /// The position to evaluate the field model at, if this source has one.
    public var position: (latitude: Double, longitude: Double)? {
        switch self {
        case let .wmm(lat, lon), let .location(lat, lon): (lat, lon)
        case .manual, .none: nil
        }
    }

    public var description: String {
        switch self {
        case let .wmm(lat, lon): "WMM at GNSS fix (\(lat), \(lon))"
        case let .location(lat, lon): "WMM at given location (\(lat), \(lon))"
        case let .manual(d): "manual declination \(d)°"
        case .none: "no declination"
        }
    }
}

/// How trustworthy the horizontal field is for a compass at a place (the WMM's zones).
public enum FieldZone: Sendable, Hashable {
    /// Normal.
    case normal
    /// Horizontal field weak (WMM: below 6000 nT): compass readings need caution.
    case caution
    /// Horizontal field very weak (WMM: below 2000 nT): a compass is unreliable (blackout zone).
    case blackout
}

/// The Earth field expected at a place and time, as a field model gives it.
///
/// ```swift
/// let sydney = ExpectedField(declination: 12.8, inclination: -64.4, totalField: 57.2,
///                            horizontalField: 24.7, zone: .normal)
/// ```
public struct ExpectedField: Sendable, Hashable {
    /// Declination, degrees, east positive.
    public var declination: Double
    /// Inclination (dip), degrees, positive down.
    public var inclination: Double
    /// Total field strength, µT.
    public var totalField: Double
    /// Horizontal field strength, µT.
    public var horizontalField: Double
    /// Blackout / caution zone.
    public var zone: FieldZone
    /// 1σ uncertainty of the declination, degrees, when the model gives one.
    public var declinationUncertainty: Double?

    public init(declination: Double, inclination: Double, totalField: Double, horizontalField: Double,
                zone: FieldZone = .normal, declinationUncertainty: Double? = nil) {
        self.declination = declination
        self.inclination = inclination
        self.totalField = totalField
        self.horizontalField = horizontalField
        self.zone = zone
        self.declinationUncertainty = declinationUncertainty
    }

    /// True when every number is finite and the strengths are positive.
    public var isValid: Bool {
        declination.isFinite && inclination.isFinite && totalField.isFinite && totalField > 0
            && horizontalField.isFinite && horizontalField >= 0
            && (declinationUncertainty?.isFinite ?? true)
    }
}
