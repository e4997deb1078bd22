import Geomagnetism
import Glibc
import JSON
import Options
import Platform

/// `lodestone declination`: the World Magnetic Model at a place and date, one point or a CSV batch.
enum DeclinationCommand: Command {
    static let spec = CommandSpec(
        name: "declination",
        abstract: "magnetic declination and field from the World Magnetic Model (WMM2025)",
        usage: "--lat DEG --lon DEG [--date YYYY-MM-DD | --year Y] [--height-km H] [--json]\n"
            + "       lodestone declination --csv < points.csv",
        options: [
            Option("lat", value: "DEG", help: "geodetic latitude, −90 to 90 (north positive)"),
            Option("lon", value: "DEG", help: "longitude, −180 to 360 (east positive)"),
            Option("date", value: "YYYY-MM-DD", help: "the date (default: today, UTC)"),
            Option("year", value: "Y", help: "the date as a decimal year, e.g. 2027.25"),
            Option("height-km", value: "H", help: "height above the WGS84 ellipsoid in km (default 0)"),
            Option("json", help: "print one JSON object"),
            Option("csv", help: "batch: read decimal_year,lat,lon,height_km lines from stdin, write CSV"),
            Option("allow-extrapolation", help: "evaluate outside the model's 2025.0–2030.0 validity, with a warning"),
        ],
        discussion: """
        East declination is positive: true heading = magnetic heading + declination.
        Examples:
          lodestone declination --lat -33.8694 --lon 151.1990
          lodestone declination --lat 52.2 --lon 0.12 --date 2027-06-01 --json
          printf '2026.5,-33.87,151.2,0\\n' | lodestone declination --csv
        """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let allow = arguments.flag("allow-extrapolation")
        if arguments.flag("csv") {
            for name in ["lat", "lon", "date", "year", "height-km", "json"] where arguments.values[name] != nil || arguments.flags.contains(name) {
                throw UsageError.conflict("--csv reads every point from stdin; --\(name) cannot be used with it")
            }
            return try DeclinationBatch.run(allowExtrapolation: allow)
        }
        guard let lat = try arguments.double("lat", in: -90...90) else {
            throw UsageError.missingArgument("--lat DEG", command: spec.name)
        }
        guard let lon = try arguments.double("lon", in: -180...360) else {
            throw UsageError.missingArgument("--lon DEG", command: spec.name)
        }
        let height = try arguments.double("height-km", in: WorldMagneticModel.heightRangeKm) ?? 0
        try arguments.requireAtMostOne(of: ["date", "year"])
        let year: Double
        if let text = arguments.string("date") {
            year = try parseDate(text)
        } else if let y = try arguments.double("year", in: 1...9999) {
            year = y
        } else {
            year = decimalYear(unixSeconds: Clock.wall()) ?? 2025
        }
        let model = WorldMagneticModel.wmm2025
        let field: MagneticField
        do {
            field = try model.field(at: GeodeticPoint(latitude: lat, longitude: lon, heightKm: height),
                                    decimalYear: year, allowExtrapolation: allow)
        } catch {
            throw ModelError(underlying: error)
        }
        if field.isExtrapolated {
            StandardOutput.error("warning: \(fixed(year, 2)) is outside WMM2025's validity (\(fixed(model.epoch, 1))–\(fixed(model.validUntil, 1))); the result is extrapolated and less accurate")
        }
        let out = StandardOutput()
        if arguments.flag("json") {
            out.write(declinationJSON(field, lat: lat, lon: lon, height: height, year: year).serialized() + "\n")
        } else {
            out.write(DeclinationReport.text(field, lat: lat, lon: lon, height: height, year: year, model: model))
        }
        return .success
    }

    /// "2027-06-01" → decimal year, or a usage error.
    static func parseDate(_ text: String) throws(UsageError) -> Double {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              let year = decimalYear(year: y, month: m, day: d)
        else { throw .invalidValue(option: "date", value: text, expected: "a calendar date YYYY-MM-DD") }
        return year
    }
}

/// A model error as a user-facing error: bad data in the arguments.
struct ModelError: UserFacingError {
    var underlying: GeomagnetismError
    var message: String { underlying.message }
    var exitCode: ExitCode { .usage }
}

extension MagneticZone {
    var name: String {
        switch self {
        case .normal: return "normal"
        case .caution: return "caution"
        case .blackout: return "blackout"
        }
    }
}

func declinationJSON(_ f: MagneticField, lat: Double, lon: Double, height: Double, year: Double) -> JSONValue {
    .object([
        ("decimal_year", .number(year)), ("lat", .number(lat)), ("lon", .number(lon)), ("height_km", .number(height)),
        ("declination_deg", .number(f.declination)), ("declination_uncertainty_deg", .number(f.declinationUncertainty)),
        ("declination_change_deg_per_year", .number(f.secular.declination)),
        ("inclination_deg", .number(f.inclination)), ("inclination_change_deg_per_year", .number(f.secular.inclination)),
        ("total_nT", .number(f.total)), ("horizontal_nT", .number(f.horizontal)),
        ("north_nT", .number(f.north)), ("east_nT", .number(f.east)), ("down_nT", .number(f.down)),
        ("total_change_nT_per_year", .number(f.secular.total)),
        ("grid_variation_deg", f.gridVariation.map { .number($0) } ?? .null),
        ("zone", .string(f.zone.name)), ("extrapolated", .bool(f.isExtrapolated)),
    ])
}
