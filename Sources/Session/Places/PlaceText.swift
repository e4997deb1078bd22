import Geodesy
import Navigation
import Places
import Platform

/// Where a point is, said from a nearby place: "3.20 km NE of Hoorn, NL", "at Home";
/// in Chinese "位于Hoorn东北3.20公里", "位于Home". Directions are 16-point names, distances in the
/// units asked for (Navigation's `formatDistance`).
///
/// ```swift
/// formatNearby(near, language: .en)   // "3.20 km NE of Hoorn, NL"
/// formatNearby(near, language: .zh)   // "位于Hoorn东北3.20公里"
/// ```
public func formatNearby(_ near: NearbyPlace, language: Language = .en, units: UnitSystem = .metric) -> String {
    let name = sanitize(near.place.name)
    let label = language == .en && !near.place.country.isEmpty ? name + ", " + sanitize(near.place.country) : name
    guard !near.isInside, let direction = near.direction, near.distance >= 0.5 else {
        return language == .en ? "at " + label : "位于" + label
    }
    let distance = formatDistance(near.distance, language: language, units: units)
    let compass = formatBearing(direction, style: .points16, language: language)
    switch language {
    case .en: return distance + " " + compass + " of " + label
    case .zh: return "位于" + label + compass + distance
    }
}

/// "Hoorn, North Holland, NL": a gazetteer place's name with its region and country.
func placeTitle(_ place: Place) -> String {
    [place.name, place.region, place.country].filter { !$0.isEmpty }.map(sanitize).joined(separator: ", ")
}

/// The gazetteer with the user's places, for `where` and the dashboard; a places file that
/// cannot be read is said on stderr and left out.
func nearbySearch(runtime: Runtime) -> NearbySearch {
    var user: [UserPlace] = []
    if let store = PlacesStore(environment: runtime.environment) {
        do { user = try store.load() } catch { runtime.say(error.message + " (your places are not used)") }
    }
    return NearbySearch(userPlaces: user)
}
