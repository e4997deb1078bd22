import Geomagnetism
import Options
import Platform
import Session

/// `lodestone declination`: the World Magnetic Model at a place and date, one point or a CSV batch.
enum DeclinationCommand: Command {
    static let lat = Option("lat", value: "DEG", range: -90...90.0, help: "geodetic latitude (north positive)")
    static let lon = Option("lon", value: "DEG", range: -180...360.0, help: "longitude (east positive)")
    static let date = Option("date", value: "YYYY-MM-DD", absent: "today, UTC", help: "the date")
    static let year = Option("year", value: "Y", range: 1...9999.0, absent: "today, UTC", help: "the date as a decimal year, e.g. 2027.25")
    static let heightKm = Option("height-km", value: "H", range: WorldMagneticModel.heightRangeKm, default: DeclinationQuery.defaultHeightKm,
                                 help: "height above the WGS84 ellipsoid in km")
    static let json = Option("json", help: "print one JSON object")
    static let csv = Option("csv", help: "batch: read decimal_year,lat,lon,height_km lines from stdin, write CSV")
    static let allowExtrapolation = Option("allow-extrapolation", help: "evaluate outside the model's 2025.0–2030.0 validity, with a warning")

    static let spec = CommandSpec(
        name: "declination",
        abstract: "magnetic declination and field from the World Magnetic Model (WMM2025)",
        options: [lat, lon, date, year, heightKm, json, csv, allowExtrapolation],
        usageGroups: [OptionAlternatives([[lat, lon], [csv]], required: true), .oneOf([date, year])],
        discussion: """
        East declination is positive: true heading = magnetic heading + declination.
        Examples:
          lodestone declination --lat -33.8694 --lon 151.1990
          lodestone declination --lat 52.2 --lon 0.12 --date 2027-06-01 --json
          printf '2026.5,-33.87,151.2,0\\n' | lodestone declination --csv
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        let runtime = context.runtime(spec.name, signals: false)
        let allow = arguments.flag(allowExtrapolation)
        if arguments.flag(csv) {
            for option in [lat, lon, date, year, heightKm, json] where arguments.isPresent(option) {
                throw UsageError.conflict("--csv reads every point from stdin; --\(option.name) cannot be used with it")
            }
            return try DeclinationBatch.run(allowExtrapolation: allow, runtime: runtime)
        }
        guard let latitude = try arguments.number(lat) else {
            throw UsageError.missingArgument("--lat DEG", command: spec.name)
        }
        guard let longitude = try arguments.number(lon) else {
            throw UsageError.missingArgument("--lon DEG", command: spec.name)
        }
        let height = try arguments.numberValue(heightKm)
        var decimalYear = try arguments.number(year)
        if let text = arguments.string(date) {
            guard let y = DeclinationQuery.year(ofDate: text) else {
                throw UsageError.invalidValue(option: date.name, value: text, expected: "a calendar date YYYY-MM-DD")
            }
            decimalYear = y
        }
        return try DeclinationQuery(latitude: latitude, longitude: longitude, heightKm: height, year: decimalYear,
                                    json: arguments.flag(json), allowExtrapolation: allow).run(runtime: runtime)
    }
}
