import Platform
import Foundation
import Linear
import Sensors
import Simulation
import Testing
@testable import Calibration

/// The raw-count recording `calibration/data/qmc5883l_tumble_counts.csv` is generated here: a
/// simulated QMC5883L (±8 G, 200 Hz, datasheet noise) on a board with strong hard and soft iron,
/// tumbled for 60 s through the real driver, written at 50 Hz as integer counts (30 per µT) in
/// body axes, with the truth beside it in `qmc5883l_tumble_counts.truth.json`.
///
/// Regenerate with `LODESTONE_REGENERATE_FIXTURES=1 swift test --filter RawCountFixture`.
@Suite("Raw-count fixture (generated)")
struct RawCountFixtureTests {
    static let dataFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("calibration/data")
    static let csvURL = dataFolder.appendingPathComponent("qmc5883l_tumble_counts.csv")
    static let truthURL = dataFolder.appendingPathComponent("qmc5883l_tumble_counts.truth.json")
    static let countsPerMicrotesla = 30.0   // QMC5883L at ±8 G: 3000 counts per gauss

    /// The board: ~2× the Earth field of hard iron, ±20 % of symmetric soft iron.
    static let model: MagnetometerModel = {
        let r = Matrix3.rotation(roll: radians(20), pitch: radians(-35), yaw: radians(60))
        return MagnetometerModel(hardIron: Vector3(-60, 85, 40),
                                 softIron: r * Matrix3.diagonal(Vector3(1.2, 0.85, 1.05)) * r.transposed)
    }()

    static var setup: SimulationSetup {
        var setup = SimulationSetup(model: model, chip: .qmc5883l)
        setup.scenario = .tumble(period: 40, field: setup.world.field)
        setup.seed = 2026
        return setup
    }

    /// The CSV text: header `t,x,y,z`, counts as integers.
    static func generate() throws -> String {
        let clock = ManualClock()
        let rig = SimulatedRig(setup: setup, now: { clock.now() })
        let chip = try DriverFactory.open(.qmc5883l, bus: rig.bus, address: rig.address, now: rig.now)
        let reader = MagnetometerReader(magnetometer: chip, orientation: setup.orientation,
                                        clock: ReaderClock(monotonic: clock.now, wall: { 1.8e9 + clock.now() },
                                                           sleep: clock.advance(by:)))
        var lines = ["t,x,y,z"]
        var index = 0
        while clock.now() < 60 {
            guard let sample = reader.next(timeout: 0.05) else { continue }
            index += 1
            guard index % 4 == 0 else { continue }
            let counts = [sample.field.x, sample.field.y, sample.field.z].map { Int(($0 * countsPerMicrotesla).rounded()) }
            let t = (sample.monotonic * 1000).rounded() / 1000
            lines.append(String(format: "%.3f", t) + "," + counts.map(String.init).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func truthJSON() throws -> String {
        let s = model.softIron, h = model.hardIron * countsPerMicrotesla, f = setup.world.field
        let object: [String: Any] = [
            "description": "truth for qmc5883l_tumble_counts.csv: raw_counts = counts_per_microtesla * (soft_iron * body_field + hard_iron_microtesla); body axes x forward, y right, z down",
            "counts_per_microtesla": countsPerMicrotesla,
            "hard_iron_microtesla": [model.hardIron.x, model.hardIron.y, model.hardIron.z],
            "hard_iron_counts": [h.x, h.y, h.z],
            "soft_iron": [[s[0, 0], s[0, 1], s[0, 2]], [s[1, 0], s[1, 1], s[1, 2]], [s[2, 0], s[2, 1], s[2, 2]]],
            "earth_field_ned_microtesla": [f.x, f.y, f.z],
            "noise_microtesla": 0.2,
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    @Test func committedFixtureMatchesTheGenerator() throws {
        let generated = try Self.generate()
        if ProcessInfo.processInfo.environment["LODESTONE_REGENERATE_FIXTURES"] == "1" {
            try generated.write(to: Self.csvURL, atomically: true, encoding: .utf8)
            try Self.truthJSON().write(to: Self.truthURL, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: Self.csvURL, encoding: .utf8)
        let a = generated.split(separator: "\n"), b = committed.split(separator: "\n")
        #expect(a.count == b.count && a.count > 2900, "rows: generated \(a.count), committed \(b.count)")
        #expect(b.first == "t,x,y,z")
        // Identical up to a count of libm rounding on another machine.
        var worst = 0
        for (x, y) in zip(a.dropFirst(), b.dropFirst()) {
            let u = x.split(separator: ",").dropFirst().compactMap { Int($0) }
            let v = y.split(separator: ",").dropFirst().compactMap { Int($0) }
            #expect(u.count == 3 && v.count == 3)
            for (p, q) in zip(u, v) { worst = max(worst, abs(p - q)) }
        }
        #expect(worst <= 1, "largest difference \(worst) counts")
    }

    @Test func fixtureCalibratesToTheTruth() throws {
        let text = try String(contentsOf: Self.csvURL, encoding: .utf8)
        let rows = text.split(separator: "\n").dropFirst().map { line -> Vector3 in
            let v = line.split(separator: ",").dropFirst().compactMap { Double($0) }
            return Vector3(v[0], v[1], v[2])
        }
        #expect(rows.allSatisfy { $0.x == $0.x.rounded() && $0.y == $0.y.rounded() && $0.z == $0.z.rounded() })
        let result = try CalibrationSolver().solve(rows).get()
        let truthOffset = Self.model.hardIron * Self.countsPerMicrotesla
        #expect((result.fit.offset - truthOffset).norm < 0.5 * Self.countsPerMicrotesla,
                "offset \(result.fit.offset) vs \(truthOffset)")
        // Worst level heading error over a 360° turn, noise-free.
        var worst = 0.0
        for step in 0..<360 {
            let body = Matrix3.rotation(roll: 0, pitch: 0, yaw: radians(Double(step))).transposed * Self.setup.world.field
            let raw = Self.model.distorted(body) * Self.countsPerMicrotesla
            let c = result.fit.apply(raw)
            worst = max(worst, abs(angleDifference(degrees(atan2(-c.y, c.x)), degrees(atan2(-body.y, body.x)))))
        }
        #expect(worst <= 0.5, "worst heading error \(worst)°")
    }
}
