import Foundation
import Geomagnetism
import Testing

/// NOAA's 100 official WMM2025 test values and the 12-point table of the technical report.
@Suite struct OfficialValuesTests {
    /// One column of the test-value file: its name, whether it is an angle, and how to read it.
    struct Column: Sendable {
        let name: String
        let isAngle: Bool
        let value: @Sendable (MagneticField) -> Double
    }

    /// Columns 5...18 of WMM2025_TEST_VALUES.txt, in file order.
    static let columns: [Column] = [
        Column(name: "D", isAngle: true) { $0.declination },
        Column(name: "I", isAngle: true) { $0.inclination },
        Column(name: "H", isAngle: false) { $0.horizontal },
        Column(name: "X", isAngle: false) { $0.north },
        Column(name: "Y", isAngle: false) { $0.east },
        Column(name: "Z", isAngle: false) { $0.down },
        Column(name: "F", isAngle: false) { $0.total },
        Column(name: "dD/dt", isAngle: true) { $0.secular.declination },
        Column(name: "dI/dt", isAngle: true) { $0.secular.inclination },
        Column(name: "dH/dt", isAngle: false) { $0.secular.horizontal },
        Column(name: "dX/dt", isAngle: false) { $0.secular.north },
        Column(name: "dY/dt", isAngle: false) { $0.secular.east },
        Column(name: "dZ/dt", isAngle: false) { $0.secular.down },
        Column(name: "dF/dt", isAngle: false) { $0.secular.total },
    ]

    /// Tolerance for a printed value: 1e-3 nT (nT/year) or 1e-5° (°/year) where the file prints
    /// six or more decimals, half a unit of the last printed place where it prints fewer.
    static func tolerance(_ printed: PrintedNumber, isAngle: Bool) -> Double {
        printed.decimals >= 6 ? (isAngle ? 1e-5 : 1e-3) : printed.roundingTolerance
    }

    @Test func allHundredOfficialTestValues() throws {
        let rows = try Fixture.lines("WMM2025_TEST_VALUES.txt").filter { !$0.hasPrefix("#") }
        #expect(rows.count == 100)
        var worst = [String: Double]()
        for row in rows {
            let numbers = row.split(separator: " ").compactMap(PrintedNumber.init)
            try #require(numbers.count == 18, "bad row: \(row)")
            let point = GeodeticPoint(latitude: numbers[2].value, longitude: numbers[3].value,
                                      heightKm: numbers[1].value)
            let field = try WorldMagneticModel.wmm2025.field(at: point, decimalYear: numbers[0].value)
            for (column, printed) in zip(Self.columns, numbers[4...]) {
                let error = abs(column.value(field) - printed.value)
                worst[column.name] = max(worst[column.name] ?? 0, error)
                #expect(error <= Self.tolerance(printed, isAngle: column.isAngle),
                        "\(column.name) at \(row): got \(column.value(field)), file \(printed.value)")
            }
            let d = try WorldMagneticModel.wmm2025.declination(
                latitude: point.latitude, longitude: point.longitude, heightKm: point.heightKm,
                decimalYear: numbers[0].value)
            #expect(abs(d - field.declination) <= 1e-12)
        }
        print("largest deviations from the official test values:",
              worst.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    @Test func technicalReportTable() throws {
        let lines = try Fixture.lines("WMM2025_report_table.csv")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(header == ["date", "height_km", "lat", "lon", "X", "Y", "Z", "H", "F", "I", "D", "GV"])
        #expect(lines.count == 13)
        for line in lines.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            try #require(cells.count == 12, "bad row: \(line)")
            let n = cells.map { PrintedNumber($0) }
            let year = try #require(n[0]).value
            let point = GeodeticPoint(latitude: try #require(n[2]).value,
                                      longitude: try #require(n[3]).value,
                                      heightKm: try #require(n[1]).value)
            let field = try WorldMagneticModel.wmm2025.field(at: point, decimalYear: year)
            let computed = [field.north, field.east, field.down, field.horizontal, field.total,
                            field.inclination, field.declination]
            for (index, value) in computed.enumerated() {
                let printed = try #require(n[4 + index])
                #expect(abs(value - printed.value) <= printed.roundingTolerance,
                        "\(header[4 + index]) at \(line): got \(value)")
            }
            if let printed = n[11] {
                let gv = try #require(field.gridVariation, "grid variation missing at \(line)")
                #expect(abs(gv - printed.value) <= printed.roundingTolerance, "GV at \(line): got \(gv)")
            } else {
                #expect(field.gridVariation == nil, "unexpected grid variation at \(line)")
            }
        }
    }
}
