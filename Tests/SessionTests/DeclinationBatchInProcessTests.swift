import Foundation
import Platform
@testable import Session
import Testing
import TestSupport

/// `declination --csv` as the command runs it, in process, its standard input a file: NOAA's 100
/// test points, and rows without a header. (Moved from the spawned-binary suite, which keeps one
/// point as text and JSON.)
@Suite("declination --csv, the batch in process")
struct DeclinationBatchInProcessTests {
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/wmm")

    /// Runs the batch with `input` as its standard input.
    func batch(_ input: String) throws -> CommandRun {
        try SessionHarness("declination-batch").run("declination", stdin: input) {
            try DeclinationBatch.run(allowExtrapolation: false, input: $0.input, runtime: $0)
        }
    }

    @Test func batchMatchesNOAATestValues() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("WMM2025_TEST_VALUES.txt"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).compactMap { Double($0) } }
        #expect(rows.count == 100)
        let input = "decimal_year,lat,lon,height_km\n" + rows.map { "\($0[0]),\($0[2]),\($0[3]),\($0[1])" }.joined(separator: "\n") + "\n"
        let result = try batch(input)
        #expect(result.status == .success, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 101)
        let header = try #require(lines.first).split(separator: ",").map(String.init)
        for needed in ["declination_deg", "inclination_deg", "total_nT", "horizontal_nT", "north_nT", "east_nT", "down_nT", "grid_variation_deg", "zone"] {
            #expect(header.contains(needed), "header lacks \(needed)")
        }
        try #require(lines.count == 101)
        func col(_ name: String) -> Int { header.firstIndex(of: name) ?? 0 }
        for (i, expected) in rows.enumerated() {
            let cells = lines[i + 1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(cells.count == header.count)
            func value(_ name: String) -> Double { Double(cells[col(name)]) ?? .nan }
            #expect(abs(value("declination_deg") - expected[4]) <= 0.005 + 1e-9, "row \(i) D")
            #expect(abs(value("inclination_deg") - expected[5]) <= 0.005 + 1e-9, "row \(i) I")
            #expect(abs(value("horizontal_nT") - expected[6]) <= 1e-3, "row \(i) H")
            #expect(abs(value("north_nT") - expected[7]) <= 1e-3, "row \(i) X")
            #expect(abs(value("east_nT") - expected[8]) <= 1e-3, "row \(i) Y")
            #expect(abs(value("down_nT") - expected[9]) <= 1e-3, "row \(i) Z")
            #expect(abs(value("total_nT") - expected[10]) <= 1e-3, "row \(i) F")
        }
    }

    @Test func headerIsOptionalAndRowsKeepOrder() throws {
        let result = try batch("2025.0,80,0,0\n2027.5,0,120,100\n")
        #expect(result.status == .success, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.count > 2 && lines[1].hasPrefix("2025,80,0,0,1.28"), "\(result.stdout)")
        #expect(lines.count > 2 && lines[2].hasPrefix("2027.5,0,120,100,-0.2"), "\(result.stdout)")
    }
}
