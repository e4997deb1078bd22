import Foundation
import Testing
import TestSupport

/// `lodestone calibrate` on the simulator, without a terminal: the wizard with --yes/--output,
/// the accelerometer and heading steps fed from a pipe, --record and its round trip.
@Suite("lodestone calibrate (simulator, end to end)")
struct CalibrateCommandTests {
    func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("--record then --from-file: the round trip recovers the simulated board's hard iron")
    func recordRoundTrip() throws {
        let folder = try makeTemporaryFolder("calibrate-record")
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("raw.csv").path
        let r = try runLodestone(["calibrate", "--simulate", "--sim-speed", "20", "--record", raw, "--duration", "45"], timeout: 60)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
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

        let profilePath = folder.appendingPathComponent("p.json").path
        let fit = try runLodestone(["calibrate", "--from-file", raw, "--unit", "uT", "--output", profilePath], timeout: 60)
        #expect(fit.status == 0, "exit \(fit.status): \(fit.stderr)")
        let profile = try json(profilePath)
        #expect(profile["unit"] as? String == "uT")
        let offset = try #require(profile["offset"] as? [Double])
        #expect(abs(offset[0] - 31.5) < 0.5 && abs(offset[1] + 18.2) < 0.5 && abs(offset[2] - 12.7) < 0.5, "\(offset)")
    }

    @Test("--record never overwrites a file (exit 74), and SIGINT ends it with whole rows")
    func recordSafety() throws {
        let folder = try makeTemporaryFolder("calibrate-record2")
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("raw.csv").path
        try "keep me\n".write(toFile: raw, atomically: true, encoding: .utf8)
        let r = try runLodestone(["calibrate", "--simulate", "--record", raw, "--duration", "1"], timeout: 20)
        #expect(r.status == 74)
        #expect(r.stderr.contains("already exists"), "\(r.stderr)")
        #expect(try String(contentsOfFile: raw, encoding: .utf8) == "keep me\n")

        let second = folder.appendingPathComponent("raw2.csv").path
        let s = try runLodestone(["calibrate", "--simulate", "--record", second], timeout: 20, signalAfter: 1.5)
        #expect(s.status == 0, "exit \(s.status): \(s.stderr)")
        let text = try String(contentsOfFile: second, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n")
        #expect(lines.count > 50, "\(lines.count) lines in 1.5 s")
        let width = lines[0].split(separator: ",").count
        #expect(lines.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == width })
    }
}
