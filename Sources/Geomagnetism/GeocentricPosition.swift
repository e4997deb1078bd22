#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// WGS84 ellipsoid and the WMM reference sphere, in kilometres.
enum Earth {
    /// WGS84 semi-major axis, km.
    static let semiMajorAxis = 6378.137
    /// WGS84 flattening.
    static let flattening = 1.0 / 298.257223563
    /// First eccentricity squared, f (2 − f).
    static let eccentricitySquared = flattening * (2.0 - flattening)
    /// Geomagnetic reference radius of the WMM spherical harmonic expansion, km.
    static let referenceRadius = 6371.2
    static let degreesToRadians = Double.pi / 180.0
    static let radiansToDegrees = 180.0 / Double.pi
}

/// A point in geocentric spherical coordinates, prepared for the synthesis.
///
/// Holds sines and cosines rather than angles: the synthesis needs nothing else, and it keeps
/// the poles exact (cos φ′ = 0 there, with no division by it anywhere).
struct GeocentricPosition {
    /// sin φ′, φ′ = geocentric latitude (= cos of the colatitude).
    let sinLatitude: Double
    /// cos φ′ (≥ 0; exactly 0 at the poles).
    let cosLatitude: Double
    /// Distance from the Earth's centre, km.
    let radius: Double
    let sinLongitude: Double
    let cosLongitude: Double
    /// sin and cos of φ′ − φ, the angle that rotates geocentric (X′, Z′) into geodetic (X, Z).
    let sinRotation: Double
    let cosRotation: Double

    /// Converts geodetic latitude and longitude (degrees) and height above the WGS84
    /// ellipsoid (km) to geocentric spherical coordinates.
    @inline(__always)
    init(latitude: Double, longitude: Double, heightKm: Double) {
        let phi = latitude * Earth.degreesToRadians
        let sinPhi = sin(phi)
        // At exactly ±90° the libm cosine is 6e-17, not 0: make the pole exact.
        let cosPhi = abs(latitude) == 90 ? 0.0 : cos(phi)
        let lambda = longitude * Earth.degreesToRadians
        sinLongitude = sin(lambda)
        cosLongitude = cos(lambda)

        // Radius of curvature in the prime vertical, then the meridian-plane coordinates.
        let e2 = Earth.eccentricitySquared
        let rc = Earth.semiMajorAxis / (1.0 - e2 * sinPhi * sinPhi).squareRoot()
        let p = (rc + heightKm) * cosPhi
        let z = (rc * (1.0 - e2) + heightKm) * sinPhi
        let r = (p * p + z * z).squareRoot()
        radius = r
        sinLatitude = z / r
        cosLatitude = p / r
        // ψ = φ′ − φ: sin ψ = sin φ′ cos φ − cos φ′ sin φ, cos ψ = cos φ′ cos φ + sin φ′ sin φ.
        sinRotation = sinLatitude * cosPhi - cosLatitude * sinPhi
        cosRotation = cosLatitude * cosPhi + sinLatitude * sinPhi
    }
}
