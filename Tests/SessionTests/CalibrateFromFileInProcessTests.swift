import Foundation
import Calibration
import Platform
@testable import Session
import Testing
import TestSupport

/// `calibrate --from-file` as the command runs it, in process: the real recording, raw counts, and
/// every way a recording can be unusable, with the exit status, the summary on standard error and
/// the profile written. (Moved from the spawned-binary suite; the option conflicts stay there.)
@Suite("calibrate --from-file, the command's session in process")
struct CalibrateFromFileInProcessTests {
    static let data = packageRoot.appendingPathComponent("calibration/data")
    static let realRecording = data.appendingPathComponent("acc_mag_log.csv").path

    /// Runs the command's session on `request` in `h`.
    func calibrate(_ h: SessionHarness, _ request: CalibrationFileRequest) -> CommandRun {
        h.run("calibrate") { try calibrateFromFile(request, runtime: $0) }
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// offset [3] and matrix [3][3] from a profile document.
    func correction(_ profile: [String: Any]) throws -> (offset: [Double], matrix: [[Double]]) {
        let offset = try #require(profile["offset"] as? [Double])
        let matrix = try #require(profile["matrix"] as? [[Double]])
        #expect(offset.count == 3 && matrix.count == 3 && matrix.allSatisfy { $0.count == 3 })
        return (offset, matrix)
    }

    func apply(_ c: (offset: [Double], matrix: [[Double]]), _ raw: [Double]) -> [Double] {
        let d = (0..<3).map { raw[$0] - c.offset[$0] }
        return (0..<3).map { i in (0..<3).reduce(0.0) { $0 + c.matrix[i][$1] * d[$1] } }
    }

    func spreadPercent(_ vectors: [[Double]]) -> Double {
        let m = vectors.map { sqrt($0[0] * $0[0] + $0[1] * $0[1] + $0[2] * $0[2]) }
        let mean = m.reduce(0, +) / Double(m.count)
        let variance = m.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(m.count)
        return sqrt(variance) / mean * 100
    }

    /// Rows of named columns from a CSV with a header.
    func columns(_ path: String, _ names: [String]) throws -> [[Double]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",").map(String.init)
        let index = names.compactMap { header.firstIndex(of: $0) }
        return lines.dropFirst().map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            return index.compactMap { Double(f[$0]) }
        }
    }

    @Test("the real recording: spread ≤ 1.27 %, documented keys, the matrix and offset reproduce it")
    func realRecording() throws {
        let h = try SessionHarness("calibrate-real")
        let output = h.path("profile.json")
        let r = calibrate(h, CalibrationFileRequest(path: Self.realRecording, output: output))
        #expect(r.status == .success, "exit \(r.status): \(r.stderr)")
        #expect(r.stdout.isEmpty, "with --output nothing goes to stdout")
        for word in ["model", "full", "spread of |B|", "residual", "coverage", "all passed"] {
            #expect(r.stderr.contains(word), "summary lacks '\(word)': \(r.stderr)")
        }
        let profile = try json(String(contentsOfFile: output, encoding: .utf8))
        for key in ["offset", "matrix", "field_strength", "residual_percent", "coverage_percent", "sample_count",
                    "model", "created", "sensor", "unit", "schema_version"] {
            #expect(profile[key] != nil, "missing key \(key)")
        }
        #expect((profile["sensor"] as? [String: Any])?["chip"] as? String == "recording")
        #expect(profile["unit"] as? String == "input")
        #expect(profile["model"] as? String == "full")
        let created = try #require(profile["created"] as? String)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try #require(formatter.date(from: created), "created: \(created)")
        #expect(abs(date.timeIntervalSince1970 - h.clock.wall()) < 1, "created at the runtime's wall time: \(created)")
        let c = try correction(profile)
        let raw = try columns(Self.realRecording, ["mx", "my", "mz"])
        #expect(raw.count == 12_000)
        let spread = spreadPercent(raw.map { apply(c, $0) })
        #expect(spread <= 1.27, "spread after \(spread) %")
        let reported = try #require(profile["spread_after_percent"] as? Double)
        #expect(abs(spread - reported) < 0.005, "recomputed \(spread) % vs reported \(reported) %")
        #expect(spreadPercent(raw) > 30)
    }

    @Test("raw counts: heading after calibration within 0.5° of the truth")
    func rawCounts() throws {
        let h = try SessionHarness("calibrate-counts")
        let source = Self.data.appendingPathComponent("qmc5883l_tumble_counts.csv").path
        let r = calibrate(h, CalibrationFileRequest(path: source, unit: .counts, sensor: SensorIdentity(chip: "qmc5883l")))
        #expect(r.status == .success, "exit \(r.status): \(r.stderr)")
        let profile = try json(r.stdout)
        #expect(profile["unit"] as? String == "counts")
        #expect((profile["sensor"] as? [String: Any])?["chip"] as? String == "qmc5883l")
        let c = try correction(profile)
        let truth = try json(String(contentsOf: Self.data.appendingPathComponent("qmc5883l_tumble_counts.truth.json"), encoding: .utf8))
        let scale = try #require(truth["counts_per_microtesla"] as? Double)
        let hard = try #require(truth["hard_iron_microtesla"] as? [Double])
        let soft = try #require(truth["soft_iron"] as? [[Double]])
        let ned = try #require(truth["earth_field_ned_microtesla"] as? [Double])
        var worst = 0.0
        for step in 0..<360 {
            let yaw = Double(step) * .pi / 180
            // Level board heading `yaw`: body = Rz(yaw)ᵀ · NED.
            let body = [cos(yaw) * ned[0] + sin(yaw) * ned[1], -sin(yaw) * ned[0] + cos(yaw) * ned[1], ned[2]]
            let raw = (0..<3).map { i in scale * ((0..<3).reduce(0.0) { $0 + soft[i][$1] * body[$1] } + hard[i]) }
            let corrected = apply(c, raw)
            var error = atan2(-corrected[1], corrected[0]) - atan2(-body[1], body[0])
            error = atan2(sin(error), cos(error)) * 180 / .pi
            worst = max(worst, abs(error))
        }
        #expect(worst <= 0.5, "worst heading error \(worst)°")
    }

    @Test("a recording that turned only on the table: exit 65 with the reason")
    func noCoverage() throws {
        let h = try SessionHarness("calibrate-flat")
        var rows = ["t,x,y,z"]
        for i in 0..<600 {
            let a = Double(i) * 0.05
            rows.append("\(Double(i) * 0.02),\(20 * cos(a) + 31.5),\(20 * sin(a) - 18.2),\(-45.0 + 12.7)")
        }
        let path = try h.file("flat.csv", rows.joined(separator: "\n") + "\n")
        let r = calibrate(h, CalibrationFileRequest(path: path))
        #expect(r.status == .dataError, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("cannot calibrate from \(path)"), "\(r.stderr)")
        #expect(r.stderr.contains("single ring") || r.stderr.contains("orientations"), "\(r.stderr)")
        #expect(r.stderr.contains("tilt it") || r.stderr.contains("turn it"), "the fix is named: \(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("partial coverage: exit 65 naming --force; with --force the fit is written")
    func partialCoverageAndForce() throws {
        // Field directions only within 30° of the top, with 0.3 µT of scatter: a fit is possible,
        // but its predicted heading error is far over the limit.
        let h = try SessionHarness("calibrate-cap")
        var rows = ["x,y,z"]
        var k = 0
        for i in 0..<40 {
            for j in 0..<30 {
                let polar = Double(i) / 39 * 30 * .pi / 180, lon = Double(j) / 30 * 2 * .pi + Double(i)
                let v = [sin(polar) * cos(lon), sin(polar) * sin(lon), -cos(polar)].map { $0 * 50 }
                let noise = Double((k * 7919) % 13 - 6) * 0.1
                rows.append("\(v[0] + 10 + noise),\(v[1] - 5),\(v[2] + 3)")
                k += 1
            }
        }
        let path = try h.file("cap.csv", rows.joined(separator: "\n") + "\n")
        let r = calibrate(h, CalibrationFileRequest(path: path))
        #expect(r.status == .dataError, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("expected heading error"), "\(r.stderr)")
        #expect(r.stderr.contains("covered") || r.stderr.contains("orientations"), "\(r.stderr)")
        // A fit exists, so the message must offer --force, and --force must write it.
        #expect(r.stderr.contains("--force"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let forced = calibrate(h, CalibrationFileRequest(path: path, force: true))
        #expect(forced.status == .success, "\(forced.stderr)")
        #expect(forced.stderr.contains("FAILED"), "\(forced.stderr)")
        #expect(try json(forced.stdout)["offset"] != nil)
    }

    @Test("a magnet attached part way (BROAD 33): refused; the fit --force writes is the better of it and its seed, saying why")
    func theBetterFitAndWhy() throws {
        let h = try SessionHarness("calibrate-seed")
        let source = packageRoot.appendingPathComponent("Tests/Fixtures/broad/broad_33_disturbed_attached_magnet_2cm_excerpt.csv").path
        let refused = calibrate(h, CalibrationFileRequest(path: source))
        #expect(refused.status == .dataError, "exit \(refused.status): \(refused.stderr)")
        #expect(refused.stderr.contains("kept the algebraic ellipsoid") && refused.stderr.contains("the field changed"), "\(refused.stderr)")
        let forced = calibrate(h, CalibrationFileRequest(path: source, force: true))
        #expect(forced.status == .success, "\(forced.stderr)")
        #expect(forced.stderr.contains("seed          kept the algebraic ellipsoid"), "\(forced.stderr)")
        let seed = try #require(try json(forced.stdout)["seed"] as? [String: Any])
        #expect(seed["kept"] as? String == "algebraic")
        #expect((seed["reason"] as? String)?.contains("the field changed") == true, "\(seed)")
        let refined = try #require(seed["refined_spread_percent"] as? Double)
        let algebraic = try #require(seed["algebraic_spread_percent"] as? Double)
        #expect(algebraic < refined / 1.02)
        #expect(seed["refined_model"] as? String != "full")
    }

    @Test("missing magnetometer columns: exit 65 describing the header, not quoting it")
    func missingColumns() throws {
        let h = try SessionHarness("calibrate-cols")
        let path = try h.file("cols.csv", "time,a,b,c\n0,1,2,3\n")
        let r = calibrate(h, CalibrationFileRequest(path: path))
        #expect(r.status == .dataError, "\(r.stderr)")
        #expect(r.stderr.contains("has no magnetometer columns"), "\(r.stderr)")
        #expect(!r.stderr.contains("'a'") && r.stderr.contains("x,y,z"), "\(r.stderr)")
        #expect(r.stderr.contains("line 1") && r.stderr.contains("4 fields"), "\(r.stderr)")
    }

    @Test("no header: exit 65 with the expected format")
    func noHeader() throws {
        let h = try SessionHarness("calibrate-nohead")
        let path = try h.file("nohead.csv", "1,2,3\n4,5,6\n")
        let r = calibrate(h, CalibrationFileRequest(path: path))
        #expect(r.status == .dataError, "\(r.stderr)")
        #expect(r.stderr.contains("has no header"), "\(r.stderr)")
        #expect(r.stderr.contains("line 1"))
    }

    @Test("a few non-numeric rows are skipped and reported by line; too many is exit 65")
    func nonNumericRows() throws {
        let h = try SessionHarness("calibrate-bad-rows")
        let good = try String(contentsOfFile: Self.realRecording, encoding: .utf8).split(separator: "\n")
        var lines = good.map(String.init)
        lines[4] = "0.1,0.2,-1.0,0.1,abc,0.2"          // line 5
        lines[10] = "0.1,0.2,-1.0,0.1"                 // line 11: too few values
        let path = try h.file("some-bad.csv", lines.joined(separator: "\n") + "\n")
        let r = calibrate(h, CalibrationFileRequest(path: path))
        #expect(r.stderr.contains("line 5: column my is not a number ('abc'); row skipped"), "\(r.stderr)")
        #expect(r.stderr.contains("line 11:"), "\(r.stderr)")
        #expect(r.stderr.contains("2 bad rows skipped"), "\(r.stderr)")
        #expect(r.status == .success, "the other 11,998 rows calibrate: \(r.stderr)")

        var bad = Array(good.prefix(101)).map(String.init)
        for i in stride(from: 1, to: 101, by: 3) { bad[i] = "x,y,z,oops,,1" }
        let path2 = try h.file("mostly-bad.csv", bad.joined(separator: "\n") + "\n")
        let r2 = calibrate(h, CalibrationFileRequest(path: path2))
        #expect(r2.status == .dataError, "\(r2.stderr)")
        #expect(r2.stderr.contains("rows are unusable"), "\(r2.stderr)")
        #expect(r2.stderr.contains("line 2:"), "\(r2.stderr)")
    }

    @Test("an empty file, or a header without rows: exit 65")
    func emptyFile() throws {
        let h = try SessionHarness("calibrate-empty")
        let path = try h.file("empty.csv", "")
        let r = calibrate(h, CalibrationFileRequest(path: path))
        #expect(r.status == .dataError, "\(r.stderr)")
        #expect(r.stderr.contains("is empty"), "\(r.stderr)")
        let path2 = try h.file("header.csv", "t,x,y,z\n\n")
        let r2 = calibrate(h, CalibrationFileRequest(path: path2))
        #expect(r2.status == .dataError, "\(r2.stderr)")
        #expect(r2.stderr.contains("no data rows"), "\(r2.stderr)")
    }

    @Test("a file that does not exist: exit 74 naming it")
    func nonexistentFile() throws {
        let h = try SessionHarness("calibrate-missing")
        let r = calibrate(h, CalibrationFileRequest(path: "/nonexistent/raw.csv"))
        #expect(r.status == .ioError, "\(r.stderr)")
        #expect(r.stderr.contains("/nonexistent/raw.csv"), "\(r.stderr)")
    }

    @Test("an output that cannot be written: exit 74 naming it")
    func unwritableOutput() throws {
        let h = try SessionHarness("calibrate-unwritable")
        let r = calibrate(h, CalibrationFileRequest(path: Self.realRecording, output: "/nonexistent/folder/p.json"))
        #expect(r.status == .ioError, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("cannot save calibration file /nonexistent/folder/p.json"), "\(r.stderr)")
    }
}
