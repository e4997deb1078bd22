import Foundation
import Testing
import TestSupport

@Suite("lodestone declination (end to end)")
struct DeclinationCommandTests {
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/wmm")

    @Test func batchMatchesNOAATestValues() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("WMM2025_TEST_VALUES.txt"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).compactMap { Double($0) } }
        #expect(rows.count == 100)
        let input = "decimal_year,lat,lon,height_km\n" + rows.map { "\($0[0]),\($0[2]),\($0[3]),\($0[1])" }.joined(separator: "\n") + "\n"
        let result = try runLodestone(["declination", "--csv"], stdin: input, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 101)
        let header = lines[0].split(separator: ",").map(String.init)
        for needed in ["declination_deg", "inclination_deg", "total_nT", "horizontal_nT", "north_nT", "east_nT", "down_nT", "grid_variation_deg", "zone"] {
            #expect(header.contains(needed), "header lacks \(needed)")
        }
        func col(_ name: String) -> Int { header.firstIndex(of: name)! }
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
        let result = try runLodestone(["declination", "--csv"], stdin: "2025.0,80,0,0\n2027.5,0,120,100\n", timeout: 20)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("2025,80,0,0,1.28"))
        #expect(lines[2].hasPrefix("2027.5,0,120,100,-0.2"))
    }

    @Test func singlePointTextAndJSON() throws {
        let text = try runLodestone(["declination", "--lat", "-33.8694", "--lon", "151.1990", "--year", "2026.0"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Declination"))
        #expect(text.stdout.contains("° E"))
        let json = try runLodestone(["declination", "--lat", "52", "--lon", "0", "--date", "2027-07-02", "--json"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["zone"] as? String) == "normal")
        #expect(abs(((object?["decimal_year"] as? Double) ?? 0) - 2027.5) < 0.01)
    }

}
