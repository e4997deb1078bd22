import Glibc
import Linear

/// The physical world the simulator measures: Earth's field and gravity in NED, at a place.
///
/// ```swift
/// let world = SimulatedWorld.sydney
/// let bodyField = attitude.bodyToNED.transposed * world.field
/// ```
public struct SimulatedWorld: Sendable, Equatable {
    /// Latitude and longitude in degrees.
    public var latitude: Double
    public var longitude: Double
    /// Earth's field in NED (north, east, down), µT.
    public var field: Vector3

    public init(latitude: Double, longitude: Double, field: Vector3) {
        self.latitude = latitude
        self.longitude = longitude
        self.field = field
    }

    /// The default place, near Sydney (−33.8694, 151.1990). Field from WMM2025 at 2026.0, sea level,
    /// rounded: declination ≈ 12.9° E, inclination ≈ −64.4°, total ≈ 57.3 µT.
    public static let sydney = SimulatedWorld(
        latitude: -33.8694, longitude: 151.1990, field: Vector3(24.16, 5.53, -51.64))

    /// Magnetic declination of `field`, degrees east.
    public var declination: Double { degrees(atan2(field.y, field.x)) }

    /// Horizontal field strength, µT.
    public var horizontal: Double { (field.x * field.x + field.y * field.y).squareRoot() }
}

