/// Errors from the geodesic API. Each message says what was wrong and what to do.
public enum GeodesyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A latitude outside [−90°, 90°].
    case latitudeOutOfRange(Double)
    /// A latitude or longitude that is NaN or infinite.
    case nonFiniteCoordinate
    /// An azimuth that is NaN or infinite.
    case nonFiniteAzimuth
    /// A distance that is NaN or infinite.
    case nonFiniteDistance
    /// Ellipsoid parameters outside what the solver supports.
    case unsupportedEllipsoid(equatorialRadius: Double, flattening: Double)

    /// A message a user can act on.
    public var message: String {
        switch self {
        case .latitudeOutOfRange(let lat):
            return "latitude \(lat)° is outside −90…90°; give latitude before longitude, in degrees"
        case .nonFiniteCoordinate:
            return "a coordinate is not a finite number; give latitude and longitude in decimal degrees"
        case .nonFiniteAzimuth:
            return "the azimuth is not a finite number; give it in degrees clockwise from north"
        case .nonFiniteDistance:
            return "the distance is not a finite number; give it in metres"
        case .unsupportedEllipsoid(let a, let f):
            return "ellipsoid a = \(a) m, f = \(f) is not supported; the radius must be positive "
                + "and finite and the flattening between 0 and 0.01 (WGS84 is 1/298.257223563)"
        }
    }

    public var description: String { message }
}

/// A validated position on the ellipsoid, in degrees.
///
/// Latitude lies in [−90, 90]; longitude is any finite number (it is used modulo 360°).
///
/// ```swift
/// let paris = try GeoPoint(latitude: 48.8566, longitude: 2.3522)
/// ```
public struct GeoPoint: Sendable, Equatable, Hashable {
    /// Geodetic latitude in degrees, north positive, in [−90, 90].
    public let latitude: Double
    /// Longitude in degrees, east positive.
    public let longitude: Double

    /// Creates a point, rejecting non-finite values and latitudes beyond the poles.
    public init(latitude: Double, longitude: Double) throws(GeodesyError) {
        guard latitude.isFinite, longitude.isFinite else { throw .nonFiniteCoordinate }
        guard abs(latitude) <= 90 else { throw .latitudeOutOfRange(latitude) }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Creates a point from values the caller has already validated.
    init(validLatitude: Double, longitude: Double) {
        self.latitude = validLatitude
        self.longitude = longitude
    }
}

/// The solution of the inverse geodesic problem between two points.
public struct GeodesicInverse: Sendable, Equatable {
    /// Length of the shortest path on the ellipsoid, in metres.
    public let distance: Double
    /// Forward azimuth at the first point, in degrees clockwise from north, in [0, 360).
    public let azimuth1: Double
    /// Forward azimuth at the second point (the direction of travel on arrival), in [0, 360).
    public let azimuth2: Double

    public init(distance: Double, azimuth1: Double, azimuth2: Double) {
        self.distance = distance
        self.azimuth1 = azimuth1
        self.azimuth2 = azimuth2
    }
}

/// The solution of the direct geodesic problem.
public struct GeodesicDirect: Sendable, Equatable {
    /// The point reached; its longitude is in [−180, 180].
    public let point: GeoPoint
    /// Forward azimuth at the point reached, in degrees clockwise from north, in [0, 360).
    public let azimuth2: Double

    public init(point: GeoPoint, azimuth2: Double) {
        self.point = point
        self.azimuth2 = azimuth2
    }
}
