import Foundation
import Testing
import TestSupport

/// `lodestone heading` and `watch --deviation show` through the binary: their arguments (exit 64).
/// What the replay and the card show is tested in process (SessionTests: HeadingReplayInProcessTests);
/// the binary's wiring of --from-file is also run by HostileInputTests.
@Suite("lodestone heading --from-file (the binary)")
struct HeadingCommandTests {
<<<<<<< HEAD
    /// A level board held at 12 magnetic headings for 2 s each at 50 Hz, with a hard-iron offset
    /// of (30, −20, 10) µT and a little noise (fixed seed).
    func recording(offset: (Double, Double, Double) = (30, -20, 10), accelerometer: Bool = false) -> (csv: String, truth: [Double]) {
        var lines = [accelerometer ? "t,x,y,z,ax,ay,az" : "t,x,y,z"]
        var truth: [Double] = []
        var state: UInt64 = 7
        func noise() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (Double(state >> 11) / Double(1 << 53) - 0.5) * 0.2
        }
        let h = 24.6, down = -51.4
        for k in 0..<12 {
            let heading = Double(k) * 30 + 5
            for i in 0..<100 {
                let t = Double(k * 100 + i) * 0.02
                let psi = heading * .pi / 180
                let x = h * cos(psi) + offset.0 + noise(), y = -h * sin(psi) + offset.1 + noise(), z = down + offset.2 + noise()
                lines.append(String(format: "%.2f,%.4f,%.4f,%.4f", t, x, y, z) + (accelerometer ? ",0,0,-1" : ""))
                truth.append(heading)
            }
        }
        return (lines.joined(separator: "\n") + "\n", truth)
    }

    func profile(offset: (Double, Double, Double)) -> String {
        """
        {"schema_version": 1, "sensor": {"chip": "recording"}, "offset": [\(offset.0), \(offset.1), \(offset.2)],
         "matrix": [[1,0,0],[0,1,0],[0,0,1]], "field_strength": 57, "residual_percent": 0.5, "coverage_percent": 100,
         "sample_count": 1000, "model": "full", "created": "2026-01-01T00:00:00.000Z", "unit": "uT"}
        """
    }

    @Test func contractWithCalibrationAndDeclination() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let (csv, truth) = recording(accelerometer: true)
        let input = dir.appendingPathComponent("raw.csv"), prof = dir.appendingPathComponent("p.json")
        try csv.write(to: input, atomically: true, encoding: .utf8)
        try profile(offset: (30, -20, 10)).write(to: prof, atomically: true, encoding: .utf8)
        let r = try runLodestone(["heading", "--from-file", input.path, "--calibration", prof.path,
                                  "--declination", "-10"], timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = r.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = rows[0]
        for column in ["monotonic_s", "heading_mag_deg", "heading_true_deg", "accuracy_deg"] { #expect(header.contains(column)) }
        #expect(rows.count == truth.count + 1)
        let inputTimes = csv.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) }
        let ti = header.firstIndex(of: "monotonic_s")!, mi = header.firstIndex(of: "heading_mag_deg")!
        let tri = header.firstIndex(of: "heading_true_deg")!, ai = header.firstIndex(of: "accuracy_deg")!
        for (i, row) in rows.dropFirst().enumerated() {
            #expect(row[ti] == inputTimes[i], "t is copied from the input")
            // Judge the settled end of each hold.
            if i % 100 == 99 {
                let magnetic = try #require(Double(row[mi])), trueHeading = try #require(Double(row[tri]))
                var d = (magnetic - truth[i]).truncatingRemainder(dividingBy: 360)
                if d > 180 { d -= 360 }; if d < -180 { d += 360 }
                #expect(abs(d) < 0.5, "row \(i): \(magnetic) vs \(truth[i])")
                var dt = (trueHeading - magnetic + 10).truncatingRemainder(dividingBy: 360)
                if dt > 180 { dt -= 360 }; if dt < -180 { dt += 360 }
                #expect(abs(dt) < 1e-6, "true = magnetic + declination (west is negative)")
                #expect((Double(row[ai]) ?? 99) < 2, "level with an accelerometer and calibrated: a small accuracy figure")
            }
        }
    }

    @Test func uncalibratedIsWrongAndSaysSo() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let (csv, truth) = recording()
        let input = dir.appendingPathComponent("raw.csv")
        try csv.write(to: input, atomically: true, encoding: .utf8)
        let r = try runLodestone(["heading", "--from-file", input.path, "--format", "json"], timeout: 30)
        #expect(r.status == 0)
        let objects = r.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.count == truth.count)
        let worst = zip(objects, truth).map { o, t in
            let m = o["heading_mag_deg"] as? Double ?? .nan
            var d = (m - t).truncatingRemainder(dividingBy: 360); if d > 180 { d -= 360 }; if d < -180 { d += 360 }
            return abs(d)
        }.max() ?? 0
        #expect(worst > 20, "an uncalibrated 38 µT hard iron must show")
        #expect(objects.allSatisfy { $0["heading_true_deg"] is NSNull }, "no declination, no true heading")
        // The accuracy says so: tens of degrees, or unavailable (null) where the hard iron outweighs
        // the horizontal field.
        #expect(objects.allSatisfy { $0["accuracy_deg"] is NSNull || ($0["accuracy_deg"] as? Double ?? 0) > 10 },
                "uncalibrated: the accuracy says so")
    }

    @Test func badInput() throws {
=======
    @Test func usageErrors() throws {
>>>>>>> inprocess
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let noT = dir.appendingPathComponent("not.csv")
        try "x,y,z\n1,2,3\n".write(to: noT, atomically: true, encoding: .utf8)
        #expect(try runLodestone(["heading"]).status == 64)
        #expect(try runLodestone(["heading", "--from-file", noT.path, "--format", "xml"]).status == 64)
    }
}

@Suite("lodestone watch --deviation show (the binary)")
struct DeviationShowTests {
    @Test func withoutACardItSaysSoAndAnUnknownModeIsAUsageError() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let empty = try runLodestone(["watch", "--simulate", "--deviation", "show"],
                                     environment: ["XDG_CONFIG_HOME": dir.path])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.contains("no deviation card"))
        #expect(try runLodestone(["watch", "--simulate", "--deviation", "sometimes"]).status == 64)
    }
}
