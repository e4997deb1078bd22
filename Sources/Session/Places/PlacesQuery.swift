import Geodesy
import JSON
import Navigation
import Outputs
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
    /// Your places; `namesOnly`: one name a line (the shell completions read it).
    case list(namesOnly: Bool = false)
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
            for near in found { text += json ? Self.nearJSON(near, userPlaces: user) : nearLine(near, units: units) }
            runtime.output.write(text)
        case .find(let name, let count):
            let user = try store?.load() ?? []
            let search = NameSearch(userPlaces: user)
            let found = search.find(name, count: count)
            guard !found.isEmpty else { throw UnknownPlace(name: name, suggestion: search.suggestion(for: name)) }
            var text = ""
            for hit in found { text += json ? Self.findJSON(hit) : findLine(hit) }
            runtime.output.write(text)
        case .add(let place):
            guard let store else { throw PlacesStoreError.noConfigFolder }
            var places = try store.load()
            let key = foldName(place.name)
            let replaced = places.firstIndex { foldName($0.name) == key }
            if let replaced { places[replaced] = place } else { places.append(place) }
            try store.save(places)
            runtime.say((replaced == nil ? "added " : "replaced ") + place.name + " to " + store.path)
        case .list(let namesOnly):
            let places = try store?.load() ?? []
            var text = ""
            for p in places {
                if namesOnly { text += sanitize(p.name) + "\n"; continue }
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
            parts.append(placemarkText(near.place, language: language))
        }
        return parts.joined(separator: "  ") + "\n"
    }

    static func nearJSON(_ near: NearbyPlace, userPlaces: [UserPlace] = []) -> String {
        ReportJSON.place(PlaceRecord(near, userPlaces: userPlaces)).serialized() + "\n"
    }

    /// "北京 → Beijing, Beijing, CN  39.9075, 116.39723  Beijing, China  Asia/Shanghai  population
    /// 18960744": the name matched, when it is an alternate one, beside the place's own.
    func findLine(_ hit: NamedPlace) -> String {
        if let user = hit.userPlace {
            return user.name + "  " + plain(user.latitude) + ", " + plain(user.longitude)
                + (language == .en ? "  your place, radius " : "  你的地点，半径") + plain(user.radius) + " m\n"
        }
        let shown = hit.matchedName.map { sanitize($0) + " → " } ?? ""
        var title = placeTitle(hit.place)
        if language == .zh, let zh = hit.place.chineseName, zh != hit.matchedName { title = sanitize(zh) + " " + title }
        return shown + title + "  " + plain(hit.place.latitude) + ", " + plain(hit.place.longitude)
            + "  " + placemarkText(hit.place, language: language) + "\n"
    }

    static func findJSON(_ hit: NamedPlace) -> String {
        ReportJSON.place(PlaceRecord(hit)).serialized() + "\n"
    }

    static func userJSON(_ p: UserPlace) -> String {
        ReportJSON.place(PlaceRecord(p)).serialized() + "\n"
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
        "no place called '\(argumentExcerpt(name))'" + (userOnly ? " in your places file" : "")
            + (suggestion.map { "; did you mean '\(sanitize($0))'?" } ?? "")
            + (userOnly ? "\nsee 'lodestone places list'" : "\ntry 'lodestone places find' with the start of the name")
    }

    public var exitCode: ExitCode { .usage }
}
