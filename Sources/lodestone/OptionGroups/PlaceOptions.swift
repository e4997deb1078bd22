import Geodesy
import Options
import Places
import Platform
import Session

/// `--lat LAT --lon LON`: a point, validated.
enum PointOptions {
    static let lat = Option("lat", value: "LAT", range: -90...90.0, help: "latitude in decimal degrees (north positive)")
    static let lon = Option("lon", value: "LON", range: -180...180.0, help: "longitude in decimal degrees (east positive)")

    /// The point, or nil when neither is given; a usage error when only one is.
    static func point(_ arguments: ParsedArguments) throws(UsageError) -> GeoPoint? {
        let latitude = try arguments.number(lat)
        let longitude = try arguments.number(lon)
        switch (latitude, longitude) {
        case (nil, nil): return nil
        case (let la?, let lo?):
            guard let point = try? GeoPoint(latitude: la, longitude: lo) else {
                throw .invalidValue(option: lat.name, value: String(la), expected: "a latitude in -90…90")
            }
            return point
        default:
            throw .conflict("give both --lat and --lon")
        }
    }
}

/// The saved places' names, as the shell completions offer them (`places list --names`).
enum SavedPlaceNames {
    static let completion = ValueCompletion.programOutput(["places", "list", "--names"])
}

/// `--region NAME:LAT,LON,RADIUS_M` or `--region NAME` (a saved place), repeatable.
enum RegionOptions {
    static let region = Option("region", value: "NAME:LAT,LON,RADIUS_M", repeatable: true, completion: SavedPlaceNames.completion,
                               help: "a circular region to watch (repeatable), e.g. home:52.37,4.89,100, or a saved place's NAME")

    /// The regions given, parsed and validated; a bare NAME is the saved place of that name
    /// (its radius), from `places` (the environment's places file).
    static func regions(_ arguments: ParsedArguments, environment: EnvironmentValues) throws -> [Region] {
        var regions: [Region] = []
        var saved: [UserPlace]?
        for text in arguments.strings(region) {
            let expected = "NAME:LAT,LON,RADIUS_M with a latitude in -90…90, a longitude in -180…180 and a radius above 0 and at most \(plain(UserPlace.maximumRadius)) m, "
                + "or the name of a saved place ('lodestone places list')"
            guard let colon = text.lastIndex(of: ":") else {
                if saved == nil { saved = try PlacesStore(environment: environment)?.load() ?? [] }
                let key = foldName(text)
                guard let place = saved?.first(where: { foldName($0.name) == key }),
                      let centre = try? GeoPoint(latitude: place.latitude, longitude: place.longitude) else {
                    throw UsageError.invalidValue(option: region.name, value: text, expected: expected)
                }
                regions.append(Region(name: place.name, centre: centre, radius: place.radius))
                continue
            }
            let name = String(text[..<colon])
            let numbers = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
                .map { Double($0.trimmingSpaces) }
            guard numbers.count == 3, let lat = numbers[0], let lon = numbers[1], let radius = numbers[2],
                  let place = try? UserPlace(name: name, latitude: lat, longitude: lon, radius: radius),
                  let centre = try? GeoPoint(latitude: lat, longitude: lon) else {
                throw UsageError.invalidValue(option: region.name, value: text, expected: expected)
            }
            regions.append(Region(name: place.name, centre: centre, radius: place.radius))
        }
        return regions
    }
}
