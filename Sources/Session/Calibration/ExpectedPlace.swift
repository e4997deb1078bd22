import Geomagnetism
import Heading
import Platform

/// A place and the Earth's field there (World Magnetic Model, `Heading.ExpectedField`): it sets the
/// calibration's expected field strength (the "bad radius" check), words the advice, and converts
/// landmark bearings between true and magnetic.
///
/// ```swift
/// let here = try ExpectedPlace.at(latitude: -33.87, longitude: 151.21, unixSeconds: runtime.time.wall())
/// options.expectedFieldStrength = here.total
/// ```
public struct ExpectedPlace: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// The field there.
    public var field: ExpectedField

    public init(latitude: Double, longitude: Double, field: ExpectedField) {
        self.latitude = latitude
        self.longitude = longitude
        self.field = field
    }

    /// Total intensity, µT.
    public var total: Double { field.totalField }
    /// Inclination, degrees, positive down.
    public var inclination: Double { field.inclination }
    /// Declination, degrees, positive east.
    public var declination: Double { field.declination }

    /// The WMM2025 field at a place and time (extrapolated outside the model's years); nil where the
    /// model cannot be evaluated.
    public static func at(latitude: Double, longitude: Double, unixSeconds: Double) -> ExpectedPlace? {
        let year = decimalYear(unixSeconds: unixSeconds) ?? WorldMagneticModel.wmm2025.epoch
        guard let field = ExpectedField.wmm(latitude: latitude, longitude: longitude, decimalYear: year) else { return nil }
        return ExpectedPlace(latitude: latitude, longitude: longitude, field: field)
    }

    /// "57.3 µT, inclination −64.4°, declination 12.9° E (WMM2025 at -33.869,151.199)".
    public var summary: String {
        fixed(total, 1) + " µT, inclination " + fixed(inclination, 1) + "°, declination "
            + fixed(abs(declination), 1) + "° " + (declination < 0 ? "W" : "E")
            + " (WMM2025 at " + fixed(latitude, 3) + "," + fixed(longitude, 3) + ")"
    }
}
