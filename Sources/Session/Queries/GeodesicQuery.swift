import Geodesy
import Glibc
import JSON
import Outputs
import Platform

/// `lodestone geod`: one geodesic problem on the WGS84 ellipsoid, inverse (two points) or direct
/// (a point, an azimuth and a distance).
public struct GeodesicQuery: Sendable {
    public var inverse: Bool
    /// LAT1 LON1 LAT2 LON2 (inverse) or LAT1 LON1 AZIMUTH DISTANCE_M (direct).
    public var numbers: [Double]
    public var json: Bool

    public init(inverse: Bool, numbers: [Double], json: Bool = false) {
        self.inverse = inverse
        self.numbers = numbers
        self.json = json
    }

    /// Solves the problem and prints the answer (text or one JSON object).
    ///
    /// ```swift
    /// try GeodesicQuery(inverse: true, numbers: [-33.87, 151.21, 51.5, -0.13]).run(runtime: runtime)
    /// ```
    public func run(runtime: Runtime) throws -> ExitCode {
        guard numbers.count == 4 else { throw InvalidRequest("a geodesic problem has four numbers, not \(numbers.count)") }
        let inverse = self.inverse, numbers = self.numbers, json = self.json
        if let why = GeodesicInput.problem(numbers, inverse: inverse) { throw InvalidRequest(why) }
        do throws(GeodesyError) {
            let start = try GeoPoint(latitude: numbers[0], longitude: numbers[1])
            if inverse {
                let end = try GeoPoint(latitude: numbers[2], longitude: numbers[3])
                let r = Geodesic.inverse(start, end)
                if json {
                    let record = GeodesicRecord(inverse: true, latitude1: numbers[0], longitude1: numbers[1], latitude2: numbers[2],
                                                longitude2: numbers[3], distance: r.distance, azimuth1: r.azimuth1, azimuth2: r.azimuth2)
                    runtime.output.write(ReportJSON.geodesic(record).serialized() + "\n")
                } else {
                    runtime.output.write("distance   \(fixed(r.distance, 3)) m (\(fixed(r.distance / 1000, 3)) km)\n"
                              + "azimuth 1  \(fixed(r.azimuth1, 6))° (\(formatBearing(r.azimuth1, style: .points16)))\n"
                              + "azimuth 2  \(fixed(r.azimuth2, 6))° (\(formatBearing(r.azimuth2, style: .points16)))\n")
                }
            } else {
                let r = try Geodesic.direct(from: start, azimuth: numbers[2], distance: numbers[3])
                if json {
                    let record = GeodesicRecord(inverse: false, latitude1: numbers[0], longitude1: numbers[1],
                                                latitude2: r.point.latitude, longitude2: r.point.longitude, distance: numbers[3],
                                                azimuth1: numbers[2], azimuth2: r.azimuth2)
                    runtime.output.write(ReportJSON.geodesic(record).serialized() + "\n")
                } else {
                    runtime.output.write("lat2       \(fixed(r.point.latitude, 9))\nlon2       \(fixed(r.point.longitude, 9))\n"
                              + "azimuth 2  \(fixed(r.azimuth2, 6))°\n")
                }
            }
        } catch {
            throw InvalidRequest(error.message)
        }
        return .success
    }
}

/// `lodestone geod --csv`: one output row per input row, in order; bad rows exit 65 with their number.
/// The output's columns are `geod --json`'s keys (`ReportJSON.geodesicKeys`), the input's its first four.
public enum GeodBatch {
    /// The columns a problem is read from: the first four of its output.
    public static func inputColumns(inverse: Bool) -> [String] { Array(ReportJSON.geodesicKeys(inverse: inverse).prefix(4)) }

    /// Reads one problem per line from `input` (standard input) and writes one CSV row each.
    public static func run(inverse: Bool, input: Int32 = STDIN_FILENO, runtime: Runtime) throws -> ExitCode {
        let inputColumns = Self.inputColumns(inverse: inverse)
        let header = ReportJSON.geodesicKeys(inverse: inverse).joined(separator: ",")
        var reader = LineReader(fd: input)
        let out = runtime.output
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
                guard let d = Double(text), d.isFinite else { throw BatchError(line: n, text: "\(name) '\(argumentExcerpt(text))' is not a number") }
                v.append(d)
            }
            if let why = GeodesicInput.problem(v, inverse: inverse) { throw BatchError(line: n, text: why) }
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

/// The range checks of a geodesic problem's input, beyond what the geodesics themselves accept:
/// a longitude beyond ±540° (one and a half turns, the most a normalisation should meet) or a
/// distance beyond 1,000,000 km is a mistake in the input, not a place or a journey.
enum GeodesicInput {
    static let longitudeLimit = 540.0
    static let distanceLimit = 1e9

    /// What is wrong with LAT1 LON1 LAT2 LON2 (inverse) or LAT1 LON1 AZIMUTH DISTANCE (direct), or nil.
    static func problem(_ v: [Double], inverse: Bool) -> String? {
        guard v.count == 4 else { return "a geodesic problem has four numbers, not \(v.count)" }
        let longitudes = inverse ? [v[1], v[3]] : [v[1]]
        if let lon = longitudes.first(where: { abs($0) > longitudeLimit }) {
            return "longitude \(lon)° is outside −540…540°; give longitude in degrees after latitude"
        }
        if !inverse, abs(v[3]) > distanceLimit {
            return "distance \(v[3]) m is beyond 1,000,000 km; give the distance in metres"
        }
        return nil
    }
}
