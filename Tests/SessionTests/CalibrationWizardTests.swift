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
        let fd = open(answers, O_RDONLY)
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
        // Calibrated, the accuracy is a few degrees, not the tens of degrees of an uncalibrated board.
        let accuracy = try #require(w.output.text.components(separatedBy: "±").last?.split(separator: "°").first.flatMap { Double($0) })
        #expect(accuracy < 5, "\(w.output.text)")
    }

    @Test("no terminal to ask on, no --yes and no --output: refused before anything is read (exit 64)")
    func cannotAsk() throws {
        let h = try SessionHarness("wizard-cannot-ask")
        #expect(throws: WizardError.self) {
            try runCalibrationWizard(WizardRequest(sensors: SensorSelection(simulate: true)), runtime: h.runtime("calibrate"))
        }
        #expect(h.clock.now() == 0)
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
}
