import Geomagnetism
import Glibc
import Platform

/// `lodestone declination --csv`: one output row per input row, in order.
public enum DeclinationBatch {
    static let header = "decimal_year,lat,lon,height_km,declination_deg,inclination_deg,total_nT,horizontal_nT,"
        + "north_nT,east_nT,down_nT,grid_variation_deg,zone,declination_uncertainty_deg,"
        + "declination_change_deg_per_year,inclination_change_deg_per_year,total_change_nT_per_year"

    /// Reads decimal_year,lat,lon,height_km lines from `input` (standard input) and writes one CSV row each.
    public static func run(allowExtrapolation: Bool, input: Int32 = STDIN_FILENO, runtime: Runtime) throws -> ExitCode {
        var reader = LineReader(fd: input)
        let out = runtime.output
        let model = WorldMagneticModel.wmm2025
        var columns = ["decimal_year", "lat", "lon", "height_km"]
        var wroteHeader = false
        var warned = false
        var rows = 0
        while let raw = try reader.next() {
            let line = raw.trimmingCharacters(in: " \t")
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: " \t\"") }
            if rows == 0 && !wroteHeader, let first = fields.first, Double(first) == nil {
                columns = try headerColumns(fields, line: reader.lineNumber)
                out.write(header + "\n")
                wroteHeader = true
                continue
            }
            if !wroteHeader { guard out.write(header + "\n") else { return .success }; wroteHeader = true }
            let values = try parseRow(fields, columns: columns, line: reader.lineNumber)
            let field: MagneticField
            do {
                field = try model.field(at: GeodeticPoint(latitude: values.lat, longitude: values.lon, heightKm: values.height),
                                        decimalYear: values.year, allowExtrapolation: allowExtrapolation)
            } catch {
                throw BatchError(line: reader.lineNumber, text: error.message)
            }
            if field.isExtrapolated && !warned {
                runtime.diagnostics.write("warning: line \(reader.lineNumber): dates outside 2025.0–2030.0 are extrapolated and less accurate\n")
                warned = true
            }
            let cells = [plain(values.year), plain(values.lat), plain(values.lon), plain(values.height),
                         plain(field.declination), plain(field.inclination), plain(field.total), plain(field.horizontal),
                         plain(field.north), plain(field.east), plain(field.down), field.gridVariation.map(plain) ?? "",
                         field.zone.name, plain(field.uncertainty.declination), plain(field.secular.declination),
                         plain(field.secular.inclination), plain(field.secular.total)]
            guard out.write(cells.joined(separator: ",") + "\n") else { return .success }
            rows += 1
        }
        if !wroteHeader { out.write(header + "\n") }
        return .success
    }

    /// Maps a header line to the column order; accepts common synonyms.
    static func headerColumns(_ fields: [String], line: Int) throws(BatchError) -> [String] {
        let synonyms = ["year": "decimal_year", "date": "decimal_year", "decimal_year": "decimal_year",
                        "lat": "lat", "latitude": "lat", "lon": "lon", "long": "lon", "longitude": "lon",
                        "height_km": "height_km", "height": "height_km", "alt_km": "height_km", "altitude_km": "height_km"]
        var columns: [String] = []
        for f in fields {
            guard let name = synonyms[f.lowercased()] else {
                throw BatchError(line: line, text: "unknown column '\(sanitize(f))'; expected decimal_year,lat,lon,height_km")
            }
            columns.append(name)
        }
        for needed in ["decimal_year", "lat", "lon"] where !columns.contains(needed) {
            throw BatchError(line: line, text: "the header has no \(needed) column; expected decimal_year,lat,lon,height_km")
        }
        return columns
    }

    static func parseRow(_ fields: [String], columns: [String], line: Int) throws(BatchError)
        -> (year: Double, lat: Double, lon: Double, height: Double) {
        guard fields.count == columns.count else {
            throw BatchError(line: line, text: "expected \(columns.count) fields (\(columns.joined(separator: ","))), found \(fields.count)")
        }
        var v: [String: Double] = [:]
        for (name, text) in zip(columns, fields) {
            guard !text.isEmpty else { throw BatchError(line: line, text: "\(name) is missing") }
            guard let d = Double(text), d.isFinite else {
                throw BatchError(line: line, text: "\(name) '\(argumentExcerpt(text))' is not a number")
            }
            v[name] = d
        }
        let lat = v["lat"] ?? .nan, lon = v["lon"] ?? .nan
        guard (-90...90).contains(lat) else { throw BatchError(line: line, text: "latitude \(plain(lat)) is outside −90…90") }
        guard (-180...360).contains(lon) else { throw BatchError(line: line, text: "longitude \(plain(lon)) is outside −180…360") }
        return (v["decimal_year"] ?? .nan, lat, lon, v["height_km"] ?? 0)
    }
}

/// A bad line in batch input: exit 65 with its number.
public struct BatchError: UserFacingError {
    public var line: Int
    public var text: String
    public var message: String { "line \(line): \(text)" }
    public var exitCode: ExitCode { .dataError }
}

extension String {
    /// The string without leading and trailing characters from `set`.
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
