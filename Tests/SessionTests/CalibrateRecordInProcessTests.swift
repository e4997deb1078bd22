import Foundation
import Platform
@testable import Session
import Testing
import TestSupport

/// `calibrate --record` as the command runs it, in process on the manual clock: the recording's
/// rows, the round trip through --from-file, and a file that is never overwritten. (Moved from the
/// spawned-binary suite, which keeps the recording that SIGTERM ends.)
@Suite("calibrate --record, in process")
struct CalibrateRecordInProcessTests {
    @Test("--record then --from-file: the round trip recovers the simulated board's hard iron")
    func recordRoundTrip() throws {
        let h = try SessionHarness("calibrate-record")
        let raw = h.path("raw.csv")
        let record = RecordRequest(sensors: SensorSelection(simulate: true), path: raw, duration: 45, simulationSpeed: 20)
        let r = h.run("calibrate") { try recordRawSamples(record, runtime: $0) }
        #expect(r.status == .success, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("recorded"), "\(r.stderr)")
        let lines = try String(contentsOfFile: raw, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "t,x,y,z" || lines[0] == "t,x,y,z,ax,ay,az", "header: \(lines[0])")
        let width = lines[0].split(separator: ",").count
        let rows = lines.dropFirst().filter { !$0.isEmpty }
        #expect(rows.count > 3000, "\(rows.count) rows")
        #expect(lines.last == "", "the file ends with a complete line")
        var previous = -1.0
        for row in rows {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            #expect(fields.count == width)
            let t = Double(fields[0]) ?? -1
            #expect(t > previous, "time goes forward: \(row)")
            previous = t
        }
        #expect(previous > 40 && previous < 46, "last t \(previous)")

        let profilePath = h.path("p.json")
        let fit = h.run("calibrate") { try calibrateFromFile(CalibrationFileRequest(path: raw, unit: .uT, output: profilePath), runtime: $0) }
        #expect(fit.status == .success, "exit \(fit.status): \(fit.stderr)")
        let profile = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: profilePath))) as? [String: Any])
        #expect(profile["unit"] as? String == "uT")
        let offset = try #require(profile["offset"] as? [Double])
        #expect(offset.count == 3 && abs(offset[0] - 31.5) < 0.5 && abs(offset[1] + 18.2) < 0.5 && abs(offset[2] - 12.7) < 0.5, "\(offset)")
    }

    @Test("--record never overwrites a file: exit 74 saying it exists, the file untouched")
    func recordNeverOverwrites() throws {
        let h = try SessionHarness("calibrate-record-exists")
        let raw = try h.file("raw.csv", "keep me\n")
        let r = h.run("calibrate") {
            try recordRawSamples(RecordRequest(sensors: SensorSelection(simulate: true), path: raw, duration: 1), runtime: $0)
        }
        #expect(r.status == .ioError, "\(r.stderr)")
        #expect(r.stderr.contains("already exists"), "\(r.stderr)")
        #expect(try String(contentsOfFile: raw, encoding: .utf8) == "keep me\n")
    }
}
