import Foundation
import Testing
import TestSupport
@testable import Session
import Calibration
import Linear
import Platform
import Sensors

/// The profile store and `loadProfile`: atomic saves, corrupt files, explicit and default paths.
@Suite("Calibration profiles: store and loading")
struct ProfileLoadingTests {
    static let info = SensorInfo(chip: .qmc5883l, bus: 1, address: 0x0D, fullScale: 800, noise: 0.2, outputRate: 200)

    func profile(_ chip: String, bus: Int? = nil, address: Int? = nil, offset: Double = 10, unit: String = "uT") -> CalibrationProfile {
        CalibrationProfile(sensor: SensorIdentity(chip: chip, bus: bus, address: address), offset: Vector3(offset, 0, 0),
                           matrix: .identity, fieldStrength: 50, residualPercent: 1.3, model: .full,
                           created: "2026-11-29T10:00:00.000Z", unit: unit)
    }

    /// (That a failed write leaves the old file is `FileLayerTests`' full-disk case: the temporary
    /// name can no longer be taken ahead, which was this test's way of making the write fail.)
    @Test func aFailingSaveSaysSoAndThatThePreviousFileIsUnchanged() throws {
        // /proc takes no new files, even from root.
        let store = try ProfileStore(path: "/proc/lodestone-calibration.json", configFolder: nil)
        do {
            try store.save(profile("qmc5883l", bus: 1, address: 13, offset: 99))
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("cannot save calibration file /proc/lodestone-calibration.json"), "\(error.message)")
            #expect(error.message.contains("unchanged"))
            #expect(error.exitCode == .ioError)
        }
    }

    @Test func saveKeepsOtherSensorsProfiles() throws {
        let folder = try makeTemporaryFolder("profile-upsert")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ProfileStore(path: folder.appendingPathComponent("c.json").path, configFolder: nil)
        try store.save(profile("qmc5883l", bus: 1, address: 13, offset: 1))
        try store.save(profile("simulated-qmc5883l", offset: 2))
        try store.save(profile("qmc5883l", bus: 1, address: 13, offset: 3))
        let all = try store.loadAll()
        #expect(all.profiles.count == 2)
        #expect(all.profile(for: SensorIdentity(chip: "qmc5883l", bus: 1, address: 13))?.offset.x == 3)
    }

    @Test(arguments: ["{\"schema\": \"lodestone.calibration/1\", \"profiles\": [", "", "\u{0}\u{1}garbage", "[1, 2]",
                      "{\"schema\": \"lodestone.calibration/1\", \"profiles\": [{\"schema_version\": 1}]}",
                      "{\"schema\": \"lodestone.calibration/9\", \"profiles\": []}"])
    func corruptFileNamesTheFileAndNeverCrashes(content: String) throws {
        let folder = try makeTemporaryFolder("profile-corrupt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("calibration.json").path
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try ProfileStore(path: path, configFolder: nil).loadAll()
            Issue.record("a corrupt file was accepted: \(content)")
        } catch {
            #expect(error.message.contains(path), "the message names the file: \(error.message)")
            #expect(error.exitCode == .dataError)
        }
        // Saving over it is refused rather than silently replacing it.
        #expect(throws: ProfileStoreError.self) { try ProfileStore(path: path, configFolder: nil).save(self.profile("qmc5883l")) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == content)
    }

    @Test func explicitCorruptFileIsExit65() throws {
        let folder = try makeTemporaryFolder("profile-explicit")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("mine.json").path
        try "{ not json".write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try loadProfile(for: Self.info, explicitPath: path, simulated: false, configFolder: nil, home: nil)
            Issue.record("accepted a corrupt explicit file")
        } catch let error as any UserFacingError {
            #expect(error.exitCode == .dataError)
            #expect(error.message.contains(path))
        }
        do {
            _ = try loadProfile(for: Self.info, explicitPath: folder.appendingPathComponent("missing.json").path, simulated: false, configFolder: nil, home: nil)
            Issue.record("accepted a missing explicit file")
        } catch let error as any UserFacingError {
            #expect(error.exitCode == .ioError)
            #expect(error.message.contains("missing.json"))
        }
    }

    @Test func explicitSingleProfileDocumentIsUsedAndConvertedToMicrotesla() throws {
        let folder = try makeTemporaryFolder("profile-single")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("gauss.json").path
        try (profile("recording", offset: 0.25, unit: "gauss").jsonValue.serialized(pretty: true)).write(toFile: path, atomically: true, encoding: .utf8)
        let (loaded, description) = try loadProfile(for: Self.info, explicitPath: path, simulated: false, configFolder: nil, home: nil)
        #expect(loaded?.unit == "uT")
        #expect(abs((loaded?.offset.x ?? 0) - 25) < 1e-9)
        #expect(description.hasPrefix("calibration: \(path)"), "\(description)")
        #expect(description.contains("converted from gauss"))

        let counts = folder.appendingPathComponent("counts.json").path
        try (profile("recording", unit: "counts").jsonValue.serialized(pretty: true)).write(toFile: counts, atomically: true, encoding: .utf8)
        #expect(throws: ProfileLoadingError.self) { try loadProfile(for: Self.info, explicitPath: counts, simulated: false, configFolder: nil, home: nil) }
    }

    @Test func defaultFile_foundMissingCorruptAndSimulated() throws {
        let folder = try makeTemporaryFolder("profile-default")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The default location: the config folder, given as the environment would.
        let configFolder = folder.appendingPathComponent("lodestone").path
        let path = configFolder + "/calibration.json"
        func load(simulated: Bool) throws -> (profile: CalibrationProfile?, description: String) {
            try loadProfile(for: Self.info, explicitPath: nil, simulated: simulated, configFolder: configFolder, home: nil)
        }

        let none = try load(simulated: false)
        #expect(none.profile == nil)
        #expect(none.description.hasPrefix("uncalibrated: no profile for QMC5883L on bus 1 at 0x0d"), "\(none.description)")
        #expect(none.description.contains("lodestone calibrate"))

        try ProfileStore(path: path, configFolder: nil).save(profile("qmc5883l", bus: 1, address: 13, offset: 7))
        let found = try load(simulated: false)
        #expect(found.profile?.offset.x == 7)
        #expect(found.description == "calibration: \(path) (qmc5883l on bus 1 at 0x0d, 2026-11-29, full, residual 1.3 %)",
                "\(found.description)")

        // A simulated run never uses the real sensor's profile.
        let simulated = try load(simulated: true)
        #expect(simulated.profile == nil)
        #expect(simulated.description.contains("simulated QMC5883L") && simulated.description.contains("--simulate"))

        try "{\"schema\": \"lodestone.calibration/1\", \"profiles\": [".write(toFile: path, atomically: true, encoding: .utf8)
        let corrupt = try load(simulated: false)
        #expect(corrupt.profile == nil)
        #expect(corrupt.description.hasPrefix("uncalibrated: warning: calibration file \(path)"), "\(corrupt.description)")
    }

    @Test func identities() {
        #expect(profileIdentity(for: Self.info, simulated: false) == SensorIdentity(chip: "qmc5883l", bus: 1, address: 13))
        #expect(profileIdentity(for: Self.info, simulated: true) == SensorIdentity(chip: "simulated-qmc5883l"))
    }

    /// Without HOME or XDG_CONFIG_HOME the message names an option the command has: calibrate has
    /// no --calibration (it was the only option named), and says how to give the folder back.
    @Test func noConfigFolderNamesOptionsThatExist() {
        let message = ProfileStoreError.noConfigFolder.message
        #expect(message.contains("--output FILE") && message.contains("--calibration FILE") && message.contains("set HOME"))
        #expect(PlacesStoreError.noConfigFolder.message.contains("set HOME"))
    }
}
