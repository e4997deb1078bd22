import Platform
import Foundation
import Linear
import Sensors
import Simulation
import Testing
@testable import Calibration

/// Recordings made the way real ones are: a simulated chip (HMC5883L, QMC5883L) on a board with
/// hard and soft iron, read through the real driver, written as raw integer counts in body axes.
/// Each must calibrate by default, with the spread of |B| within 5 % of a plain algebraic
/// ellipsoid fit's, and leave a small heading error.
@Suite("Simulated chip recordings in raw counts")
struct SimulatedChipRecordingTests {
    /// The board: ~1.5× the Earth field of hard iron, ±15 % of symmetric soft iron.
    static let model: MagnetometerModel = {
        let r = Matrix3.rotation(roll: radians(-25), pitch: radians(30), yaw: radians(-50))
        return MagnetometerModel(hardIron: Vector3(45, -70, 30),
                                 softIron: r * Matrix3.diagonal(Vector3(1.15, 0.87, 1.02)) * r.transposed)
    }()

    /// A tumble that only turns the field as far as `maximumPolarDegrees` from the body's +z axis
    /// (the board is never turned fully over): the polar angle runs back and forth over that range.
    static func partialTumble(period: Double, field: Vector3, maximumPolarDegrees: Double) -> AttitudeScenario {
        let full = AttitudeScenario.tumble(period: period, field: field)
        let span = period * maximumPolarDegrees / 180
        return AttitudeScenario(name: "partial tumble") { t in
            let u = max(0, t).truncatingRemainder(dividingBy: 2 * span)
            return full.attitude(at: u < span ? u : 2 * span - u)
        }
    }

    /// Counts per µT and the recording (body axes, counts) of `seconds` at 50 Hz.
    static func record(chip: ChipKind, countsPerMicrotesla: Double, noise: Double?, maximumPolarDegrees: Double?,
                       seconds: Double, seed: UInt64) throws -> [Vector3] {
        var setup = SimulationSetup(model: model, noise: noise, seed: seed, chip: chip)
        setup.scenario = maximumPolarDegrees.map { partialTumble(period: 40, field: setup.world.field, maximumPolarDegrees: $0) }
            ?? .tumble(period: 40, field: setup.world.field)
        let clock = ManualClock()
        let rig = SimulatedRig(setup: setup, now: { clock.now() })
        let driver = try DriverFactory.open(chip, bus: rig.bus, address: rig.address, now: rig.now)
        let reader = MagnetometerReader(magnetometer: driver, orientation: setup.orientation,
                                        clock: ReaderClock(monotonic: clock.now, wall: { 1.8e9 + clock.now() },
                                                           sleep: clock.advance(by:)))
        var rows: [Vector3] = []
        var next = 0.0
        while clock.now() < seconds {
            guard let sample = reader.next(timeout: 0.05) else { continue }
            guard sample.monotonic >= next else { continue }
            next = sample.monotonic + 0.02
            let f = sample.field * countsPerMicrotesla
            rows.append(Vector3(f.x.rounded(), f.y.rounded(), f.z.rounded()))
        }
        return rows
    }

    static let earth = SimulationSetup().world.field

    static func check(_ name: String, _ raw: [Vector3], countsPerMicrotesla: Double, tilt: Double, limit: Double) throws {
        let result = try CalibrationSolver().solve(raw).get()
        let algebraic = try #require(Synthetic.algebraicSpreadPercent(raw))
        let ours = spreadPercent(raw.map(result.fit.apply))
        let worst = Synthetic.worstTiltedHeadingError(softIron: model.softIron, offset: model.hardIron,
                                                      tiltDegrees: tilt,
                                                      correct: { result.fit.apply($0 * countsPerMicrotesla) }, field: earth)
        print("\(name): \(raw.count) rows, coverage \(result.metrics.coveragePercent) %, spread \(ours) % "
              + "(algebraic \(algebraic) %), heading error ≤ \(worst)° at ±\(tilt)° tilt, predicted ±\(result.headingError.level)° "
              + "level, ±\(result.headingError.tilted)° at 20°")
        #expect(ours <= 1.05 * algebraic, "\(name)")
        #expect(worst <= limit, "\(name)")
    }

    @Test func hmc5883lFullTumble() throws {
        // HMC5883L at its default gain: 1090 counts per gauss, 10.9 per µT.
        let raw = try Self.record(chip: .hmc5883l, countsPerMicrotesla: 10.9, noise: nil, maximumPolarDegrees: nil,
                                  seconds: 80, seed: 301)
        try Self.check("HMC5883L full tumble", raw, countsPerMicrotesla: 10.9, tilt: 20, limit: 0.5)
    }

    @Test func qmc5883lTwoThirdsCoverage() throws {
        // Never turned fully over: the field stays within 110° of +z, ~67 % of the directions.
        let raw = try Self.record(chip: .qmc5883l, countsPerMicrotesla: 30, noise: nil, maximumPolarDegrees: 110,
                                  seconds: 120, seed: 302)
        let coverage = try CalibrationSolver().solve(raw).get().metrics.coveragePercent
        #expect(coverage >= 55 && coverage <= 75)
        try Self.check("QMC5883L 2/3 coverage", raw, countsPerMicrotesla: 30, tilt: 25, limit: 0.5)
    }

    @Test func noisyQMC5883LIsNoiseNotAFieldChange() throws {
        // 1.5 µT per axis of white noise (a QMC5883L near motors, or at its widest range): the
        // residual is several per cent of the field, the diagnosis says noise, and it calibrates.
        let raw = try Self.record(chip: .qmc5883l, countsPerMicrotesla: 30, noise: 1.5, maximumPolarDegrees: nil,
                                  seconds: 200, seed: 303)
        let result = try CalibrationSolver().solve(raw).get()
        #expect(result.diagnosis?.change == nil)
        #expect(result.metrics.residualPercent > 3)
        try Self.check("noisy QMC5883L", raw, countsPerMicrotesla: 30, tilt: 20, limit: 1)
    }
}
