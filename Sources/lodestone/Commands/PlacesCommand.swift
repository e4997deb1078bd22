import Geodesy
import Options
import Places
import Platform
import Session

/// `lodestone places`: the offline gazetteer and the user's places file.
enum PlacesCommand: Command {
    static let count = Option("count", value: "N", range: 1...1000, absent: "\(nearCount) for near, \(findCount) for find",
                              help: "how many places to print")
    /// How many places `near` and `find` print when `--count` does not say.
    static let nearCount = 5, findCount = 10
    static let json = Option("json", help: "one JSON object per line")
    static let names = Option("names", help: "for list: only the names, one a line (what the shell completions offer)")
    static let radius = Option("radius", value: "M", range: 0.001...UserPlace.maximumRadius, default: UserPlace.defaultRadius,
                               help: "for add: the radius within which you are at the place, metres")

    static let spec = CommandSpec(
        name: "places",
        abstract: "nearby places, places by name, and your own places (offline gazetteer)",
        options: [PointOptions.lat, PointOptions.lon, count, json, names, radius, LanguageOption.lang, UnitsOption.units],
        positionals: [actions.joined(separator: "|"), "[NAME]"],
        positionalCompletions: [.words(actions), SavedPlaceNames.completion],
        discussion: """
        near: the places nearest to a point, nearest first (your places first when you are within their
        radius), with the geodesic distance and the direction from the place to the point, and each
        place's region, country, time zone and population:
          lodestone places near --lat 52.52 --lon 5.07        # 1.73 km ENE of Edam, NL …
          lodestone places near --lat 52.52 --lon 5.07 --json  # name,name_zh,region,country,country_name,
                                                              # time_zone,population,lat,lon,distance_m,direction_deg
        find: places by any of their names (alternate and Chinese ones too), ignoring case and accents;
        exact names first, then names starting with it, then a word starting with it, the bigger
        place first; the name matched is shown beside the place's own:
          lodestone places find 北京                           # 北京 → Beijing, Beijing, CN …
        add, list, remove: your places file, $XDG_CONFIG_HOME/lodestone/places.csv (else
        ~/.config/lodestone/places.csv), lines name,lat,lon[,radius_m], written atomically:
          lodestone places add Home --lat 52.3702 --lon 4.8952 --radius 50
        The gazetteer is every GeoNames place of at least 500 people and every seat of an
        administrative division, 234,908 places (geonames.org, CC BY 4.0), built in; nothing is fetched.
        """)

    static let actions = ["near", "find", "add", "list", "remove"]

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        guard let action = arguments.positionals.first else {
            throw UsageError.missingArgument("an action: " + actions.joined(separator: ", "), command: spec.name)
        }
        guard actions.contains(action) else {
            throw UsageError.conflict("unknown action '\(sanitize(action))' for 'places': " + actions.joined(separator: ", ")
                + (closestMatch(to: action, in: actions).map { "; did you mean '\($0)'?" } ?? "")
                + "\nsee 'lodestone places --help'")
        }
        let name = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
        let point = try PointOptions.point(arguments)
        func requireName() throws -> String {
            guard let name, !Substring(name).trimmingSpaces.isEmpty else {
                throw UsageError.missingArgument("a place NAME: lodestone places \(action) NAME", command: spec.name)
            }
            return name
        }
        func refuse(_ what: [Option]) throws {
            for option in what where arguments.isPresent(option) {
                throw UsageError.conflict("--\(option.name) does not apply to 'places \(action)'\nsee 'lodestone places --help'")
            }
        }
        let placesAction: PlacesAction
        switch action {
        case "near":
            guard let point else { throw UsageError.missingArgument("--lat LAT --lon LON", command: spec.name) }
            if let name { throw UsageError.unexpectedArgument(name, command: spec.name) }
            try refuse([radius, names])
            placesAction = .near(point, count: try arguments.integer(count) ?? nearCount)
        case "find":
            try refuse([PointOptions.lat, PointOptions.lon, radius, names])
            placesAction = .find(try requireName(), count: try arguments.integer(count) ?? findCount)
        case "add":
            try refuse([count, json, names])
            guard let point else { throw UsageError.missingArgument("--lat LAT --lon LON", command: spec.name) }
            let r = try arguments.numberValue(radius)
            do {
                placesAction = .add(try UserPlace(name: try requireName(), latitude: point.latitude,
                                                  longitude: point.longitude, radius: r))
            } catch let error as PlaceError {
                throw UsageError.conflict(error.message)
            }
        case "list":
            if let name { throw UsageError.unexpectedArgument(name, command: spec.name) }
            try refuse([PointOptions.lat, PointOptions.lon, radius, count])
            try arguments.reject([json], with: names, because: "--names prints only the names")
            placesAction = .list(namesOnly: arguments.flag(names))
        default:
            try refuse([PointOptions.lat, PointOptions.lon, radius, count, json, names])
            placesAction = .remove(try requireName())
        }
        let query = PlacesQuery(action: placesAction, json: arguments.flag(json),
                                language: try LanguageOption.language(arguments),
                                units: try UnitsOption.system(arguments))
        return try query.run(runtime: context.runtime(spec.name, signals: false))
    }
}
