import Foundation
import Calibration
import Glibc
import HeadingLog
import Linear
import Places
import Platform
import Testing
@testable import Session
import TestSupport

/// Every command that writes a file, in a sticky folder anyone can write to (like /tmp), with
/// symbolic links planted at the target and at the temporary name the old writer used
/// (`PATH.tmp-PID`, the test's own process id since these run in process): no link's target is
/// ever changed, and the output appears as a regular file of its own.
@Suite("planted links never turn a write (every command that writes a file)")
struct PlantedLinkTests {
    let dir: String
    let victim: String
    static let precious = "precious\n"

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("planted-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        #expect(chmod(dir, 0o1777) == 0)
        victim = dir + "/victim"
        try Self.precious.write(toFile: victim, atomically: false, encoding: .utf8)
    }

    /// Links at `path` (unless `target` is false) and at its old temporary name, each to a victim
    /// of its own (`NAME.victim`).
    func plant(_ path: String, target: Bool = true) {
        if target {
            try? Self.precious.write(toFile: path + ".victim", atomically: false, encoding: .utf8)
            #expect(symlink(path + ".victim", path) == 0)
        }
        try? Self.precious.write(toFile: path + ".tmp.victim", atomically: false, encoding: .utf8)
        #expect(symlink(path + ".tmp.victim", path + ".tmp-\(getpid())") == 0)
    }

    func victimIsIntact(_ sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(readFile(victim) == Self.precious, "the link's target was written", sourceLocation: sourceLocation)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where name.hasSuffix(".victim") {
            #expect(readFile(dir + "/" + name) == Self.precious, "\(name) was written through a link", sourceLocation: sourceLocation)
        }
    }

    func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    func readFile(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    func writeLog(_ path: String) throws {
        let log = try LogSession(.init(path: path))
        for i in 0..<50 {
            var r = LogRow(time: 1_795_000_000 + Double(i), monotonic: Double(i), rawField: Vector3(20, 3, -40))
            r.magneticHeading = Double(i * 7 % 360)
            r.trueHeading = r.magneticHeading
            r.gnssMode = "3d"
            r.latitude = -33.87 + Double(i) * 1e-5
            r.longitude = 151.21
            try log.append(r)
        }
        try log.close()
    }

    @Test func analyzeSVGAndGPX() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/heading.csv"
        try writeLog(log)
        plant(dir + "/plot.svg")
        plant(dir + "/track.gpx")
        let h = try SessionHarness("planted-analyze")
        _ = try LogAnalysisQuery(path: log, svgPath: dir + "/plot.svg", gpxPath: dir + "/track.gpx").run(runtime: h.runtime("analyze"))
        victimIsIntact()
        #expect(isRegularFile(dir + "/plot.svg") && readFile(dir + "/plot.svg")?.contains("<svg") == true)
        #expect(isRegularFile(dir + "/track.gpx") && readFile(dir + "/track.gpx")?.contains("<gpx") == true)
    }

