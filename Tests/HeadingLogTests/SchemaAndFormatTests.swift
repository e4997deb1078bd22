import Foundation
import HeadingLog
import Linear
import Platform
import Testing

@Suite("CSV schema v1 and row formatting")
struct SchemaAndFormatTests {
    @Test("the header is the documented contract: 35 columns, time first, units in the names")
    func header() {
        #expect(LogSchema.header.hasPrefix("time,monotonic_s,raw_x_uT,raw_y_uT,raw_z_uT,cal_x_uT,cal_y_uT,cal_z_uT,field_uT,"))
        #expect(LogSchema.header.hasSuffix(",gnss_mode,lat_deg,lon_deg,alt_m,speed_mps,course_deg,eph_m,fix_distance_m,fix_bearing_deg,"
            + "acc_x_g,acc_y_g,acc_z_g,gyro_x_dps,gyro_y_dps,gyro_z_dps,roll_accuracy_deg,pitch_accuracy_deg"))
        #expect(LogSchema.fieldCount == 35)
        #expect(LogSchema.header.split(separator: ",").count == LogSchema.fieldCount)
        #expect(Set(LogSchema.columns.map(\.name)).count == LogSchema.fieldCount, "names are unique")
        for column in LogSchema.columns where column.decimals != nil && column.name != "monotonic_s" {
            let unitSuffix = ["_uT", "_deg", "_m", "_mps", "_g", "_dps"].contains { column.name.hasSuffix($0) }
            #expect(unitSuffix, "\(column.name) carries its unit")
        }
    }

    @Test("the header is byte-for-byte the version 1 header, and is the schema's column names")
    func headerIsTheSchema() {
        let v1 = "time,monotonic_s,raw_x_uT,raw_y_uT,raw_z_uT,cal_x_uT,cal_y_uT,cal_z_uT,field_uT,roll_deg,"
            + "pitch_deg,heading_mag_raw_deg,heading_mag_deg,declination_deg,declination_source,heading_true_deg,"
            + "accuracy_deg,flags,gnss_mode,lat_deg,lon_deg,alt_m,speed_mps,course_deg,eph_m,fix_distance_m,"
            + "fix_bearing_deg"
        // The first release's 27 columns, then the six inertial ones and the attitude's two
        // accuracies appended since (schema v1 allows appending).
        let inertial = v1 + ",acc_x_g,acc_y_g,acc_z_g,gyro_x_dps,gyro_y_dps,gyro_z_dps"
        let v1Now = inertial + ",roll_accuracy_deg,pitch_accuracy_deg"
        #expect(LogSchema.header(columns: LogSchema.firstReleaseColumnCount) == v1)
        #expect(LogSchema.header(columns: LogSchema.inertialReleaseColumnCount) == inertial)
        #expect(LogSchema.header == v1Now)
        #expect(LogSchema.headerLine == Array((v1Now + "\n").utf8))
        #expect(LogSchema.header.split(separator: ",").map(String.init) == LogSchema.columns.map(\.name))
        #expect(LogSchema.columns.filter(\.isWrappedAngle).map(\.name)
                == ["heading_mag_raw_deg", "heading_mag_deg", "heading_true_deg", "course_deg", "fix_bearing_deg"])
        #expect(LogSchema.columns.map { $0.decimals ?? -1 }
                == [-1, 6, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, -1, 3, 2, -1, -1, 8, 8, 3, 3, 3, 3, 3, 3, 5, 5, 5, 4, 4, 4, 2, 2])
    }

    @Test("a vector's components are consecutive columns x, y, z")
    func vectorColumns() {
        for (i, column) in LogSchema.columns.enumerated() {
            guard case let .vectorComponent(keyPath, axis, _) = column.field else { continue }
            guard case let .vectorComponent(firstPath, 0, _) = LogSchema.columns[i - axis].field else {
                Issue.record("\(column.name): no x component \(axis) columns before it"); continue
            }
            #expect(firstPath == keyPath, "\(column.name)")
        }
    }

    @Test("a known row writes exactly the version 1 bytes, and reads back")
    func goldenLine() throws {
        let row = LogRow(
            time: 1_717_243_200.125, monotonic: 12.5, rawField: Vector3(24.1, -3.25, -51),
            calibratedField: Vector3(22.6, -3, -50.5), fieldStrength: 55.3, roll: -1.5, pitch: 0.25,
            rawMagneticHeading: 7.5, magneticHeading: 7.25, declination: 12.875, declinationSource: "wmm",
            trueHeading: 20.125, accuracy: 1.25, flags: ["disturbed", "tiltHeld"], gnssMode: "3d",
            latitude: -33.8688, longitude: 151.20929, altitude: 20.5, speed: 1.25, course: 90,
            horizontalError: 2.5, fixDistance: 3.75, fixBearing: 45.5,
            acceleration: Vector3(0.0125, -0.5, -0.98765), rotationRate: Vector3(1.5, -0.0625, 12.3456),
            rollAccuracy: 0.75, pitchAccuracy: 1.5)
        let expected = "2024-06-01T12:00:00.125Z,12.5,24.1,-3.25,-51,22.6,-3,-50.5,55.3,-1.5,0.25,7.5,7.25,12.875,wmm,"
            + "20.125,1.25,disturbed|tiltHeld,3d,-33.8688,151.20929,20.5,1.25,90,2.5,3.75,45.5,"
            + "0.0125,-0.5,-0.98765,1.5,-0.0625,12.3456,0.75,1.5\n"
        #expect(LogRowFormat.line(row) == expected)
        #expect(try LogRowParser().parse(expected) == row)
    }

    @Test("every column round-trips on its own, in its own field")
    func everyColumnRoundTrips() throws {
        let parser = LogRowParser()
        let base = LogRow(time: 1_700_000_000.5, monotonic: 3.25)
        for (i, column) in LogSchema.columns.enumerated() {
            var row = base
            switch column.field {
            case .time: row.time = 1_600_000_000.875
            case let .requiredNumber(keyPath, _): row[keyPath: keyPath] = 987.654321
            case let .number(keyPath, decimals): row[keyPath: keyPath] = decimals >= 3 ? -12.345 : 12.34
            case let .angle(keyPath): row[keyPath: keyPath] = 359.875
            case let .vectorComponent(keyPath, axis, _):
                var v = Vector3(0, 0, 0)
                v = Vector3(axis == 0 ? 1.5 : v.x, axis == 1 ? -2.25 : v.y, axis == 2 ? 3.125 : v.z)
                row[keyPath: keyPath] = v
            case let .text(keyPath): row[keyPath: keyPath] = "x\(i)"
            case .flags: row.flags = ["disturbed", "f\(i)"]
            }
            #expect(row != base || column.name == "time", "\(column.name) changes the row")
            let line = LogRowFormat.line(row)
            let fields = line.dropLast().split(separator: ",", omittingEmptySubsequences: false)
            #expect(fields.count == LogSchema.fieldCount)
            for (j, field) in fields.enumerated() where j > 1 {
                let sameVector: Bool
                if case let .vectorComponent(a, _, _) = column.field, case let .vectorComponent(b, _, _) = LogSchema.columns[j].field {
                    sameVector = a == b
                } else {
                    sameVector = false
                }
                #expect(field.isEmpty == (j != i && !sameVector), "\(column.name) set: field \(j) '\(field)'")
            }
            #expect(try parser.parse(line) == row, "\(column.name): \(line)")
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
        #expect(LogSchema.match(header: Array((LogSchema.header + ",new_a,new_b").utf8))
                == .extended(knownColumns: LogSchema.fieldCount, fieldCount: LogSchema.fieldCount + 2))
        // A file from before the inertial columns were appended.
        let first = LogSchema.header(columns: LogSchema.firstReleaseColumnCount)
        #expect(first.hasSuffix(",fix_bearing_deg"))
        #expect(LogSchema.match(header: Array(first.utf8)) == .extended(knownColumns: 27, fieldCount: 27))
        #expect(LogSchema.match(header: Array((first + ",acc_x_g").utf8)) == .other, "a partial layout is not ours")
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

    @Test("absent, NaN and infinite values are empty fields; a row of nothing has 35 fields")
    func emptyFields() throws {
        var row = LogRow(time: 1_700_000_000, monotonic: 0)
        row.fieldStrength = .nan
        row.magneticHeading = .infinity
        row.latitude = 1e300
        let line = LogRowFormat.line(row)
        #expect(line == "2023-11-14T22:13:20.000Z,0" + String(repeating: ",", count: 33) + "\n")
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
        #expect(throws: RowProblem.fieldCount(expected: 35, found: 7)) { try parser.parse("a,b,c,d,e,f,g") }
        let badNumber = csvLine(["time": "2024-01-01T00:00:00.000Z", "monotonic_s": "1", "field_uT": "12x"])
        #expect(throws: RowProblem.badNumber(column: "field_uT", text: "12x")) { try parser.parse(badNumber) }
        let badTime = csvLine(["time": "yesterday", "monotonic_s": "1"])
        #expect(throws: RowProblem.badTime("yesterday")) { try parser.parse(badTime) }
        let partial = csvLine(["time": "2024-01-01T00:00:00.000Z", "monotonic_s": "1", "raw_x_uT": "1"])
        #expect(throws: RowProblem.partialVector(column: "raw_x_uT")) { try parser.parse(partial) }
        #expect(RowProblem.fieldCount(expected: 33, found: 7).description == "expected 33 fields, found 7")
    }
}
