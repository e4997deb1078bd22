/// Why the magnetic model refused an input.
///
/// Every case has a `message` a user can act on:
///
/// ```swift
/// do {
///     _ = try WorldMagneticModel.wmm2025.declination(latitude: 52, longitude: 0, heightKm: 0,
///                                                   decimalYear: 2031)
/// } catch {
///     print(error.message)   // "... pass --allow-extrapolation to use it anyway"
/// }
/// ```
public enum GeomagnetismError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The date lies outside the model's validity interval and extrapolation was not allowed.
    case outsideValidity(year: Double, validFrom: Double, validUntil: Double)
    /// Latitude outside −90...90 degrees.
    case invalidLatitude(Double)
    /// Longitude outside −180...360 degrees.
    case invalidLongitude(Double)
    /// Height (km above the WGS84 ellipsoid) outside the model's domain, −1...850 km.
    case invalidHeight(Double)
    /// An input (named by `quantity`: "latitude", "longitude", "height" or "date") is NaN or infinite.
    case nonFinite(quantity: String)

    /// A sentence saying what went wrong and what to do about it.
    public var message: String {
        switch self {
        case let .outsideValidity(year, from, until):
            return "the date \(year) is outside the validity of the World Magnetic Model "
                + "(\(from) to \(until)); results there are extrapolated and less accurate: "
                + "pass --allow-extrapolation to use it anyway"
        case let .invalidLatitude(value):
            return "latitude \(value) is out of range: give degrees between -90 (south) and 90 (north)"
        case let .invalidLongitude(value):
            return "longitude \(value) is out of range: give degrees between -180 and 360 (east positive)"
        case let .invalidHeight(value):
            return "height \(value) km is outside the model's domain: give kilometres above the WGS84 "
                + "ellipsoid between \(WorldMagneticModel.heightRangeKm.lowerBound) and "
                + "\(WorldMagneticModel.heightRangeKm.upperBound)"
        case let .nonFinite(quantity):
            return "the \(quantity) is not a finite number: give a decimal value"
        }
    }

    public var description: String { message }
}
