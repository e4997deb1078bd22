import Geodesy
import Places
import Platform

/// Turns `goto`'s TARGET into a destination: `LAT,LON`, or a place name (the user's places first,
/// then the gazetteer's best match).
public enum DestinationLookup {
    /// The arrival radius for coordinates, metres.
    public static let pointRadius = 50.0
    /// The arrival radius for a gazetteer place (a town's centre), metres.
    public static let townRadius = 1000.0

    /// The destination, with `radius` when given, else the user place's radius, else the defaults.
    /// Unknown names throw `UnknownPlace` (exit 64) with a suggestion.
    public static func resolve(_ target: String, radius: Double?, userPlaces: [UserPlace]) throws -> (Destination, String) {
        if let point = try coordinates(target) {
            let name = plain(point.latitude) + "," + plain(point.longitude)
            return (Destination(name: name, point: point, radius: radius ?? pointRadius), name)
        }
        let search = NameSearch(userPlaces: userPlaces)
        guard let best = search.find(target, count: 1).first else {
            throw UnknownPlace(name: target, suggestion: search.suggestion(for: target))
        }
        let point = try GeoPoint(latitude: best.place.latitude, longitude: best.place.longitude)
        let r = radius ?? best.userPlace?.radius ?? townRadius
        let description = best.userPlace == nil ? placeTitle(best.place) : best.place.name
        return (Destination(name: best.place.name, point: point, radius: r), description)
    }

    /// "52.37,4.89" (spaces allowed) as a point; nil when the text is not two numbers; an
    /// `InvalidRequest` when they are out of range.
    static func coordinates(_ text: String) throws(InvalidRequest) -> GeoPoint? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let numbers = parts.map { part -> Double? in
            var s = Substring(part)
            while s.first == " " { s = s.dropFirst() }
            while s.last == " " { s = s.dropLast() }
            return Double(s)
        }
        guard let lat = numbers[0], let lon = numbers[1] else { return nil }
        guard lat.isFinite, abs(lat) <= 90, lon.isFinite, abs(lon) <= 180,
              let point = try? GeoPoint(latitude: lat, longitude: lon) else {
            throw InvalidRequest("'\(argumentExcerpt(text))' is not a position: give LAT,LON with a latitude in -90…90 and a longitude in -180…180")
        }
        return point
    }
}
