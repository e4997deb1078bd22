import Foundation
import Platform
@testable import Session
import Testing
import TestSupport

/// `heading --from-file` and `watch --deviation show` as the commands run them, in process: the
/// replay's columns against a known truth, an uncalibrated board's accuracy, bad recordings and
/// profiles, and the deviation card. (Moved from the spawned-binary suite, which keeps the
/// argument checks.)
@Suite("heading --from-file and watch --deviation show, in process")
struct HeadingReplayInProcessTests {
    /// A level board held at 12 magnetic headings for 2 s each at 50 Hz, with a hard-iron offset
    /// of (30, −20, 10) µT and a little noise (fixed seed).
    static func recording(offset: (Double, Double, Double) = (30, -20, 10), accelerometer: Bool = false) -> (csv: String, truth: [Double]) {
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

    static func profile(offset: (Double, Double, Double)) -> String {
        """
        {"schema_version": 1, "sensor": {"chip": "recording"}, "offset": [\(offset.0), \(offset.1), \(offset.2)],
         "matrix": [[1,0,0],[0,1,0],[0,0,1]], "field_strength": 57, "residual_percent": 0.5, "coverage_percent": 100,
         "sample_count": 1000, "model": "full", "created": "2026-01-01T00:00:00.000Z", "unit": "uT"}
        """
    }

    func replay(_ h: SessionHarness, _ replay: HeadingReplay) -> CommandRun {
        h.run("heading") { try replay.run(runtime: $0) }
    }

    @Test("with a calibration and --declination -10: t copied, magnetic within 0.5°, true = magnetic − 10°, a small accuracy")
    func contractWithCalibrationAndDeclination() throws {
        let h = try SessionHarness("heading-contract")
        let (csv, truth) = Self.recording(accelerometer: true)
        let input = try h.file("raw.csv", csv), prof = try h.file("p.json", Self.profile(offset: (30, -20, 10)))
        let r = replay(h, HeadingReplay(path: input, calibrationPath: prof, unit: "uT", json: false,
                                        settings: HeadingSettings(declinationSource: .manual(degrees: -10))))
        #expect(r.status == .success, "\(r.stderr)")
        let rows = r.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(rows.first)
        for column in ["monotonic_s", "heading_mag_deg", "heading_true_deg", "accuracy_deg"] { #expect(header.contains(column)) }
        #expect(rows.count == truth.count + 1)
        let inputTimes = csv.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) }
        let ti = try #require(header.firstIndex(of: "monotonic_s")), mi = try #require(header.firstIndex(of: "heading_mag_deg"))
        let tri = try #require(header.firstIndex(of: "heading_true_deg")), ai = try #require(header.firstIndex(of: "accuracy_deg"))
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

    @Test("uncalibrated: the heading is tens of degrees off and the accuracy says so; no declination, no true heading")
    func uncalibratedIsWrongAndSaysSo() throws {
        let h = try SessionHarness("heading-uncalibrated")
        let (csv, truth) = Self.recording()
        let input = try h.file("raw.csv", csv)
        let r = replay(h, HeadingReplay(path: input, unit: "uT", json: true, settings: HeadingSettings()))
        #expect(r.status == .success, "\(r.stderr)")
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

    @Test("no t column: exit 65 naming it; a missing recording: 74; a corrupt profile: 65 naming its path")
    func badInput() throws {
        let h = try SessionHarness("heading-bad")
        let noT = try h.file("not.csv", "x,y,z\n1,2,3\n")
        let r1 = replay(h, HeadingReplay(path: noT, unit: "uT", json: false, settings: HeadingSettings()))
        #expect(r1.status == .dataError, "\(r1.stderr)")
        #expect(r1.stderr.contains("t"))
        #expect(r1.stdout.isEmpty)
        let missing = replay(h, HeadingReplay(path: h.path("missing.csv"), unit: "uT", json: false, settings: HeadingSettings()))
        #expect(missing.status == .ioError, "\(missing.stderr)")
        let corrupt = try h.file("bad.json", "{not json")
        let r2 = replay(h, HeadingReplay(path: noT, calibrationPath: corrupt, unit: "uT", json: false, settings: HeadingSettings()))
        #expect(r2.status == .dataError, "\(r2.stderr)")
        #expect(r2.stderr.contains(corrupt), "\(r2.stderr)")
    }

    @Test("watch --deviation show prints the profile's card; without one it says there is none")
    func deviationCard() throws {
        let h = try SessionHarness("deviation-show")
        let prof = h.path("p.json")
        let corrections = (0..<36).map { i in String(format: "%.1f", 2 * sin(Double(i) * .pi / 18)) }.joined(separator: ",")
        try """
        {"schema_version": 1, "sensor": {"chip": "simulated-qmc5883l"}, "offset": [0,0,0],
         "matrix": [[1,0,0],[0,1,0],[0,0,1]], "field_strength": 57, "residual_percent": 0.5, "coverage_percent": 100,
         "sample_count": 1000, "model": "full", "created": "2026-01-01T00:00:00.000Z", "unit": "uT",
         "deviation_degrees": [\(corrections)]}
        """.write(toFile: prof, atomically: true, encoding: .utf8)
        let settings = HeadingSettings(deviation: .apply)
        let r = h.run("watch") {
            try WatchSession.showDeviationCard(LiveRequest(sensors: SensorSelection(simulate: true), calibrationPath: prof,
                                                           heading: settings), runtime: $0)
        }
        #expect(r.status == .success, "\(r.stderr)")
        #expect(r.stdout.contains("36 sectors"), "\(r.stdout)")
        #expect(r.stdout.contains("90°") && r.stdout.contains("+2.0°"), "\(r.stdout)")
        // The harness's config folder holds no profile.
        let empty = h.run("watch") {
            try WatchSession.showDeviationCard(LiveRequest(sensors: SensorSelection(simulate: true), heading: settings), runtime: $0)
        }
        #expect(empty.status == .success, "\(empty.stderr)")
        #expect(empty.stdout.contains("no deviation card"), "\(empty.stdout)")
    }
}
