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

    @Test("without a terminal the wizard needs --yes or --output (exit 64, explained)")
    func needsConfirmationWithoutATerminal() throws {
        let folder = try makeTemporaryFolder("calibrate-ask")
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try runLodestone(["calibrate", "--simulate"], timeout: 20, environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(r.status == 64)
        #expect(r.stderr.contains("not a terminal") && r.stderr.contains("--yes") && r.stderr.contains("--output"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("lodestone/calibration.json").path))
    }

    @Test("--yes: stops by itself, shows before/after, saves a profile watch can use")
    func wizardSavesWithYes() throws {
        let folder = try makeTemporaryFolder("calibrate-yes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try runLodestone(["calibrate", "--simulate", "--sim-speed", "10", "--yes"], timeout: 90,
                                 environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        for text in ["every check passed", "before", "after", "spread of |B|", "residual", "all passed", "saved the profile"] {
            #expect(r.stdout.contains(text), "missing '\(text)' in:\n\(r.stdout)")
        }
        // Progress never reads 100 % before the checks pass.
        let progress = r.stdout.split(separator: "\n").filter { $0.hasPrefix("calibrating: ") }
        #expect(progress.count >= 2)
        for line in progress where line.contains("calibrating: 100 %") {
            #expect(line.contains("all checks passed"), "100 % before success: \(line)")
        }
        let file = folder.appendingPathComponent("lodestone/calibration.json").path
        let saved = try json(file)
        #expect(saved["schema"] as? String == "lodestone.calibration/1")
        let profiles = try #require(saved["profiles"] as? [[String: Any]])
        #expect(profiles.count == 1)
        #expect((profiles[0]["sensor"] as? [String: Any])?["chip"] as? String == "simulated-qmc5883l")
        // The simulated board's hard iron is (31.5, −18.2, 12.7) µT.
        let offset = try #require(profiles[0]["offset"] as? [Double])
        #expect(abs(offset[0] - 31.5) < 0.5 && abs(offset[1] + 18.2) < 0.5 && abs(offset[2] - 12.7) < 0.5, "\(offset)")
    }

    @Test("--accel and --align from a pipe: accelerometer calibration and a near-zero heading offset")
    func accelerometerAndAlignment() throws {
        let folder = try makeTemporaryFolder("calibrate-steps")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("profile.json").path
        let r = try runLodestone(["calibrate", "--simulate", "--sim-speed", "10", "--accelerometer", "mpu6050", "--accel",
                                  "--align", "--bearing", "北偏东30度", "--output", output],
                                 stdin: String(repeating: "\n", count: 7), timeout: 120)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)\n\(r.stdout)")
        #expect(r.stdout.contains("6/6"), "\(r.stdout)")
        #expect(r.stdout.contains("30.0° true"), "\(r.stdout)")
        let profile = try json(output)
        let accel = try #require(profile["accelerometer"] as? [String: Any])
        let scale = try #require(accel["scale"] as? [Double])
        #expect(scale.allSatisfy { abs($0 - 1) < 0.02 }, "\(scale)")
        let yaw = try #require(profile["yaw_offset_degrees"] as? Double)
        #expect(abs(yaw) < 0.5, "yaw offset \(yaw)°")
    }

    @Test("too short a tumble (--duration): not saved, exit 65 with the reasons and their fixes")
    func notPassingIsNotSaved() throws {
        let folder = try makeTemporaryFolder("calibrate-short")
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try runLodestone(["calibrate", "--simulate", "--sim-speed", "2", "--duration", "6", "--yes"], timeout: 30,
                                 environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(r.status == 65, "exit \(r.status): \(r.stderr)")
        #expect(r.stdout.contains("time limit reached"), "\(r.stdout)")
        #expect(r.stdout.contains("The calibration does not pass:"), "\(r.stdout)")
        #expect(r.stdout.contains("keep turning"), "the fix is named: \(r.stdout)")
        #expect(r.stderr.contains("calibration not saved"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("lodestone/calibration.json").path))
    }

    @Test("--accel without an accelerometer: exit 69 saying how to add one")
    func accelWithoutAccelerometer() throws {
        let r = try runLodestone(["calibrate", "--simulate", "--accelerometer", "none", "--accel", "--output", "/tmp/unused.json"],
                                 timeout: 20)
        #expect(r.status == 69)
        #expect(r.stderr.contains("--accel needs an accelerometer"), "\(r.stderr)")
    }

    @Test("SIGTERM during the wizard: cancelled cleanly, nothing saved")
    func signalCancels() throws {
        let folder = try makeTemporaryFolder("calibrate-signal")
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try runLodestone(["calibrate", "--simulate", "--yes"], timeout: 30,
                                 environment: ["XDG_CONFIG_HOME": folder.path], signalAfter: 1.5)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(r.stdout.contains("calibration cancelled"), "\(r.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("lodestone/calibration.json").path))
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
