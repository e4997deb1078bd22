import Foundation
import Calibration
import Heading
import Linear
@testable import Session
import Testing
import TestSupport

/// `heading --from-file` with gyroscope columns: the whole filter stage, gyro-aided, on real IMU
/// recordings with optical truth (BROAD excerpts, Tests/Fixtures/broad; CC BY 4.0, see SOURCES.md).
@Suite("heading replay with a gyroscope (BROAD)")
struct GyroReplayTests {
    static let folder = packageRoot.appendingPathComponent("Tests/Fixtures/broad")
    static let trials = ["01": "broad_01_undisturbed_slow_rotation_A", "07": "broad_07_undisturbed_fast_rotation_B",
                         "15": "broad_15_undisturbed_fast_translation_A", "30": "broad_30_disturbed_stationary_magnet_C"]

    /// Error of each output row against the truth in the same file, over the rows the benchmark
    /// scores (movement, |pitch| ≤ 60°).
    func errors(trial: String, residual: Double? = nil) throws -> (errors: [Double], rows: [[String: String]]) {
        let path = Self.folder.appendingPathComponent(Self.trials[trial]! + "_excerpt.csv").path
        let h = try SessionHarness("gyro-replay")
        #expect(try HeadingReplay(path: path, residualMicrotesla: residual).run(runtime: h.runtime("heading")) == .success)
        let out = h.output.lines
        let header = out[0].split(separator: ",").map(String.init)
        let rows = out.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
        let input = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let inHeader = input[0].split(separator: ",").map(String.init)
        var truth: [String: (heading: Double, pitch: Double, moving: Bool)] = [:]
        for line in input.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let row = Dictionary(uniqueKeysWithValues: zip(inHeader, cells))
            if let t = row["t"], let heading = row["heading_deg"].flatMap(Double.init), let pitch = row["pitch_deg"].flatMap(Double.init) {
                truth[t] = (heading, pitch, row["movement"] == "1")
            }
        }
        var errors: [Double] = []
        for row in rows {
            guard let t = row["monotonic_s"], let truth = truth[t], truth.moving, abs(truth.pitch) <= 60, truth.heading.isFinite,
                  let heading = row["heading_mag_deg"].flatMap(Double.init) else { continue }
            errors.append(abs((heading - truth.heading + 540).truncatingRemainder(dividingBy: 360) - 180))
        }
        return (errors, rows)
    }

    @Test("heading error during motion stays within the attitude filter's own bounds",
          arguments: ["01", "07", "15", "30"])
    func headingError(trial: String) throws {
        let (errors, rows) = try errors(trial: trial)
        #expect(errors.count > 400)
        let rmse = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        // The filter alone gives 2.47°, 0.57°, 1.03° and 2.22° on these excerpts (AttitudeTests); the
        // pipeline must not lose that.
        let bound = ["01": 4.0, "07": 1.0, "15": 1.8, "30": 3.2][trial]!
        #expect(rmse < bound, "RMSE \(rmse)° on trial \(trial)")
        #expect(rows.allSatisfy { ($0["flags"] ?? "").contains("gyroAided") })
        #expect(rows.allSatisfy { $0["qw"].flatMap(Double.init) != nil && $0["rate_of_turn_dps"].flatMap(Double.init) != nil })
        let norms = rows.compactMap { r -> Double? in
            guard let w = r["qw"].flatMap(Double.init), let x = r["qx"].flatMap(Double.init),
                  let y = r["qy"].flatMap(Double.init), let z = r["qz"].flatMap(Double.init) else { return nil }
            return (w * w + x * x + y * y + z * z).squareRoot()
        }
        #expect(norms.allSatisfy { abs($0 - 1) < 1e-5 }, "unit quaternions")
    }

    @Test("--residual: a recording calibrated before it was written gets the accuracy of its calibration, still covering the error")
    func residual() throws {
        func medianAccuracy(_ rows: [[String: String]]) -> Double {
            let values = rows.compactMap { $0["accuracy_deg"].flatMap(Double.init) }.sorted()
            return values[values.count / 2]
        }
        let uncalibrated = try errors(trial: "07")
        let calibrated = try errors(trial: "07", residual: 0.5)
        // Without a profile the board is taken as uncalibrated (20 µT in BROAD's 15.5 µT horizontal
        // field: about 50°); told the recording is calibrated, the accuracy is the filter's own.
        #expect(medianAccuracy(uncalibrated.rows) > 40)
        #expect(medianAccuracy(calibrated.rows) < medianAccuracy(uncalibrated.rows) / 2)
        #expect(calibrated.errors == uncalibrated.errors, "the headings themselves do not change")
        let accuracies = calibrated.rows.compactMap { $0["accuracy_deg"].flatMap(Double.init) }
        #expect(!accuracies.isEmpty && accuracies.allSatisfy { $0 > 0 })
    }

    @Test("without gyroscope columns the old columns stay and the new ones are empty")
    func noGyro() throws {
        let h = try SessionHarness("replay-no-gyro")
        let path = h.path("raw.csv")
        try "t,x,y,z\n0,20,0,-40\n0.1,20,0,-40\n0.2,20,0,-40\n".write(toFile: path, atomically: true, encoding: .utf8)
        _ = try HeadingReplay(path: path).run(runtime: h.runtime("heading"))
        let last = try #require(h.output.lines.last)
        #expect(last.hasSuffix(",,,,,"), "\(last)")
        #expect(!last.contains("gyroAided"))
    }
}

