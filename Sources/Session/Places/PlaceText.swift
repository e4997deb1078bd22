import Geodesy
import JSON
import Navigation
import Places
import Platform

/// Where a point is, said from a nearby place and, when it helps, the biggest town near it:
/// "1.70 km NE of Edam, 2.80 km from Volendam, NL", "at Home"; in Chinese, with the places'
/// Chinese names, "位于埃丹东北1.70公里，距福伦丹2.80公里", "位于Home". Directions are 16-point
/// names, distances in the units asked for (Navigation's `formatDistance`).
///
/// ```swift
/// formatNearby(near, language: .en)                 // "3.20 km NE of Hoorn, NL"
/// formatNearby(near, town: volendam, language: .zh) // "位于埃丹东北1.70公里，距福伦丹2.80公里"
/// ```
public func formatNearby(_ near: NearbyPlace, town: NearbyPlace? = nil, language: Language = .en,
                         units: UnitSystem = .metric) -> String {
    let zh = language == .zh
    let name = sanitize(near.place.name(zh: zh))
    let country = sanitize(near.place.country)
    var townText = ""
    if let town {
        let townName = sanitize(town.place.name(zh: zh))
        let d = formatDistance(town.distance, language: language, units: units)
        townText = zh ? "，距" + townName + d
            : ", " + d + " from " + townName + (town.place.country != near.place.country && !town.place.country.isEmpty
                                                    ? ", " + sanitize(town.place.country) : "")
    }
    let suffix = !zh && !country.isEmpty ? ", " + country : ""
    guard !near.isInside, let direction = near.direction, near.distance >= 0.5 else {
        return zh ? "位于" + name + townText : "at " + name + townText + suffix
    }
    let distance = formatDistance(near.distance, language: language, units: units)
    let compass = formatBearing(direction, style: .points16, language: language)
    return zh ? "位于" + name + compass + distance + townText : distance + " " + compass + " of " + name + townText + suffix
}

/// "Hoorn, North Holland, NL": a gazetteer place's name with its region and country.
func placeTitle(_ place: Place) -> String {
    [place.name, place.region, place.country].filter { !$0.isEmpty }.map(sanitize).joined(separator: ", ")
}

/// A placemark's fields for a text line: "North Holland, Netherlands  Europe/Amsterdam  population
/// 7380" (in Chinese "人口7380").
func placemarkText(_ place: Place, language: Language) -> String {
    var parts: [String] = []
    let area = [place.region, place.countryName.isEmpty ? place.country : place.countryName]
        .filter { !$0.isEmpty }.map(sanitize).joined(separator: ", ")
    if !area.isEmpty { parts.append(area) }
    if !place.timeZone.isEmpty { parts.append(sanitize(place.timeZone)) }
    parts.append((language == .en ? "population " : "人口") + String(place.population))
    return parts.joined(separator: "  ")
}

/// The local time at a Unix time in a place's zone, from the system's zone rules; nil with the
/// reason when the zone is unknown or its rules are not installed.
func localTime(_ unixSeconds: Double, zone: String, environment: EnvironmentValues) -> Result<(text: String, type: TimeZoneRules.LocalType), TimeZoneError> {
    do {
        let rules = try TimeZoneRules.load(zone, folder: TimeZoneRules.folder(environment: environment))
        let type = rules.offset(at: Int64(unixSeconds.rounded(.down)))
        return .success((LocalTime.format(unixSeconds, offset: type), type))
    } catch {
        return .failure(error)
    }
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
