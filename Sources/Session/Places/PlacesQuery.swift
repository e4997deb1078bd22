import Geodesy
import JSON
import Navigation
import Places
import Platform

/// What `lodestone places` was asked to do.
public enum PlacesAction: Sendable, Equatable {
    /// The places nearest to a point.
    case near(GeoPoint, count: Int)
    /// Places by name.
    case find(String, count: Int)
    /// Add (or replace, by name) one of the user's places.
    case add(UserPlace)
    /// The user's places.
    case list
    /// Remove one of the user's places by name.
    case remove(String)
}

/// `lodestone places`: reverse and forward lookup in the offline gazetteer and the user's places,
/// and edits to the places file.
///
/// ```swift
/// try PlacesQuery(action: .near(try GeoPoint(latitude: 52.66, longitude: 5.1), count: 3)).run(runtime: runtime)
/// ```
public struct PlacesQuery: Sendable {
    public var action: PlacesAction
    public var json: Bool
    public var language: Language
    /// Units of the text form; nil: `GPSD_UNITS`, else metric.
    public var units: UnitSystem?
    /// The places file; nil: the default one in the environment's config folder.
    public var placesFile: String?

    public init(action: PlacesAction, json: Bool = false, language: Language = .en, units: UnitSystem? = nil,
                placesFile: String? = nil) {
        self.action = action
        self.json = json
        self.language = language
        self.units = units
        self.placesFile = placesFile
    }

    public func run(runtime: Runtime) throws -> ExitCode {
        let store = placesFile.map(PlacesStore.init(path:)) ?? PlacesStore(environment: runtime.environment)
        let units = self.units ?? runtime.environment.units
        switch action {
        case .near(let point, let count):
            let user = try store?.load() ?? []
            let found = NearbySearch(userPlaces: user).nearest(to: point, count: count)
            var text = ""
            for near in found { text += json ? Self.nearJSON(near) : nearLine(near, units: units) }
            runtime.output.write(text)
        case .find(let name, let count):
            let user = try store?.load() ?? []
            let search = NameSearch(userPlaces: user)
            let found = search.find(name, count: count)
            guard !found.isEmpty else { throw UnknownPlace(name: name, suggestion: search.suggestion(for: name)) }
            var text = ""
            for hit in found { text += json ? Self.findJSON(hit) : Self.findLine(hit) }
            runtime.output.write(text)
        case .add(let place):
            guard let store else { throw PlacesStoreError.noConfigFolder }
            var places = try store.load()
            let key = foldName(place.name)
            let replaced = places.firstIndex { foldName($0.name) == key }
            if let replaced { places[replaced] = place } else { places.append(place) }
            try store.save(places)
            runtime.say((replaced == nil ? "added " : "replaced ") + place.name + " to " + store.path)
        case .list:
            let places = try store?.load() ?? []
            var text = ""
            for p in places {
                text += json ? Self.userJSON(p) : p.name + "  " + plain(p.latitude) + ", " + plain(p.longitude)
                    + "  radius " + formatLength(p.radius, language: language, units: units) + "\n"
            }
            runtime.output.write(text)
        case .remove(let name):
            guard let store else { throw PlacesStoreError.noConfigFolder }
            var places = try store.load()
            let key = foldName(name)
            guard let index = places.firstIndex(where: { foldName($0.name) == key }) else {
                throw UnknownPlace(name: name, suggestion: closestMatch(to: name, in: places.map(\.name)), userOnly: true)
            }
            let removed = places.remove(at: index)
            try store.save(places)
            runtime.say("removed " + removed.name + " from " + store.path)
        }
        return .success
    }

    private func nearLine(_ near: NearbyPlace, units: UnitSystem) -> String {
        var parts = [formatNearby(near, language: language, units: units)]
        parts.append(plain(near.place.latitude) + ", " + plain(near.place.longitude))
        if case .user = near.source {
            parts.append(language == .en ? "your place" : "你的地点")
        } else {
            if !near.place.region.isEmpty { parts.append(sanitize(near.place.region)) }
            parts.append((language == .en ? "population " : "人口") + String(near.place.population))
        }
        return parts.joined(separator: "  ") + "\n"
    }

    static func nearJSON(_ near: NearbyPlace) -> String {
        let value: JSONValue = .object([
            ("name", .string(sanitize(near.place.name))),
            ("country", near.place.country.isEmpty ? .null : .string(near.place.country)),
            ("lat", .number(near.place.latitude)),
            ("lon", .number(near.place.longitude)),
            ("distance_m", .number(roundedToDecimals(near.distance, 3))),
            ("direction_deg", near.direction.map { .number(roundedToDecimals($0, 6)) } ?? .null),
        ])
        return value.serialized() + "\n"
    }

    static func findLine(_ hit: NamedPlace) -> String {
        if let user = hit.userPlace {
            return user.name + "  " + plain(user.latitude) + ", " + plain(user.longitude) + "  your place, radius "
                + plain(user.radius) + " m\n"
        }
        return placeTitle(hit.place) + "  " + plain(hit.place.latitude) + ", " + plain(hit.place.longitude)
            + "  population " + String(hit.place.population) + "\n"
    }

    static func findJSON(_ hit: NamedPlace) -> String {
        let p = hit.place
        let value: JSONValue = .object([
            ("name", .string(sanitize(p.name))),
            ("ascii_name", .string(sanitize(p.asciiName))),
            ("country", p.country.isEmpty ? .null : .string(p.country)),
            ("region", p.region.isEmpty ? .null : .string(sanitize(p.region))),
            ("lat", .number(p.latitude)),
            ("lon", .number(p.longitude)),
            ("population", hit.userPlace == nil ? .number(Double(p.population)) : .null),
            ("radius_m", hit.userPlace.map { .number($0.radius) } ?? .null),
            ("match", .string(["exact", "prefix", "word"][hit.match.rawValue])),
        ])
        return value.serialized() + "\n"
    }

    static func userJSON(_ p: UserPlace) -> String {
        let value: JSONValue = .object([
            ("name", .string(p.name)), ("lat", .number(p.latitude)), ("lon", .number(p.longitude)),
            ("radius_m", .number(p.radius)),
        ])
        return value.serialized() + "\n"
    }
}

/// A place name that is neither in the gazetteer nor among the user's places. Exit 64.
public struct UnknownPlace: UserFacingError {
    public var name: String
    public var suggestion: String?
    public var userOnly = false

    public init(name: String, suggestion: String?, userOnly: Bool = false) {
        self.name = name
        self.suggestion = suggestion
        self.userOnly = userOnly
    }

    public var message: String {
        "no place called '\(sanitize(name))'" + (userOnly ? " in your places file" : "")
            + (suggestion.map { "; did you mean '\(sanitize($0))'?" } ?? "")
            + (userOnly ? "\nsee 'lodestone places list'" : "\ntry 'lodestone places find' with the start of the name")
    }

    public var exitCode: ExitCode { .usage }
}