/// `heading --from-file` on Lodestone's own CSV log: a logged trip processed again.
@Suite("heading replay of a Lodestone log")
struct LogReplayTests {
    @Test("the log's raw field and monotonic time are read; the headings agree with the logged ones")
    func replaysALog() throws {
        let h = try SessionHarness("log-replay")
        let path = h.path("trip.csv")
        let request = LogRequest(live: LiveRequest(sensors: SensorSelection(simulate: true, accelerometer: .none), gnss: .none,
                                                   distanceFilter: 0),
                                 file: .init(path: path), rate: 50, duration: 4)
        _ = try LogRecording.run(request, runtime: h.runtime("log"))
        let r = try SessionHarness("log-replay-heading")
        #expect(try HeadingReplay(path: path).run(runtime: r.runtime("heading")) == .success)
        let logged = LogCheck(path: path).rows
        let replayed = r.output.lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(replayed.count == logged.count, "\(replayed.count) headings for \(logged.count) rows")
        // The replay sees only the logged samples (50 of the chip's 200 a second), so its smoothing
        // differs a little from the live run's.
        var worst = 0.0
        for (row, out) in zip(logged, replayed).dropFirst(25) {
            guard let a = Double(row[12]), let b = Double(out[1]) else { continue }
            worst = max(worst, abs((a - b + 540).truncatingRemainder(dividingBy: 360) - 180))
        }
        #expect(worst < 2, "worst difference \(worst)°")
    }

    @Test("a logged trip with a gyro replays gyro-aided: the log's inertial columns feed the attitude filter")
    func replaysAGyroLog() throws {
        let h = try SessionHarness("log-replay-gyro")
        let path = h.path("boat.csv")
        var sensors = SensorSelection(simulate: true)
        sensors.scenario = "boat"
        let request = LogRequest(live: LiveRequest(sensors: sensors, gnss: .none, distanceFilter: 0),
                                 file: .init(path: path), rate: 50, duration: 20)
        _ = try LogRecording.run(request, runtime: h.runtime("log"))
        let logged = LogCheck(path: path).rows
        try #require(logged.count > 900)
        // The logged gyro (°/s) carries the boat's roll: ±12° at a 6 s period is up to 12.6 °/s.
        let rollRates = logged.compactMap { Double($0[30]) }
        #expect(rollRates.count == logged.count, "every row has the gyro")
        #expect((rollRates.max() ?? 0) > 8 && (rollRates.min() ?? 0) < -8)
        // The simulated boat's compass was calibrated where it is mounted: the replay is given the
        // same calibration, as a real trip would be given its profile.
        let setup = sensors.simulationSetup(wall: h.clock.wall())
        let profile = try #require(simulatedBoardCalibration(setup: setup, sensor: SensorIdentity(chip: "qmc5883l"),
                                                              noise: 0.2, wall: h.clock.wall()))
        let profilePath = h.path("calibration.json")
        try ProfileStore(path: profilePath, configFolder: nil).save(profile)
        let r = try SessionHarness("log-replay-gyro-heading")
        #expect(try HeadingReplay(path: path, calibrationPath: profilePath).run(runtime: r.runtime("heading")) == .success)
        let replayed = r.output.lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(replayed.count == logged.count)
        // Gyro-aided: the rate of turn and the attitude quaternion are filled, the flag says so.
        #expect(replayed.allSatisfy { $0[10].contains("gyroAided") && !$0[11].isEmpty && !$0[12].isEmpty })
        var worst = 0.0
        for (row, out) in zip(logged, replayed).dropFirst(250) {
            guard let a = Double(row[12]), let b = Double(out[1]) else { continue }
            worst = max(worst, abs((a - b + 540).truncatingRemainder(dividingBy: 360) - 180))
        }
        #expect(worst < 3, "the replay agrees with the live headings to \(worst)°")
    }
}

