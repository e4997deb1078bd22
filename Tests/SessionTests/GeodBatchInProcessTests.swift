import Foundation
import Outputs
import Platform
@testable import Session
import Testing
import TestSupport

/// `geod --inverse --csv` as the command runs it, in process, its standard input a file: every
/// 20th line of Karney's test set. (Moved from the spawned-binary suite; the binary's geod is still
/// run end to end by LiveEndToEndTests, on a full disk and past a file-size limit.)
@Suite("geod --csv, the batch in process")
struct GeodBatchInProcessTests {
    @Test func inverseBatchMatchesKarneyTestSet() throws {
        let url = packageRoot.appendingPathComponent("Tests/Fixtures/geodesic/GeodTest-short.dat")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        let sample = stride(from: 0, to: lines.count, by: 20).map { lines[$0].split(separator: " ").map(String.init) }
        let input = "lat1,lon1,lat2,lon2\n" + sample.map { "\($0[0]),\($0[1]),\($0[3]),\($0[4])" }.joined(separator: "\n")
        let result = try SessionHarness("geod-batch").run("geod", stdin: input) {
            try GeodBatch.run(inverse: true, input: $0.input, runtime: $0)
        }
        #expect(result.status == .success, "\(result.stderr)")
        let out = result.stdout.split(separator: "\n").map(String.init)
        try #require(out.count == sample.count + 1, "\(out.count) lines for \(sample.count) problems: \(result.stderr)")
        let header = out[0].split(separator: ",").map(String.init)
        // The columns are geod --json's keys (the old input header, lat1,lon1,…, is still read).
        #expect(header == ["lat1_deg", "lon1_deg", "lat2_deg", "lon2_deg", "distance_m", "azimuth1_deg", "azimuth2_deg"])
        #expect(header == ReportJSON.geodesicKeys(inverse: true))
        let d = try #require(header.firstIndex(of: "distance_m"))
        let a1 = try #require(header.firstIndex(of: "azimuth1_deg")), a2 = try #require(header.firstIndex(of: "azimuth2_deg"))
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
