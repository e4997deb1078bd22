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
        #expect(header.contains("distance_m") && header.contains("azimuth1_deg") && header.contains("azimuth2_deg"))
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