    @Test func calibrateFromFileOutput() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var rng = SplitMix64(seed: 25)
        var lines = ["t,x,y,z"]
        for i in 0..<600 {
            let v = Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian())
            let m = v * (50 / v.norm) + Vector3(10, -5, 3)
            lines.append("\(Double(i) / 20),\(m.x),\(m.y),\(m.z)")
        }
        let recording = dir + "/raw.csv"
        try (lines.joined(separator: "\n") + "\n").write(toFile: recording, atomically: false, encoding: .utf8)
        plant(dir + "/profile.json")
        let h = try SessionHarness("planted-calibrate")
        _ = try calibrateFromFile(CalibrationFileRequest(path: recording, unit: .uT, output: dir + "/profile.json", force: true),
                                  runtime: h.runtime("calibrate"))
        victimIsIntact()
        #expect(isRegularFile(dir + "/profile.json") && readFile(dir + "/profile.json")?.contains("offset") == true)
    }

    @Test func profilesPlacesAndTheDashboardsChoices() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A link at the profile file itself would be read first (and refused as corrupt): only the
        // temporary name is planted there.
        plant(dir + "/calibration.json", target: false)
        plant(dir + "/places.csv")
        plant(dir + "/dashboard.conf")
        try ProfileStore(path: dir + "/calibration.json", configFolder: nil).save(CalibrationProfile(
            sensor: SensorIdentity(chip: "qmc5883l"), offset: Vector3(10, 0, 0), matrix: .identity, fieldStrength: 50,
            residualPercent: 1.3, model: .full, created: "2026-11-29T10:00:00.000Z", unit: "uT"))
        try PlacesStore(path: dir + "/places.csv").save([try UserPlace(name: "home", latitude: -33.87, longitude: 151.21)])
        try DashboardPreferences(speedUnit: .knots).save(configFolder: dir)
        victimIsIntact()
        for name in ["calibration.json", "places.csv", "dashboard.conf"] {
            #expect(isRegularFile(dir + "/" + name), "\(name)")
        }
        #expect(try PlacesStore(path: dir + "/places.csv").load().map(\.name) == ["home"])
    }

    @Test func logOverwriteReplacesALinkAndLeavesItsTarget() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        plant(dir + "/heading.csv")
        let log = try LogSession(.init(path: dir + "/heading.csv", overwrite: true))
        try log.append(LogRow(time: 1_795_000_000, monotonic: 0, rawField: Vector3(20, 3, -40)))
        try log.close()
        victimIsIntact()
        #expect(isRegularFile(dir + "/heading.csv"))
        #expect(readFile(dir + "/heading.csv")?.hasPrefix(LogSchema.header + "\n") == true)
    }

    @Test func logAppendInASharedFolderRefusesALink() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // An empty target: appending through the link would have given it a header.
        let empty = dir + "/empty"
        try "".write(toFile: empty, atomically: false, encoding: .utf8)
        #expect(symlink(empty, dir + "/heading.csv") == 0)
        do {
            _ = try LogSession(.init(path: dir + "/heading.csv"))
            Issue.record("a link in a shared folder was followed")
        } catch {
            #expect(error.message.contains("symbolic link"), "\(error.message)")
            #expect(error.exitCode == .ioError)
        }
        #expect(readFile(empty) == "")
    }


    @Test func calibrateWizardOutput() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        plant(dir + "/wizard.json")
        let h = try SessionHarness("planted-wizard", deadline: 1200)
        #expect(try runCalibrationWizard(WizardRequest(sensors: SensorSelection(simulate: true), output: dir + "/wizard.json"),
                                         runtime: h.runtime("calibrate")) == .success)
        victimIsIntact()
        #expect(isRegularFile(dir + "/wizard.json") && readFile(dir + "/wizard.json")?.contains("offset") == true)
    }

    @Test func calibrateRecordRefusesALinkAtItsNewFile() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(symlink(victim, dir + "/raw.csv") == 0)
        let h = try SessionHarness("planted-record")
        #expect(throws: RecordError.self) {
            try recordRawSamples(RecordRequest(sensors: SensorSelection(simulate: true), path: dir + "/raw.csv", duration: 1),
                                 runtime: h.runtime("calibrate"))
        }
        victimIsIntact()
        #expect(Files.isLink(dir + "/raw.csv"), "the link is left as it was")
    }

    @Test func aRefinedProfileSaveKeepsThePreviousFileWithoutFollowingLinks() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try ProfileStore(path: dir + "/calibration.json", configFolder: nil)
        func profile(_ x: Double) -> CalibrationProfile {
            CalibrationProfile(sensor: SensorIdentity(chip: "qmc5883l"), offset: Vector3(x, 0, 0), matrix: .identity, fieldStrength: 50,
                               residualPercent: 1.3, model: .full, created: "2026-11-29T10:00:00.000Z", unit: "uT")
        }
        try store.save(profile(10))
        let before = readFile(dir + "/calibration.json")
        plant(dir + "/calibration.json", target: false)
        plant(store.previousPath)
        try store.saveKeepingPrevious(profile(12.5))
        victimIsIntact()
        #expect(isRegularFile(store.previousPath) && readFile(store.previousPath) == before, "FILE.previous is the file as it was")
        #expect(isRegularFile(dir + "/calibration.json") && readFile(dir + "/calibration.json")?.contains("12.5") == true)
    }

    @Test func serveJSONFileInASharedFolderRefusesALink() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(symlink(victim, dir + "/serve.jsonl") == 0)
        do {
            _ = try JSONLinesSink(path: dir + "/serve.jsonl", label: "JSON lines to serve.jsonl")
            Issue.record("a link in a shared folder was followed")
        } catch {
            #expect(error.message.contains("symbolic link"), "\(error.message)")
            #expect(error.exitCode == .ioError)
        }
        victimIsIntact()
        // A name of its own is created and written.
        let sink = try JSONLinesSink(path: dir + "/own.jsonl", label: "JSON lines to own.jsonl")
        sink.close()
        #expect(isRegularFile(dir + "/own.jsonl"))
    }
}