/// `heading --from-file` on the same real recordings without their gyroscope columns: the compass
/// path alone (magnetometer and accelerometer).
@Suite("heading replay without a gyroscope (BROAD)")
struct NoGyroReplayTests {
    /// The excerpt without gx,gy,gz, run through the replay; per scored row the error of the
    /// pipeline's heading, of the unfiltered tilt-compensated heading, and the claimed accuracy (nil:
    /// unavailable).
    func run(trial: String) throws -> [(error: Double, unfiltered: Double, accuracy: Double?)] {
        let source = GyroReplayTests.folder.appendingPathComponent(GyroReplayTests.trials[trial]! + "_excerpt.csv").path
        let lines = try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let header = lines[0]
        let keep = header.indices.filter { !["gx", "gy", "gz"].contains(header[$0]) }
        let h = try SessionHarness("no-gyro-replay")
        let path = h.path("no-gyro.csv")
        try lines.map { row in keep.map { row[$0] }.joined(separator: ",") }.joined(separator: "\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try HeadingReplay(path: path, residualMicrotesla: 0.5).run(runtime: h.runtime("heading")) == .success)
        let out = h.output.lines
        let outHeader = out[0].split(separator: ",").map(String.init)
        var result: [(Double, Double, Double?)] = []
        for (line, input) in zip(out.dropFirst(), lines.dropFirst()) {
            let row = Dictionary(uniqueKeysWithValues: zip(outHeader, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
            let cells = Dictionary(uniqueKeysWithValues: zip(header, input))
            func value(_ key: String) -> Double? { cells[key].flatMap(Double.init) }
            guard cells["movement"] == "1", let truth = value("heading_deg"), truth.isFinite,
                  let pitch = value("pitch_deg"), abs(pitch) <= 60,
                  let heading = row["heading_mag_deg"].flatMap(Double.init),
                  let x = value("x"), let y = value("y"), let z = value("z"),
                  let ax = value("ax"), let ay = value("ay"), let az = value("az") else { continue }
            // Unfiltered: the accelerometer's own tilt this sample, the field levelled by it (as the
            // benchmark's attitude.broad_no_gyro computes it).
            let field = Vector3(x, y, z)
            let tilt = try #require(Tilt(gravity: Vector3(ax, ay, az)))
            let unfiltered = Tilt.heading(ofLevelled: tilt.levelled(field))
            func error(_ h: Double) -> Double { abs((h - truth + 540).truncatingRemainder(dividingBy: 360) - 180) }
            result.append((error(heading), error(unfiltered), row["accuracy_deg"].flatMap(Double.init)))
        }
        return result
    }

    @Test("never worse than the unfiltered tilt-compensated heading, and the accuracy covers the error",
          arguments: ["01", "07", "15", "30"])
    func compassPath(trial: String) throws {
        let rows = try run(trial: trial)
        try #require(rows.count > 400)
        func rms(_ values: [Double]) -> Double { (values.map { $0 * $0 }.reduce(0, +) / Double(values.count)).squareRoot() }
        let ours = rms(rows.map(\.error)), plain = rms(rows.map(\.unfiltered))
        #expect(ours <= plain * 1.02, "RMSE \(ours)° against \(plain)° unfiltered on trial \(trial)")
        // Covered: within the accuracy, or the accuracy says there is no heading (unavailable).
        let covered = Double(rows.filter { r in r.accuracy.map { r.error <= $0 } ?? true }.count) / Double(rows.count)
        #expect(covered >= 0.9, "the accuracy covers \(covered) of the errors on trial \(trial)")
    }
}
