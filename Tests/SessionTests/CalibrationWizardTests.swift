import Calibration
import Foundation
import JSON
import Platform
@testable import Session
import Testing
import TestSupport

/// The calibration wizard and the raw recorder on the simulator, in simulated time.
@Suite("calibration wizard on a manual clock")
struct CalibrationWizardTests {
    @Test("without a terminal: progress lines, it passes by itself, writes the profile to --output")
    func passesAndWritesTheProfile() throws {
        let h = try SessionHarness("wizard", deadline: 1200)
        let output = h.path("profile.json")
        let request = WizardRequest(sensors: SensorSelection(simulate: true), output: output)
        #expect(try runCalibrationWizard(request, runtime: h.runtime("calibrate")) == .success)
        let text = h.output.text
        #expect(text.contains("Calibrating the QMC5883L (simulated)"), "\(text.prefix(300))")
        #expect(text.contains("calibrating: "), "progress lines")
        #expect(text.contains("every check passed"), "\(text.suffix(600))")
        #expect(text.contains("saved the profile for simulated-qmc5883l"))
        let profile = try CalibrationProfile.decode(try String(contentsOfFile: output, encoding: .utf8))
        #expect(profile.sensor.chip == "simulated-qmc5883l")
        #expect(profile.residualPercent < 3, "\(profile.residualPercent) %")
        #expect(profile.created.hasPrefix("2026-11-18T"), "stamped with the session's wall clock: \(profile.created)")
        #expect(h.clock.now() < 300, "it finished before its time limit: \(h.clock.now()) s")
    }

