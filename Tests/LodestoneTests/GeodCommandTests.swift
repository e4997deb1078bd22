import Foundation
import Testing
import TestSupport

@Suite("lodestone geod (end to end)")
struct GeodCommandTests {
    /// Every 20th line of Karney's test set through the batch CSV: distances within 15 nm.
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

    @Test func directRoundTripsTheInverse() throws {
        let inv = try runLodestone(["geod", "--inverse", "-33.8694", "151.1990", "-37.8136", "144.9631", "--json"])
        #expect(inv.status == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(inv.stdout.utf8)) as? [String: Any])
        let s = try #require(o["distance_m"] as? Double), az = try #require(o["azimuth1_deg"] as? Double)
        let dir = try runLodestone(["geod", "--direct", "-33.8694", "151.1990", "\(az)", "\(s)", "--json"])
        let p = try #require(try JSONSerialization.jsonObject(with: Data(dir.stdout.utf8)) as? [String: Any])
        #expect(abs((p["lat2"] as? Double ?? 0) - -37.8136) < 1e-9)
        #expect(abs((p["lon2"] as? Double ?? 0) - 144.9631) < 1e-9)
        #expect(abs((p["azimuth2_deg"] as? Double ?? -1) - (o["azimuth2_deg"] as? Double ?? -2)) < 1e-9)
    }

    @Test func badInputExitCodes() throws {
        for (input, fragment) in [("0,0,91,1\n", "line 1"), ("0,0,1,1\n0,x,1,1\n", "line 2"), ("0,0,1\n", "expected 4 fields"), ("0,0,nan,1\n", "line 1")] {
            let r = try runLodestone(["geod", "--inverse", "--csv"], stdin: input)
            #expect(r.status == 65, "\(input)")
            #expect(r.stderr.contains(fragment), "\(r.stderr)")
        }
        #expect(try runLodestone(["geod", "--inverse", "1", "2", "3"]).status == 64)
        #expect(try runLodestone(["geod", "1", "2", "3", "4"]).status == 64)
        #expect(try runLodestone(["geod", "--inverse", "--direct", "1", "2", "3", "4"]).status == 64)
        #expect(try runLodestone(["geod", "--inverse", "95", "0", "0", "0"]).status == 64)
    }
}
