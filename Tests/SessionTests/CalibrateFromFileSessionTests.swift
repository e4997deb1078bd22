import Foundation
import Calibration
import Linear
import Platform
import Testing
@testable import Session
import TestSupport

/// `calibrate --from-file` in process: it picks the fit the recording supports — an ellipsoid for
/// a tumble, the vehicle fit for circles with gravity and a place — and says how it judged it.
@Suite("calibrate --from-file in process")
struct CalibrateFromFileSessionTests {
    /// A compass fixed in a vehicle: ~1× the field of hard iron, ±15 % soft iron.
    static let hardIron = Vector3(-22, 31, 18)
    static let softIron: Matrix3 = {
        let r = Matrix3.rotation(roll: -0.5, pitch: 0.2, yaw: 2.1)
        return r * Matrix3.diagonal(Vector3(0.87, 1.14, 1.03)) * r.transposed
    }()

    /// Two slow circles at 20 Hz, roll and pitch within ±4°, 0.3 µT and 0.005 g of noise, as
    /// `t,x,y,z,ax,ay,az` (µT, g, body axes) in the magnetic field `ned` (µT).
    static func circlesCSV(ned: Vector3, seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        func gauss() -> Vector3 { Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian()) }
        var lines = ["t,x,y,z,ax,ay,az"]
        for i in 0..<2400 {
            let t = Double(i) / 20
            let attitude = Matrix3.rotation(roll: radians(4) * sin(t / 1.3), pitch: radians(3.5) * sin(t / 2.1 + 1),
                                            yaw: 4 * .pi * Double(i) / 2400)
            let m = softIron * (attitude.transposed * ned) + hardIron + gauss() * 0.3
            let a = attitude.transposed * Vector3(0, 0, -1) + gauss() * 0.005
            lines.append([t, m.x, m.y, m.z, a.x, a.y, a.z].map { String($0) }.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static let latitude = -33.87, longitude = 151.21

    @Test func circlesWithAPlaceUseTheVehicleFitAndHoldTheHeadingWhenTilted() throws {
        let h = try SessionHarness("vehicle")
        let runtime = h.runtime("calibrate")
        let place = try #require(ExpectedPlace.at(latitude: Self.latitude, longitude: Self.longitude, unixSeconds: h.clock.wall()))
        let dip = radians(place.inclination)
        let ned = Vector3(cos(dip), 0, sin(dip)) * place.total
        let path = h.path("circles.csv")
        try Self.circlesCSV(ned: ned, seed: 7).write(toFile: path, atomically: true, encoding: .utf8)
        let status = try calibrateFromFile(CalibrationFileRequest(path: path, unit: .uT, place: place), runtime: runtime)
        #expect(status == .success)
        let summary = h.diagnostics.text
        #expect(summary.contains("method        vehicle"), "\(summary)")
        #expect(summary.contains("18 of 18 heading sectors"))
        #expect(summary.contains("heading error ±") && summary.contains("at 10° tilt"))
        #expect(summary.contains("checks        all passed"))
        let profile = try CalibrationProfile.decode(h.output.text)
        // Tilt-compensated heading with the profile, at roll and pitch up to ±5°.
        var worst = 0.0
        for roll in [-5.0, 0, 5] {
            for pitch in [-5.0, 0, 5] {
                for step in stride(from: 0, to: 360, by: 5) {
                    let attitude = Matrix3.rotation(roll: radians(roll), pitch: radians(pitch), yaw: radians(Double(step)))
                    let corrected = profile.apply(Self.softIron * (attitude.transposed * ned) + Self.hardIron)
                    let world = attitude * corrected
                    worst = max(worst, abs(angleDifference(degrees(atan2(world.y, world.x)), 0)))
                }
            }
        }
        print("vehicle from file: worst heading error \(worst)° at ±5° roll and pitch")
        #expect(worst <= 1.0)
    }

    @Test func circlesWithoutAPlaceAreRefusedAskingForTheLocation() throws {
        let h = try SessionHarness("vehicle-noplace")
        let path = h.path("circles.csv")
        try Self.circlesCSV(ned: Vector3(24.7, 0, -51.6), seed: 8).write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            _ = try calibrateFromFile(CalibrationFileRequest(path: path, unit: .uT), runtime: h.runtime("calibrate"))
        } throws: { error in
            guard let e = error as? CalibrationFitError else { return false }
            return e.message.contains("single ring") && e.message.contains("--location LAT,LON") && e.exitCode == .dataError
        }
        #expect(h.output.text.isEmpty)
    }

    @Test func spikesInARealRecordingAreDroppedAndItStillCalibrates() throws {
        let h = try SessionHarness("spikes")
        var lines = try String(contentsOfFile: Self.realRecording, encoding: .utf8).split(separator: "\n").map(String.init)
        lines.insert("0,0,-1,1e6,1e6,1e6", at: 4000)
        lines.insert("0,0,-1,1e29,-1e29,1e29", at: 8000)
        let path = h.path("spiked.csv")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try calibrateFromFile(CalibrationFileRequest(path: path, unit: .gauss), runtime: h.runtime("calibrate")) == .success)
        let profile = try CalibrationProfile.decode(h.output.text)
        #expect(profile.residualPercent < 2, "\(profile.residualPercent)")
        #expect(h.diagnostics.text.contains("checks        all passed"))
    }

    static var realRecording: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("calibration/data/acc_mag_log.csv").path
    }

    @Test func vehicleWithoutAccelerometerColumnsNamesThem() throws {
        let h = try SessionHarness("vehicle-noaccel")
        let path = h.path("mag.csv")
        try "x,y,z\n1,2,3\n4,5,6\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: RecordingError.vehicleNeedsAcceleration(path: path)) {
            _ = try calibrateFromFile(CalibrationFileRequest(path: path, unit: .uT, vehicle: true), runtime: h.runtime("calibrate"))
        }
        #expect(RecordingError.vehicleNeedsAcceleration(path: path).message.contains("ax,ay,az"))
    }

    @Test func theRealTumbleUsesTheEllipsoidEvenWithAPlace() throws {
        let h = try SessionHarness("tumble")
        let real = Self.realRecording
        let place = try #require(ExpectedPlace.at(latitude: 3.1, longitude: 101.7, unixSeconds: h.clock.wall()))
        let status = try calibrateFromFile(CalibrationFileRequest(path: real, unit: .gauss, place: place),
                                           runtime: h.runtime("calibrate"))
        #expect(status == .success)
        #expect(h.diagnostics.text.contains("method        ellipsoid"))
        #expect(h.diagnostics.text.contains("expected from the fit's uncertainty"))
    }
}
