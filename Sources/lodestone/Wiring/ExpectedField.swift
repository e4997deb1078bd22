import Geomagnetism
import Options
import Platform

/// The Earth's field where the calibration happens (World Magnetic Model), in µT and degrees: it
/// sets the expected field strength (the "bad radius" check), words the advice, and converts
/// landmark bearings between true and magnetic.
///
/// ```swift
/// let here = try ExpectedField.at(latitude: -33.87, longitude: 151.21, unixSeconds: Clock.wall())
/// options.expectedFieldStrength = here.total
/// ```
struct ExpectedField: Equatable {
    var latitude: Double
    var longitude: Double
    /// Total intensity, µT.
    var total: Double
    /// Inclination, degrees, positive down.
    var inclination: Double
    /// Declination, degrees, positive east.
    var declination: Double

    /// The WMM2025 field at a place and time (extrapolated outside the model's years).
    static func at(latitude: Double, longitude: Double, unixSeconds: Double) throws(GeomagnetismError) -> ExpectedField {
        let year = decimalYear(unixSeconds: unixSeconds) ?? WorldMagneticModel.wmm2025.epoch
        let field = try WorldMagneticModel.wmm2025.field(at: GeodeticPoint(latitude: latitude, longitude: longitude),
                                                          decimalYear: year, allowExtrapolation: true)
        return ExpectedField(latitude: latitude, longitude: longitude, total: field.total / 1000,
                             inclination: field.inclination, declination: field.declination)
    }

    /// `--location LAT,LON`, or nil when absent. Bad values are usage errors.
    static func fromLocationOption(_ arguments: ParsedArguments) throws -> ExpectedField? {
        let expected = "latitude,longitude in degrees, e.g. -33.87,151.21"
        guard let (lat, lon) = try arguments.pair("location", expected: expected) else { return nil }
        guard (-90...90).contains(lat), (-180...360).contains(lon) else {
            throw UsageError.invalidValue(option: "location", value: arguments.string("location") ?? "", expected: expected)
        }
        do {
            return try at(latitude: lat, longitude: lon, unixSeconds: Clock.wall())
        } catch {
            throw UsageError.invalidValue(option: "location", value: arguments.string("location") ?? "", expected: expected)
        }
    }

    /// "57.3 µT, inclination −64.4°, declination 12.9° E (WMM2025 at -33.869,151.199)".
    var summary: String {
        fixed(total, 1) + " µT, inclination " + fixed(inclination, 1) + "°, declination "
            + fixed(abs(declination), 1) + "° " + (declination < 0 ? "W" : "E")
            + " (WMM2025 at " + fixed(latitude, 3) + "," + fixed(longitude, 3) + ")"
    }
}
