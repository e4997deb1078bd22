import Foundation
import HeadingLog
import Linear
import Platform
import Testing

@Suite("CSV schema v1 and row formatting")
struct SchemaAndFormatTests {
    @Test("the header is the documented contract: 27 columns, time first, units in the names")
    func header() {
        #expect(LogSchema.header.hasPrefix("time,monotonic_s,raw_x_uT,raw_y_uT,raw_z_uT,cal_x_uT,cal_y_uT,cal_z_uT,field_uT,"))
        #expect(LogSchema.header.hasSuffix(",gnss_mode,lat_deg,lon_deg,alt_m,speed_mps,course_deg,eph_m,fix_distance_m,fix_bearing_deg"))
        #expect(LogSchema.fieldCount == 27)
        #expect(LogSchema.header.split(separator: ",").count == LogSchema.fieldCount)
        #expect(Set(LogSchema.columns.map(\.name)).count == LogSchema.fieldCount, "names are unique")
        for column in LogSchema.columns where column.decimals != nil && column.name != "monotonic_s" {
            let unitSuffix = ["_uT", "_deg", "_m", "_mps"].contains { column.name.hasSuffix($0) }
            #expect(unitSuffix, "\(column.name) carries its unit")
        }
    }

    @Test("the README documents every column in order")
    func readme() throws {
        let text = try String(contentsOf: projectRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let found = text.range(of: "## Log format (CSV schema v1)")
        try #require(found != nil, "README.md has a section '## Log format (CSV schema v1)'")
        guard let section = found else { return }
        let rest = text[section.upperBound...]
        let tableRows = rest.components(separatedBy: "\n").filter { $0.hasPrefix("| `") }
        let documented = tableRows.prefix(LogSchema.fieldCount).compactMap { row -> String? in
            guard let a = row.firstIndex(of: "`"), let b = row[row.index(after: a)...].firstIndex(of: "`") else { return nil }
            return String(row[row.index(after: a)..<b])
        }
        #expect(documented == LogSchema.columns.map(\.name))
    }

    @Test("header matching: exact, extended by a later version, other")
    func headerMatch() {
        #expect(LogSchema.match(header: Array(LogSchema.header.utf8)) == .exact)
        #expect(LogSchema.match(header: Array((LogSchema.header + "\r").utf8)) == .exact)
        #expect(LogSchema.match(header: Array((LogSchema.header + ",new_a,new_b").utf8)) == .extended(fieldCount: 29))
        #expect(LogSchema.match(header: Array("time,lat,lon".utf8)) == .other)
        #expect(LogSchema.match(header: Array((LogSchema.header + "x").utf8)) == .other)
        #expect(LogSchema.match(header: Array(LogSchema.header.dropLast(3).utf8)) == .other)
    }

    @Test("formatting and parsing round-trip exactly (fixed seed)")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 7)
        let parser = LogRowParser()
        for i in 0..<2000 {
            let row = sampleRow(&rng, time: 1_700_000_000 + Double(i) * 0.1 + rng.nextUnit() * 1e-3, withFix: i % 3 != 0)
            let line = LogRowFormat.line(row)
            #expect(line.hasSuffix("\n"))
            let fields = line.dropLast().split(separator: ",", omittingEmptySubsequences: false)
            #expect(fields.count == LogSchema.fieldCount)
            for (field, column) in zip(fields, LogSchema.columns) where column.decimals != nil {
                #expect(!field.contains("e") && !field.contains("E"), "no exponent in \(column.name): \(field)")
            }
            let back = try parser.parse(line)
            #expect(back == row, "\(line)")
        }
    }

    @Test("absent, NaN and infinite values are empty fields; a row of nothing has 27 fields")
    func emptyFields() throws {
        var row = LogRow(time: 1_700_000_000, monotonic: 0)
        row.fieldStrength = .nan
        row.magneticHeading = .infinity
        row.latitude = 1e300
        let line = LogRowFormat.line(row)
        #expect(line == "2023-11-14T22:13:20.000Z,0" + String(repeating: ",", count: 25) + "\n")
        let back = try LogRowParser().parse(line)
        #expect(back.fieldStrength == nil && back.magneticHeading == nil && back.latitude == nil)
    }

    @Test("numbers: column resolution, no exponent, no -0, angles wrapped into [0, 360)")
    func numbers() throws {
        var row = LogRow(time: 0, monotonic: 0.000001234)
        row.rawField = Vector3(1e-9, -0.0004, 123.4567)
        row.magneticHeading = 359.9996
        row.trueHeading = -10
        row.course = 725.5
        row.latitude = -33.123456789
        let fields = LogRowFormat.line(row).dropLast().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(fields[0] == "1970-01-01T00:00:00.000Z")
        #expect(fields[1] == "0.000001")
        #expect(fields[2] == "0" && fields[3] == "0" && fields[4] == "123.457")
        #expect(fields[12] == "0", "359.9996 rounds to 360, written as 0")
        #expect(fields[15] == "350")
        #expect(fields[23] == "5.5")
        #expect(fields[19] == "-33.12345679")
    }

    @Test("text fields never break the CSV: commas, quotes, line breaks and '|' inside a flag become '_'")
    func textFields() throws {
        var row = LogRow(time: 1, monotonic: 1)
        row.declinationSource = "w,m\"m\n"
        row.flags = ["disturbed", "a|b", "", "x,y"]
        row.gnssMode = "3d\r"
        let line = LogRowFormat.line(row)
        #expect(line.split(separator: ",", omittingEmptySubsequences: false).count == LogSchema.fieldCount)
        #expect(line.filter { $0 == "\n" }.count == 1)
        let back = try LogRowParser().parse(line)
        #expect(back.declinationSource == "w_m_m_")
        #expect(back.flags == ["disturbed", "a_b", "x_y"])
        #expect(back.gnssMode == "3d_")
    }

    @Test("parser problems name the column or the field count")
    func parserProblems() {
        let parser = LogRowParser()
        #expect(throws: RowProblem.fieldCount(expected: 27, found: 7)) { try parser.parse("a,b,c,d,e,f,g") }
        let badNumber = csvLine(["time": "2024-01-01T00:00:00.000Z", "monotonic_s": "1", "field_uT": "12x"])
        #expect(throws: RowProblem.badNumber(column: "field_uT", text: "12x")) { try parser.parse(badNumber) }
        let badTime = csvLine(["time": "yesterday", "monotonic_s": "1"])
        #expect(throws: RowProblem.badTime("yesterday")) { try parser.parse(badTime) }
        let partial = csvLine(["time": "2024-01-01T00:00:00.000Z", "monotonic_s": "1", "raw_x_uT": "1"])
        #expect(throws: RowProblem.partialVector(column: "raw_x_uT")) { try parser.parse(partial) }
        #expect(RowProblem.fieldCount(expected: 27, found: 7).description == "expected 27 fields, found 7")
    }
}
