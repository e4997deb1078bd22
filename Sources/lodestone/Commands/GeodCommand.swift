import Geodesy
import Glibc
import JSON
import Options
import Platform

/// `lodestone geod`: WGS84 geodesics (Karney's algorithms), one problem or a CSV batch.
enum GeodCommand: Command {
    static let spec = CommandSpec(
        name: "geod",
        abstract: "distance and azimuths between points on the WGS84 ellipsoid (or the reverse)",
        usage: "--inverse LAT1 LON1 LAT2 LON2 [--json]\n"
            + "       lodestone geod --direct LAT1 LON1 AZIMUTH DISTANCE_M [--json]\n"
            + "       lodestone geod --inverse|--direct --csv < input.csv",
        options: [
            Option("inverse", help: "from two points: distance, azimuth at point 1, forward azimuth at point 2"),
            Option("direct", help: "from a point, an azimuth and a distance: the point reached"),
            Option("csv", help: "batch: read lat1,lon1,lat2,lon2 (inverse) or lat1,lon1,azimuth1,distance_m (direct) lines from stdin"),
            Option("json", help: "print one JSON object"),
        ],
        positionals: ["LAT1", "LON1", "LAT2|AZIMUTH", "LON2|DISTANCE_M"],
        discussion: """
        Azimuths are degrees clockwise from true north in [0, 360); azimuth2 is the forward azimuth at
        point 2 (the direction of travel on arrival). Distances are metres. Accurate to nanometres.
        Examples:
          lodestone geod --inverse -33.8694 151.1990 -37.8136 144.9631
          lodestone geod --direct -33.8694 151.1990 225 10000 --json
          printf 'lat1,lon1,lat2,lon2\\n0,0,1,1\\n' | lodestone geod --inverse --csv
        """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let inverse = arguments.flag("inverse"), direct = arguments.flag("direct")
        guard inverse != direct else {
            throw UsageError.conflict("give exactly one of --inverse or --direct\nsee 'lodestone geod --help'")
        }
        if arguments.flag("csv") {
            guard arguments.positionals.isEmpty, !arguments.flag("json") else {
                throw UsageError.conflict("--csv reads every problem from stdin; give no coordinates and no --json with it")
            }
            return try GeodBatch.run(inverse: inverse)
        }
        var numbers: [Double] = []
        for text in arguments.positionals.flatMap({ $0.split(separator: ",").map(String.init) }) {
            guard let v = Double(text.trimmingCharacters(in: " ")), v.isFinite else {
                throw UsageError.invalidValue(option: inverse ? "inverse" : "direct", value: text, expected: "a number")
            }
            numbers.append(v)
        }
        guard numbers.count == 4 else {
            throw UsageError.missingArgument(inverse ? "four numbers: LAT1 LON1 LAT2 LON2" : "four numbers: LAT1 LON1 AZIMUTH DISTANCE_M", command: spec.name)
        }
        let out = StandardOutput()
        do throws(GeodesyError) {
            let start = try GeoPoint(latitude: numbers[0], longitude: numbers[1])
            if inverse {
                let end = try GeoPoint(latitude: numbers[2], longitude: numbers[3])
                let r = Geodesic.inverse(start, end)
                if arguments.flag("json") {
                    out.write(JSONValue.object([("lat1", .number(numbers[0])), ("lon1", .number(numbers[1])),
                                                ("lat2", .number(numbers[2])), ("lon2", .number(numbers[3])),
                                                ("distance_m", .number(r.distance)), ("azimuth1_deg", .number(r.azimuth1)),
                                                ("azimuth2_deg", .number(r.azimuth2))]).serialized() + "\n")
                } else {
                    out.write("distance   \(fixed(r.distance, 3)) m (\(fixed(r.distance / 1000, 3)) km)\n"
                              + "azimuth 1  \(fixed(r.azimuth1, 6))° (\(formatBearing(r.azimuth1, style: .points16)))\n"
                              + "azimuth 2  \(fixed(r.azimuth2, 6))° (\(formatBearing(r.azimuth2, style: .points16)))\n")
                }
            } else {
                let r = try Geodesic.direct(from: start, azimuth: numbers[2], distance: numbers[3])
                if arguments.flag("json") {
                    out.write(JSONValue.object([("lat1", .number(numbers[0])), ("lon1", .number(numbers[1])),
                                                ("azimuth1_deg", .number(numbers[2])), ("distance_m", .number(numbers[3])),
                                                ("lat2", .number(r.point.latitude)), ("lon2", .number(r.point.longitude)),
                                                ("azimuth2_deg", .number(r.azimuth2))]).serialized() + "\n")
                } else {
                    out.write("lat2       \(fixed(r.point.latitude, 9))\nlon2       \(fixed(r.point.longitude, 9))\n"
                              + "azimuth 2  \(fixed(r.azimuth2, 6))°\n")
                }
            }
        } catch {
            throw UsageError.conflict(error.message)
        }
        return .success
    }
}

/// `lodestone geod --csv`: one output row per input row, in order; bad rows exit 65 with their number.
enum GeodBatch {
    static func run(inverse: Bool) throws -> ExitCode {
        let inputColumns = inverse ? ["lat1", "lon1", "lat2", "lon2"] : ["lat1", "lon1", "azimuth1", "distance_m"]
        let header = inverse ? "lat1,lon1,lat2,lon2,distance_m,azimuth1_deg,azimuth2_deg"
            : "lat1,lon1,azimuth1_deg,distance_m,lat2,lon2,azimuth2_deg"
        var reader = LineReader(fd: STDIN_FILENO)
        let out = StandardOutput()
        guard out.write(header + "\n") else { return .success }
        var sawData = false
        while let raw = try reader.next() {
            let line = raw.trimmingCharacters(in: " \t")
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: " \t\"") }
            if !sawData, let first = fields.first, Double(first) == nil, first.lowercased().hasPrefix("lat") {
                sawData = true   // a header line
                continue
            }
            sawData = true
            let n = reader.lineNumber
            guard fields.count == 4 else {
                throw BatchError(line: n, text: "expected 4 fields (\(inputColumns.joined(separator: ","))), found \(fields.count)")
            }
            var v: [Double] = []
            for (name, text) in zip(inputColumns, fields) {
                guard !text.isEmpty else { throw BatchError(line: n, text: "\(name) is missing") }
                guard let d = Double(text), d.isFinite else { throw BatchError(line: n, text: "\(name) '\(sanitize(text))' is not a number") }
                v.append(d)
            }
            let row: String
            do throws(GeodesyError) {
                let a = try GeoPoint(latitude: v[0], longitude: v[1])
                if inverse {
                    let r = Geodesic.inverse(a, try GeoPoint(latitude: v[2], longitude: v[3]))
                    row = [fields[0], fields[1], fields[2], fields[3], plain(r.distance), plain(r.azimuth1), plain(r.azimuth2)].joined(separator: ",")
                } else {
                    let r = try Geodesic.direct(from: a, azimuth: v[2], distance: v[3])
                    row = [fields[0], fields[1], fields[2], fields[3], plain(r.point.latitude), plain(r.point.longitude), plain(r.azimuth2)].joined(separator: ",")
                }
            } catch {
                throw BatchError(line: n, text: error.message)
            }
            guard out.write(row + "\n") else { return .success }
        }
        return .success
    }
}