    @Test("answers typed on standard input: save (y), no alignment (n); then watch uses the profile")
    func interactiveAnswers() throws {
        let h = try SessionHarness("wizard-answers", deadline: 1200)
        let answers = h.path("answers.txt")
        try "y\nn\n".write(toFile: answers, atomically: true, encoding: .utf8)
        let fd = open(answers, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        var runtime = h.runtime("calibrate")
        runtime.interactiveInput = true
        runtime.input = fd
        #expect(try runCalibrationWizard(WizardRequest(sensors: SensorSelection(simulate: true)), runtime: runtime) == .success)
        #expect(h.output.text.contains("Align heading with a landmark? [y/N]"), "\(h.output.text.suffix(400))")
        let file = h.path("config/lodestone/calibration.json")
        #expect(FileManager.default.fileExists(atPath: file), "saved to the default file in XDG_CONFIG_HOME")

        let w = try SessionHarness("wizard-watch")
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), calibrationPath: file, gnss: .none),
                                   once: true)
        _ = try WatchSession.run(request, runtime: w.runtime("watch"))
        #expect(w.diagnostics.text.contains("calibration: ") && w.diagnostics.text.contains("simulated-qmc5883l"),
                "\(w.diagnostics.text)")
        // Calibrated, the accuracy is far better than the same board's without its profile (whose
        // hard iron makes it tens of degrees).
        func accuracy(_ text: String) -> Double? {
            text.components(separatedBy: "±").last?.split(separator: "°").first.flatMap { Double($0) }
        }
        let calibrated = try #require(accuracy(w.output.text))
        let u = try SessionHarness("wizard-watch-uncalibrated")
        let plain = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none), once: true)
        _ = try WatchSession.run(plain, runtime: u.runtime("watch"))
        let uncalibrated = try #require(accuracy(u.output.text))
        #expect(uncalibrated > 20, "without a profile: \(u.output.text)")
        #expect(calibrated < uncalibrated / 2, "calibrated ±\(calibrated)°, uncalibrated ±\(uncalibrated)°")
    }

    @Test("no terminal to ask on, no --yes and no --output: refused before anything is read (exit 64)")
    func cannotAsk() throws {
        let h = try SessionHarness("wizard-cannot-ask")
        #expect(throws: WizardError.self) {
            try runCalibrationWizard(WizardRequest(sensors: SensorSelection(simulate: true)), runtime: h.runtime("calibrate"))
        }
        #expect(h.clock.now() == 0)
    }

    /// A corrupt default calibration file is found before any sample is collected (issue: hostile
    /// inputs): with --yes it is refused at once; asked, "n" leaves it, "y" keeps it aside and saves anew.
    @Test("a corrupt calibration file is found before collecting, with the choice to replace it")
    func corruptDefaultFile() throws {
        let h = try SessionHarness("wizard-corrupt", deadline: 1200)
        let file = h.path("config/lodestone/calibration.json")
        try FileManager.default.createDirectory(atPath: h.path("config/lodestone"), withIntermediateDirectories: true)
        try "{\"schema\": \"lodestone.calibration/1\", \"profiles\": [{\"schema_version\": 1}".write(
            toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: ProfileStoreError.self) {
            try runCalibrationWizard(WizardRequest(sensors: SensorSelection(simulate: true), saveWithoutAsking: true),
                                     runtime: h.runtime("calibrate"))
        }
        #expect(h.clock.now() == 0, "refused before collecting")

        for (answers, replaced) in [("n\n", false), ("y\ny\nn\n", true)] {
            let path = h.path("answers-\(replaced).txt")
            try answers.write(toFile: path, atomically: true, encoding: .utf8)
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            defer { close(fd) }
            var runtime = h.runtime("calibrate")
            runtime.interactiveInput = true
            runtime.input = fd
            let status = try runCalibrationWizard(WizardRequest(sensors: SensorSelection(simulate: true)), runtime: runtime)
            #expect(h.output.text.contains("cannot be read"), "\(h.output.text.prefix(400))")
            if replaced {
                #expect(status == .success)
                #expect(FileManager.default.fileExists(atPath: file + ".corrupt"))
                let saved = try CalibrationProfileFile.decode(try String(contentsOfFile: file, encoding: .utf8))
                #expect(saved.profiles.count == 1)
            } else {
                #expect(status == .dataError)
                #expect(!FileManager.default.fileExists(atPath: file + ".corrupt"))
            }
        }
    }

    @Test("--record: t,x,y,z,ax,ay,az rows for the duration, never overwriting")
    func record() throws {
        let h = try SessionHarness("record")
        let path = h.path("raw.csv")
        let request = RecordRequest(sensors: SensorSelection(simulate: true), path: path, duration: 2)
        #expect(try recordRawSamples(request, runtime: h.runtime("calibrate")) == .success)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "t,x,y,z,ax,ay,az")
        #expect(lines.count > 100, "\(lines.count) rows in 2 s")
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 7 })
        #expect(h.diagnostics.text.contains("recorded \(lines.count - 1) samples"))
        #expect(throws: RecordError.self) { try recordRawSamples(request, runtime: h.runtime("calibrate")) }
    }

    @Test("--yes: before/after, progress never 100 % before the checks pass, the board's hard iron recovered")
    func savesWithYes() throws {
        let h = try SessionHarness("wizard-yes", deadline: 1200)
        let request = WizardRequest(sensors: SensorSelection(simulate: true), saveWithoutAsking: true)
        #expect(try runCalibrationWizard(request, runtime: h.runtime("calibrate")) == .success)
        let text = h.output.text
        for expected in ["every check passed", "before", "after", "spread of |B|", "residual", "all passed", "saved the profile"] {
            #expect(text.contains(expected), "missing '\(expected)'")
        }
        let progress = h.output.lines.filter { $0.hasPrefix("calibrating: ") }
        #expect(progress.count >= 2)
        for line in progress where line.contains("calibrating: 100 %") {
            #expect(line.contains("all checks passed"), "100 % before success: \(line)")
        }
        let file = try CalibrationProfileFile.decode(try String(contentsOfFile: h.path("config/lodestone/calibration.json"), encoding: .utf8))
        #expect(file.profiles.count == 1)
        let offset = try #require(file.profiles.first?.offset)
        // The simulated board's hard iron is (31.5, −18.2, 12.7) µT.
        #expect(abs(offset.x - 31.5) < 0.5 && abs(offset.y + 18.2) < 0.5 && abs(offset.z - 12.7) < 0.5, "\(offset)")
    }

    @Test("--accel and --align with answers on standard input: six poses, and a near-zero heading offset")
    func accelerometerAndAlignment() throws {
        let h = try SessionHarness("wizard-steps", deadline: 1200)
        let answers = h.path("answers.txt")
        try String(repeating: "\n", count: 7).write(toFile: answers, atomically: true, encoding: .utf8)
        let fd = open(answers, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        var runtime = h.runtime("calibrate")
        runtime.input = fd
        let output = h.path("profile.json")
        let request = WizardRequest(sensors: SensorSelection(simulate: true, accelerometer: .kind(.mpu6050)), output: output,
                                    accelerometer: true, align: true, bearing: "北偏东30度")
        #expect(try runCalibrationWizard(request, runtime: runtime) == .success)
        #expect(h.output.text.contains("6/6"), "\(h.output.text.suffix(800))")
        #expect(h.output.text.contains("30.0° true"), "\(h.output.text.suffix(800))")
        let profile = try CalibrationProfile.decode(try String(contentsOfFile: output, encoding: .utf8))
        let scale = try #require(profile.accelerometer?.scale)
        #expect([scale.x, scale.y, scale.z].allSatisfy { abs($0 - 1) < 0.02 }, "\(scale)")
        let yaw = try #require(profile.yawOffsetDegrees)
        #expect(abs(yaw) < 0.5, "yaw offset \(yaw)°")
    }

    @Test("too short a tumble (--duration): not saved, exit 65 with the reasons and their fixes")
    func notPassingIsNotSaved() throws {
        let h = try SessionHarness("wizard-short")
        let request = WizardRequest(sensors: SensorSelection(simulate: true), saveWithoutAsking: true, duration: 6)
        #expect(throws: WizardError.notPassed) { try runCalibrationWizard(request, runtime: h.runtime("calibrate")) }
        #expect(h.output.text.contains("time limit reached"))
        #expect(h.output.text.contains("The calibration does not pass:"))
        #expect(h.output.text.contains("keep turning"), "the fix is named")
        #expect(!FileManager.default.fileExists(atPath: h.path("config/lodestone/calibration.json")))
        #expect(h.clock.now() >= 6 && h.clock.now() < 7)
    }

    @Test("--accel without an accelerometer: exit 69 saying how to add one")
    func accelWithoutAccelerometer() throws {
        let h = try SessionHarness("wizard-no-accel")
        let request = WizardRequest(sensors: SensorSelection(simulate: true, accelerometer: .none), output: h.path("p.json"),
                                    accelerometer: true)
        do {
            _ = try runCalibrationWizard(request, runtime: h.runtime("calibrate"))
            Issue.record("accepted without an accelerometer")
        } catch let error as WizardError {
            #expect(error.exitCode == .unavailable)
            #expect(error.message.contains("--accel needs an accelerometer"))
        }
    }

    @Test("SIGTERM during the wizard: cancelled cleanly, nothing saved")
    func signalCancels() throws {
        let h = try SessionHarness("wizard-signal")
        h.events.schedule(.stop, at: 1.5)
        let request = WizardRequest(sensors: SensorSelection(simulate: true), saveWithoutAsking: true)
        #expect(try runCalibrationWizard(request, runtime: h.runtime("calibrate")) == .success)
        #expect(h.output.text.contains("calibration cancelled"))
        #expect(!FileManager.default.fileExists(atPath: h.path("config/lodestone/calibration.json")))
        #expect(h.clock.now() < 2)
    }
}
