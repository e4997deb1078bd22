import Testing
import Foundation
import Linear
@testable import Calibration

@Suite("Six-position accelerometer calibration")
struct AccelerometerTests {
    static let offset = Vector3(0.03, -0.05, 0.08)
    static let gain = Vector3(1.04, 0.97, 1.02)

    /// Still readings with `up` (a unit body vector) pointing up: raw = gain ⊙ up + offset.
    static func reading(up: Vector3) -> Vector3 {
        Vector3(up.x * gain.x, up.y * gain.y, up.z * gain.z) + offset
    }

    static let poses: [Vector3] = [Vector3(0, 0, -1), Vector3(0, 0, 1), Vector3(1, 0, 0),
                                   Vector3(-1, 0, 0), Vector3(0, 1, 0), Vector3(0, -1, 0)]

    @Test func recoversOffsetAndScale() throws {
        let cal = try AccelerometerCalibration.sixPosition(Self.poses.map(Self.reading).reversed())
        #expect(cal.offset.isApproximatelyEqual(to: Self.offset, absoluteTolerance: 1e-9))
        for i in 0..<3 { #expect(abs(cal.scale[i] - 1 / Self.gain[i]) < 1e-9) }
        for up in Self.poses { #expect(cal.apply(Self.reading(up: up)).isApproximatelyEqual(to: up, absoluteTolerance: 1e-9)) }
    }

    @Test func toleratesSlightlyTiltedPoses() throws {
        var rng = SplitMix64(seed: 4)
        let tilted = Self.poses.map { p -> Vector3 in
            let r = Matrix3.rotation(roll: radians(5 * rng.nextGaussian()), pitch: radians(5 * rng.nextGaussian()), yaw: 0)
            return Self.reading(up: r * p)
        }
        let cal = try AccelerometerCalibration.sixPosition(tilted)
        #expect(cal.offset.isApproximatelyEqual(to: Self.offset, absoluteTolerance: 2e-3))
        for i in 0..<3 { #expect(abs(cal.scale[i] * Self.gain[i] - 1) < 3e-3) }
    }

    @Test func errorsAreClear() {
        func error(_ readings: [Vector3]) -> AccelerometerCalibrationError? {
            do { _ = try AccelerometerCalibration.sixPosition(readings); return nil } catch { return error }
        }
        let good = Self.poses.map(Self.reading)
        #expect(error(Array(good.prefix(5))) == .wrongPoseCount(5))
        #expect(error(Array(good.prefix(5)))?.message.contains("six still poses") == true)
        var twice = good
        twice[1] = good[0]
        #expect(error(twice) == .duplicatePose(upSide: .top))
        #expect(error(twice)?.message.contains("two poses had the top facing up") == true)
        var tilted = good
        tilted[2] = Self.reading(up: Vector3(1, 0, 1).normalized ?? .zero)
        guard case .poseTooTilted(index: 2, _)? = error(tilted) else { Issue.record("tilt"); return }
        #expect(error(tilted)?.message.hasPrefix("pose 3 is tilted 44° from square: rest the board flat") == true)
        var moving = good
        moving[0] = moving[0] * 3
        #expect(error(moving)?.message.contains("instead of about 1 g") == true)
        var nan = good
        nan[4] = Vector3(.nan, 0, 0)
        #expect(error(nan) == .notFinite)
        #expect(AccelerometerCalibrationError.missingPose(upSide: .left).message.contains("left up"))
    }
}
