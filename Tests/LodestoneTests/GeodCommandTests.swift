import Foundation
import Testing
import TestSupport

@Suite("lodestone geod (end to end)")
struct GeodCommandTests {
    @Test func inverseBatchMatchesKarneyTestSet() throws {
        let url = packageRoot.appendingPathComponent("Tests/Fixtures/geodesic/GeodTest-short.dat")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        let sample = stride(from: 0, to: lines.count, by: 20).map { lines[$0].split(separator: " ").map(String.init) }
        let input = "lat1,lon1,lat2,lon2\n" + sample.map { "\($0[0]),\($0[1]),\($0[3]),\($0[4])" }.joined(separator: "\n")
        let result = try runLodestone(["geod", "--inverse", "--csv"], stdin: input, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout.split(separator: "\n").map(String.init)
        #expect(out.count == sample.count + 1)
        let header = out[0].split(separator: ",").map(String.init)
        // The columns are geod --json's keys (the old input header, lat1,lon1,…, is still read).
        #expect(header == ["lat1_deg", "lon1_deg", "lat2_deg", "lon2_deg", "distance_m", "azimuth1_deg", "azimuth2_deg"])
        let json = try runLodestone(["geod", "--inverse", "1", "2", "3", "4", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == Set(header))
        let d = header.firstIndex(of: "distance_m")!, a1 = header.firstIndex(of: "azimuth1_deg")!, a2 = header.firstIndex(of: "azimuth2_deg")!
        for (i, expected) in sample.enumerated() {
            let cells = out[i + 1].split(separator: ",").map(String.init)
            let distance = try #require(Double(cells[d]))
            #expect(abs(distance - Double(expected[6])!) < 15e-9, "line \(i * 20 + 1)")
            for column in [a1, a2] {
                let v = try #require(Double(cells[column]))
                #expect(v >= 0 && v < 360)
            }
        }
    }

}
