import Testing
import Foundation
import Linear
@testable import Calibration

/// A compass bolted into a vehicle can only be turned in circles: the expected field (World
/// Magnetic Model) and gravity (accelerometer) make the full hard and soft iron observable.
@Suite("Vehicle calibration from circles")
struct VehicleCalibrationTests {
    static let earth = Synthetic.earthNED
    static let inclination = degrees(atan2(earth.z, (earth.x * earth.x + earth.y * earth.y).squareRoot()))

    /// A board with full hard iron (~1× the field) and ±15 % soft iron, turned axis included.
    static let board: SyntheticSensor = {
        let r = Matrix3.rotation(roll: 0.4, pitch: -0.3, yaw: 1.1)
        return SyntheticSensor(offset: Vector3(25, -18, 30), softIron: r * Matrix3.diagonal(Vector3(1.15, 0.88, 1.05)) * r.transposed,
                               noise: 0.3)
    }()

    /// Two slow full circles (`seconds`, 20 Hz), roll and pitch within ±`tilt`°, accelerometer
    /// noise 0.005 g; returns raw magnetometer and accelerometer (g, body axes, level = (0, 0, −1)).
    static func swing(_ sensor: SyntheticSensor, seconds: Double = 120, tilt: Double = 4, circles: Double = 2,
                      seed: UInt64) -> (mag: [Vector3], accel: [Vector3?]) {
        var rng = SplitMix64(seed: seed)
        let count = Int(seconds * 20)
        var mag: [Vector3] = [], accel: [Vector3?] = []
        for i in 0..<count {
            let t = Double(i) / 20
            let yaw = 2 * .pi * circles * Double(i) / Double(count)
            let roll = radians(tilt) * sin(2 * .pi * t / 7.3), pitch = radians(tilt) * sin(2 * .pi * t / 11.9 + 1)
            let attitude = Matrix3.rotation(roll: roll, pitch: pitch, yaw: yaw)
            mag.append(sensor.read(attitude.transposed * earth, &rng))
            let noise = Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian()) * 0.005
            accel.append(attitude.transposed * Vector3(0, 0, -1) + noise)
        }
        return (mag, accel)
    }

    static var options: CalibrationOptions {
        CalibrationOptions(expectedFieldStrength: earth.norm, expectedInclinationDegrees: inclination)
    }

    @Test func twoCirclesCalibrateToADegreeAtFiveDegreesTilt() throws {
        let (mag, accel) = Self.swing(Self.board, seed: 1)
        let result = try VehicleCalibration(options: Self.options).solve(magnetic: mag, acceleration: accel).get()
        let worst = Synthetic.worstTiltedHeadingError(softIron: Self.board.softIron, offset: Self.board.offset,
                                                      tiltDegrees: 5, correct: result.fit.apply)
        let level = Synthetic.worstTiltedHeadingError(softIron: Self.board.softIron, offset: Self.board.offset,
                                                      tiltDegrees: 0, correct: result.fit.apply)
        print("vehicle swing: heading error ≤ \(level)° level, ≤ \(worst)° at ±5° tilt; predicted ±\(result.headingError.level)° level, "
              + "±\(result.headingError.tilted)° at \(result.headingError.tiltDegrees)°; offset \(result.fit.offset) vs \(Self.board.offset); "
              + "bins \(result.headingBins ?? -1)")
        #expect(result.method == .vehicle)
        #expect(worst <= 1.0)
        // Hard iron in all three axes: the vertical one from the tilts, the field strength and the dip.
        #expect((result.fit.offset - Self.board.offset).norm < 1.5)
        #expect(result.passed)
        // The prediction is honest at the vehicle's assessment tilt (10°).
        let at10 = Synthetic.worstTiltedHeadingError(softIron: Self.board.softIron, offset: Self.board.offset,
                                                     tiltDegrees: 10, correct: result.fit.apply)
        #expect(at10 <= 1.5 * result.headingError.tilted && result.headingError.tilted <= 4 * at10)
        #expect(result.headingBins == 18)
    }

    @Test func theEllipsoidFitRefusesTheSameRingAndPointsToTheLocation() {
        let (mag, _) = Self.swing(Self.board, seed: 2)
        guard case let .failure(f) = CalibrationSolver().solve(mag) else {
            Issue.record("a ring must not pass as a tumble")
            return
        }
        #expect(f.issues.contains { $0.code == "single_plane" })
        #expect(f.message.contains("--location"))
        // Without the place the vehicle fit cannot start either, and says why.
        guard case let .failure(g) = VehicleCalibration(options: CalibrationOptions()).solve(magnetic: mag, acceleration: []) else {
            Issue.record("no place, no vehicle fit")
            return
        }
        #expect(g.issues == [.ringNeedsLocation])
        #expect(g.message.contains("--location LAT,LON") && g.message.contains("accelerometer"))
    }

    /// Part of a circle is refused for the heading sectors it missed: on a short arc the predicted
    /// error is not to be trusted (a quarter circle predicts about ±2° and is off by 3°).
    @Test(arguments: [0.45, 0.25])
    func partOfACircleIsRefusedNamingTheMissingHeadings(circles: Double) {
        let (mag, accel) = Self.swing(Self.board, seconds: 60, circles: circles, seed: 3)
        guard case let .failure(f) = VehicleCalibration(options: Self.options).solve(magnetic: mag, acceleration: accel) else {
            Issue.record("part of a circle must not pass")
            return
        }
        #expect(f.issues.contains { $0.code == "heading_circle_incomplete" })
        #expect(f.message.contains("drive or steer two slow full circles"))
    }

    /// The predicted 95 % bound (worst heading) against the actual worst level error over seeds.
    @Test func predictedHeadingErrorBoundsTheActualOne() throws {
        var ratios: [Double] = []
        for seed in UInt64(1)...10 {
            let (mag, accel) = Self.swing(Self.board, seed: seed * 3)
            let result = try VehicleCalibration(options: Self.options).solve(magnetic: mag, acceleration: accel).get()
            let actual = Synthetic.worstTiltedHeadingError(softIron: Self.board.softIron, offset: Self.board.offset,
                                                           tiltDegrees: 0, correct: result.fit.apply)
            ratios.append(actual / result.headingError.level)
        }
        let sorted = ratios.sorted()
        print("vehicle: actual / predicted level heading error \(sorted.map { ($0 * 100).rounded() / 100 })")
        #expect(sorted.filter { $0 > 1 }.count <= 3)
        #expect(sorted[sorted.count / 2] > 0.3)
    }

    @Test func aPerfectlyLevelRingIsJudgedLevelOnly() throws {
        // No roll or pitch at all: the vertical terms rest on the prior, so the tilted heading
        // error is unknown; the level one is what the vehicle needs, and it is good.
        let (mag, accel) = Self.swing(Self.board, tilt: 0, seed: 5)
        let result = try VehicleCalibration(options: Self.options).solve(magnetic: mag, acceleration: accel).get()
        #expect(result.headingError.tilted == .infinity)
        #expect(result.headingError.level <= 1)
        #expect(Synthetic.worstTiltedHeadingError(softIron: Self.board.softIron, offset: Self.board.offset,
                                                  tiltDegrees: 0, correct: result.fit.apply) <= 0.5)
    }

    @Test func tooFewSamples() {
        let (mag, accel) = Self.swing(Self.board, seconds: 6, seed: 4)
        guard case let .failure(f) = VehicleCalibration(options: Self.options).solve(magnetic: mag, acceleration: accel) else {
            Issue.record("120 samples must not pass")
            return
        }
        #expect(f.issues.first?.code == "too_few_samples")
    }
}
