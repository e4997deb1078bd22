/// A position on (or above) the WGS84 ellipsoid.
///
/// ```swift
/// let boulder = GeodeticPoint(latitude: 40.015, longitude: -105.27, heightKm: 1.655)
/// ```
public struct GeodeticPoint: Sendable, Hashable {
    /// Geodetic latitude, degrees, −90...90 (north positive).
    public var latitude: Double
    /// Longitude, degrees, −180...360 (east positive).
    public var longitude: Double
    /// Height above the WGS84 ellipsoid, km.
    public var heightKm: Double

    public init(latitude: Double, longitude: Double, heightKm: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.heightKm = heightKm
    }
}

/// The Earth's main magnetic field at one place and time, as the WMM gives it.
///
/// Intensities in nT, angles in degrees. North, east, down are the WMM's X, Y, Z in the local
/// geodetic frame (the frame of the meridian of the given longitude, also at the poles).
///
/// ```swift
/// let field = try WorldMagneticModel.wmm2025.field(
///     at: GeodeticPoint(latitude: 80, longitude: 0), decimalYear: 2025.0)
/// print(field.declination, field.zone, field.declinationUncertainty)
/// ```
public struct MagneticField: Sendable, Hashable {
    /// X, nT.
    public let north: Double
    /// Y, nT.
    public let east: Double
    /// Z, nT (positive down).
    public let down: Double
    /// H = √(X² + Y²), nT.
    public let horizontal: Double
    /// F = √(H² + Z²), nT.
    public let total: Double
    /// I = atan2(Z, H), degrees, positive down.
    public let inclination: Double
    /// D = atan2(Y, X), degrees in (−180, 180], positive east.
    public let declination: Double
    /// Grid variation GV, degrees in (−180, 180]: D − longitude at latitudes ≥ 55°, D + longitude
    /// at latitudes ≤ −55°; nil elsewhere.
    public let gridVariation: Double?
    /// Yearly rates of change.
    public let secular: SecularVariation
    /// Whether a compass is usable here (from H).
    public let zone: MagneticZone
    /// NOAA's 1-sigma uncertainty of each component for this model.
    public let uncertainty: MagneticUncertainty
    /// True when the date lies outside the model's validity and extrapolation was allowed.
    public let isExtrapolated: Bool

    /// Declination uncertainty, degrees (1 sigma); the same as `uncertainty.declination`.
    public var declinationUncertainty: Double { uncertainty.declination }
}

/// Yearly rates of change of the field elements (secular variation).
public struct SecularVariation: Sendable, Hashable {
    /// dX/dt, nT/year.
    public let north: Double
    /// dY/dt, nT/year.
    public let east: Double
    /// dZ/dt, nT/year.
    public let down: Double
    /// dH/dt, nT/year.
    public let horizontal: Double
    /// dF/dt, nT/year.
    public let total: Double
    /// dI/dt, degrees/year.
    public let inclination: Double
    /// dD/dt, degrees/year.
    public let declination: Double
    /// dGV/dt, degrees/year (equal to dD/dt); nil where the grid variation is nil.
    public let gridVariation: Double?
}

/// Compass usability from the horizontal intensity H, as NOAA defines the zones.
///
/// ```swift
/// MagneticZone(horizontalIntensity: 1500)   // .blackout
/// ```
public enum MagneticZone: Sendable, Hashable, CaseIterable {
    /// H ≥ 6000 nT: a compass works normally.
    case normal
    /// 2000 nT ≤ H < 6000 nT: compass accuracy may be degraded.
    case caution
    /// H < 2000 nT: a compass is unreliable (near the magnetic dip poles).
    case blackout

    /// H below which a compass is unreliable, nT.
    public static let blackoutLimit = 2000.0
    /// H below which compass accuracy may be degraded, nT.
    public static let cautionLimit = 6000.0

    /// Classifies a horizontal intensity in nT.
    public init(horizontalIntensity h: Double) {
        if h < Self.blackoutLimit {
            self = .blackout
        } else if h < Self.cautionLimit {
            self = .caution
        } else {
            self = .normal
        }
    }
}

/// 1-sigma uncertainties of the field elements (NOAA's error model of the model in use).
public struct MagneticUncertainty: Sendable, Hashable {
    /// X, nT.
    public let north: Double
    /// Y, nT.
    public let east: Double
    /// Z, nT.
    public let down: Double
    /// H, nT.
    public let horizontal: Double
    /// F, nT.
    public let total: Double
    /// I, degrees.
    public let inclination: Double
    /// D, degrees: √(offset² + (coefficient / H)²), at most 180.
    public let declination: Double
}
