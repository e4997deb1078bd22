import Foundation
import Testing
import Calibration
import Heading
import Linear
import Platform
import Simulation
@testable import Session
import TestSupport

/// `lodestone heading --from-file drive.csv --calibration old.json --refine --location LAT,LON` on
/// simulated drives whose truth the test knows.
@Suite("heading --from-file --refine")
struct RefinementReplayTests {
    static let step = FieldChange(field: Vector3(6, -5, 3), start: 300)
    static let transient = FieldChange(field: Vector3(9, -12, 0), start: 720, end: 740, rampSeconds: 2)

    /// Writes the trial's recording and profile, replays it, and returns the heading errors against the
    /// truth, the output lines and what was said.
    static func replay(_ trial: RefinementTrial, refine: Bool, location: Bool = true, format: Bool = false,
                       in h: SessionHarness) throws -> (errors: [(time: Double, error: Double)], lines: [String], said: String) {
        let rows = trial.recording.rows()
        var csv = "t,x,y,z,ax,ay,az,gx,gy,gz\n"
        var truth: [String: Double] = [:]
        for r in rows {
            let t = plain(r.time, decimals: 3)
            truth[t] = r.magneticHeading
            csv += [t, plain(r.magnetometer.x, decimals: 3), plain(r.magnetometer.y, decimals: 3), plain(r.magnetometer.z, decimals: 3),
                    plain(r.accelerometer.x, decimals: 5), plain(r.accelerometer.y, decimals: 5), plain(r.accelerometer.z, decimals: 5),
                    plain(r.gyroscope.x, decimals: 4), plain(r.gyroscope.y, decimals: 4), plain(r.gyroscope.z, decimals: 4)]
                .joined(separator: ",") + "\n"
        }
        try csv.write(toFile: h.path("drive.csv"), atomically: true, encoding: .utf8)
        try CalibrationProfileFile(profiles: [trial.profile]).serialized().write(toFile: h.path("old.json"), atomically: true, encoding: .utf8)
        var settings = HeadingSettings(refine: refine)
        if location { settings.declinationSource = trial.settings.declinationSource }
        let replay = HeadingReplay(path: h.path("drive.csv"), calibrationPath: h.path("old.json"), year: 2026.0,
                                   json: format, settings: settings)
        _ = try replay.run(runtime: h.runtime("heading"))
        let lines = h.output.lines
        var errors: [(time: Double, error: Double)] = []
        if !format {
            let header = lines[0].split(separator: ",").map(String.init)
            let ti = try #require(header.firstIndex(of: "monotonic_s")), hi = try #require(header.firstIndex(of: "heading_mag_deg"))
            for line in lines.dropFirst() {
                let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard let heading = Double(cells[hi]), let t = truth[cells[ti]], let time = Double(cells[ti]) else { continue }
                errors.append((time, angleDifference(heading, t)))
            }
        }
        return (errors, lines, h.diagnostics.text)
    }

    @Test func aStaleProfileIsRefinedOnADriveAndSaved() throws {
        let h = try SessionHarness("refine-replay")
        // A sail: a replay has no receiver, and the boat's attitude needs none.
        let trial = RefinementTrial(scenario: .boat(), duration: 1200, changes: [Self.step, Self.transient], rate: 25)
        let (errors, lines, said) = try Self.replay(trial, refine: true, in: h)
        let last = RefinementTrial.percentile95(errors, from: 840, to: 1200)
        let afterTransient = RefinementTrial.percentile95(errors, from: 740, to: 800)
        print("replay --refine: p95 last 6 min \(last)°, minute after the transient \(afterTransient)°\n\(said)")
        #expect(last <= 1.5)
        #expect(afterTransient <= 2)
        #expect(lines[0].hasSuffix(HeadingReplay.refineHeader))
        #expect(lines.last?.contains(",converged,") == true)
        #expect(lines.last?.contains("refined") == true)
        #expect(said.contains("adopted a changed calibration"))
        // Saved, with the file as it was beside it.
        let saved = try HeadingReplay.loadOfflineProfile(h.path("old.json"), sensor: nil)
        let previous = try HeadingReplay.loadOfflineProfile(h.path("old.json.previous"), sensor: nil)
        #expect(previous.offset == trial.profile.offset)
        // The step adds to the raw reading, so the profile's offset moves by the step itself.
        let expected = trial.profile.offset + Self.step.field
        #expect((saved.offset - expected).norm < 0.5, "saved \(saved.offset), expected \(expected)")
    }

    @Test func withoutRefineTheSameDriveStaysOff() throws {
        let h = try SessionHarness("refine-replay-off")
        let trial = RefinementTrial(scenario: .boat(), duration: 600, changes: [Self.step], rate: 25)
        let (errors, lines, said) = try Self.replay(trial, refine: false, in: h)
        #expect(RefinementTrial.percentile95(errors, from: 420, to: 600) > 3)
        #expect(lines[0] == HeadingReplay.header)
        #expect(!said.contains("refine"))
        #expect(!FileManager.default.fileExists(atPath: h.path("old.json.previous")))
    }

    @Test func withoutRefineTheOutputIsAsWithoutTheRefinement() throws {
        // Without --refine no refiner is built and the lines are the plain replay's; with it, until the
        // refinement first applies anything (a change is suspected or an offset adopted), every line is
        // that same line byte for byte with the refinement's columns after it: the refinement's path,
        // idle, changes nothing of the heading, its accuracy or its flags.
        let trial = RefinementTrial(scenario: .boat(), duration: 240, changes: [Self.step], rate: 25)
        let off = try Self.replay(trial, refine: false, in: try SessionHarness("refine-identity-off")).lines
        let on = try Self.replay(trial, refine: true, in: try SessionHarness("refine-identity-on")).lines
        #expect(off.count == on.count)
        #expect(on[0] == off[0] + HeadingReplay.refineHeader)
        var idle = 0, identical = 0
        for (a, b) in zip(off.dropFirst(), on.dropFirst()) {
            guard b.contains(",collecting,") || b.contains(",waiting,") else { break }
            idle += 1
            if b.hasPrefix(a + ",") { identical += 1 } else if identical == idle - 1 { Issue.record("line \(idle + 1):\n\(a)\n\(b)") }
        }
        #expect(identical == idle)
        // The refinement needs its heading span and 0.3 µT before it applies anything: 40 s at 25 Hz.
        #expect(idle >= 1000, "\(idle) lines while collecting")
        // And then it does act: the lines after differ (the accuracy counts the refined calibration).
        #expect(on.last?.contains(",collecting,") == false)
    }

    @Test func aReplayWithoutALocationIsAUsageError() throws {
        let h = try SessionHarness("refine-replay-nolocation")
        let trial = RefinementTrial(scenario: .car(), duration: 30)
        #expect {
            _ = try Self.replay(trial, refine: true, location: false, in: h)
        } throws: { error in
            (error as? InvalidRequest).map { $0.exitCode == .usage && $0.message.contains("--location") } ?? false
        }
    }

    @Test func jsonCarriesTheRefinement() throws {
        let h = try SessionHarness("refine-replay-json")
        let trial = RefinementTrial(scenario: .car(), duration: 60)
        let (_, lines, _) = try Self.replay(trial, refine: true, format: true, in: h)
        #expect(lines.last?.contains("\"refine\":{\"state\":") == true)
    }
}
