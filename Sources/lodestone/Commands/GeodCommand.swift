import Options
import Platform
import Session

/// `lodestone geod`: WGS84 geodesics (Karney's algorithms), one problem or a CSV batch.
enum GeodCommand: Command {
    static let inverse = Option("inverse", help: "from two points: distance, azimuth at point 1, forward azimuth at point 2")
    static let direct = Option("direct", help: "from a point, an azimuth and a distance: the point reached")
    static let csv = Option("csv", help: "batch: read " + GeodBatch.inputColumns(inverse: true).joined(separator: ",") + " (inverse) or "
                            + GeodBatch.inputColumns(inverse: false).joined(separator: ",") + " (direct) lines from stdin")
    static let json = Option("json", help: "print one JSON object")

    static let spec = CommandSpec(
        name: "geod",
        abstract: "distance and azimuths between points on the WGS84 ellipsoid (or the reverse)",
        options: [inverse, direct, csv, json],
        positionals: ["LAT1", "LON1", "LAT2|AZIMUTH", "LON2|DISTANCE_M"],
        usageGroups: [.oneOf([inverse, direct], required: true), .oneOf([csv, json])],
        discussion: """
        Azimuths are degrees clockwise from true north in [0, 360); azimuth2 is the forward azimuth at
        point 2 (the direction of travel on arrival). Distances are metres. Accurate to nanometres.
        Examples:
          lodestone geod --inverse -33.8694 151.1990 -37.8136 144.9631
          lodestone geod --direct -33.8694 151.1990 225 10000 --json
          printf 'lat1_deg,lon1_deg,lat2_deg,lon2_deg\\n0,0,1,1\\n' | lodestone geod --inverse --csv
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        let runtime = context.runtime(spec.name, signals: false)
        let inverse = arguments.flag(Self.inverse)
        if arguments.flag(csv) {
            guard arguments.positionals.isEmpty else {
                throw UsageError.conflict("--csv reads every problem from stdin; give no coordinates with it")
            }
            return try GeodBatch.run(inverse: inverse, runtime: runtime)
        }
        var numbers: [Double] = []
        for text in arguments.positionals.flatMap({ $0.split(separator: ",").map(String.init) }) {
            guard let v = Double(Substring(text).trimmingSpaces), v.isFinite else {
                throw UsageError.invalidValue(option: inverse ? "inverse" : "direct", value: text, expected: "a number")
            }
            numbers.append(v)
        }
        guard numbers.count == 4 else {
            throw UsageError.missingArgument(inverse ? "four numbers: LAT1 LON1 LAT2 LON2" : "four numbers: LAT1 LON1 AZIMUTH DISTANCE_M", command: spec.name)
        }
        return try GeodesicQuery(inverse: inverse, numbers: numbers, json: arguments.flag(json)).run(runtime: runtime)
    }
}
