import Foundation
import Heading
import Linear
import Testing

@Suite struct TiltConventionTests {
    @Test func nosUpAndRightDownSigns() throws {
        // Nose up: the gravity reaction (up) leans towards +x; right side down: it leans towards −y.
        let noseUp = bodyReadings(yaw: 0, pitch: 10).acceleration
        #expect(noseUp.x > 0.17 && noseUp.x < 0.18)
        let rightDown = bodyReadings(yaw: 0, roll: 10).acceleration
        #expect(rightDown.y < -0.17 && rightDown.y > -0.18)
        let t1 = try #require(Tilt(gravity: noseUp)), t2 = try #require(Tilt(gravity: rightDown))
        #expect(t1.pitch.isApproximatelyEqual(to: 10, absoluteTolerance: 1e-9))
        #expect(t2.roll.isApproximatelyEqual(to: 10, absoluteTolerance: 1e-9))
        #expect(try #require(Tilt(gravity: Vector3(0, 0, -1))) == Tilt.level)
    }

    @Test func gravityRecoversRollAndPitch() throws {
        for roll in stride(from: -170.0, through: 170, by: 17) {
            for pitch in stride(from: -80.0, through: 80, by: 16) {
                let a = bodyReadings(yaw: 37, roll: roll, pitch: pitch).acceleration * 0.97  // scale ignored
                let tilt = try #require(Tilt(gravity: a))
                #expect(tilt.roll.isApproximatelyEqual(to: roll, absoluteTolerance: 1e-9))
                #expect(tilt.pitch.isApproximatelyEqual(to: pitch, absoluteTolerance: 1e-9))
            }
        }
    }

    @Test func levelledFieldEqualsYawRotatedNED() throws {
        let field = Vector3(24.4, 5.5, -51.3)
        for yaw in stride(from: 0.0, to: 360, by: 23) {
            for (roll, pitch) in [(0.0, 0.0), (25, -25), (-40, 30), (120, 10), (-5, 70)] {
                let (m, a) = bodyReadings(yaw: yaw, roll: roll, pitch: pitch, field: field)
                let tilt = try #require(Tilt(gravity: a))
                let expected = Matrix3.rotation(roll: 0, pitch: 0, yaw: radians(yaw)).transposed * field
                #expect(tilt.levelled(m).isApproximatelyEqual(to: expected, absoluteTolerance: 1e-9))
            }
        }
    }

    @Test func tiltCompensatedHeadingEqualsYaw() throws {
        for yaw in stride(from: 0.0, to: 360, by: 7.5) {
            for (roll, pitch) in [(0.0, 0.0), (25, 25), (-25, 25), (25, -25), (-25, -25), (60, -45)] {
                let (m, a) = bodyReadings(yaw: yaw, roll: roll, pitch: pitch)
                let h = try #require(Tilt(gravity: a)).heading(of: m)
                #expect(abs(angleDifference(h, yaw)) < 1e-9, "yaw \(yaw) roll \(roll) pitch \(pitch): \(h)")
                #expect(h >= 0 && h < 360)
            }
        }
    }

    @Test func levelHeadingIsAtan2MinusYX() {
        // Facing east the field is on the body's left (−y): heading 90°.
        let east = bodyReadings(yaw: 90).magnetic
        #expect(east.y < 0)
        #expect(Tilt.heading(ofLevelled: east).isApproximatelyEqual(to: 90, absoluteTolerance: 1e-9))
        #expect(Tilt.heading(ofLevelled: bodyReadings(yaw: 270).magnetic).isApproximatelyEqual(to: 270, absoluteTolerance: 1e-9))
        #expect(Tilt.heading(ofLevelled: .zero) == 0)
    }

    @Test func measuredInclinationMatchesTheField() throws {
        for (roll, pitch) in [(0.0, 0.0), (25, -20), (-30, 15)] {
            let (m, a) = bodyReadings(yaw: 123, roll: roll, pitch: pitch)
            let incl = Tilt.inclination(ofLevelled: try #require(Tilt(gravity: a)).levelled(m))
            #expect(incl.isApproximatelyEqual(to: -64, absoluteTolerance: 1e-9))
        }
    }

    @Test func levelOnlyErrorIsTiltTimesTanInclination() {
        // Facing north with a small roll, the vertical field leaks into y: error ≈ roll × tan(dip).
        for roll in [1.0, 2.0, 3.0] {
            let m = bodyReadings(yaw: 0, roll: roll).magnetic
            let error = abs(angleDifference(Tilt.heading(ofLevelled: m), 0))
            let predicted = roll * tan(radians(64))
            #expect(abs(error - predicted) < 0.05 * predicted, "roll \(roll): \(error) vs \(predicted)")
            #expect(error.isApproximatelyEqual(to: Tilt.levelOnlyError(tilt: roll, inclination: -64), absoluteTolerance: 1e-9))
        }
    }

    @Test func levelOnlyErrorHelper() {
        #expect(abs(Tilt.levelOnlyError(tilt: 5, inclination: -64) - 10.1) < 0.1)
        #expect(Tilt.levelOnlyError(tilt: 5, inclination: 0) == 0)
        #expect(Tilt.levelOnlyError(tilt: 5, inclination: 90) == 90)
        #expect(Tilt.levelOnlyError(tilt: .nan, inclination: 60) == 90)
    }

    @Test func degenerateGravityIsRejected() {
        #expect(Tilt(gravity: .zero) == nil)
        #expect(Tilt(gravity: Vector3(.nan, 0, -1)) == nil)
        #expect(Tilt(gravity: Vector3(1e200, 1e200, 1e200)) == nil)
        let straightUp = Tilt(gravity: Vector3(1, 0, 0))
        #expect(straightUp?.pitch == 90 && straightUp?.roll == 0)
    }
}

@Suite struct TiltEstimatorTests {
    func feed(_ e: inout TiltEstimator, _ a: Vector3, from t0: Double, seconds: Double, rate: Double) -> TiltReading {
        var last = TiltReading(tilt: nil, held: false, alpha: 1)
        let n = Int(seconds * rate)
        for i in 0..<n { last = e.update(acceleration: a, time: t0 + Double(i) / rate, dt: i == 0 && t0 == 0 ? 0 : 1 / rate) }
        return last
    }

    @Test("|a| away from 1 g is not held: a vertical acceleration leaves the tilt right, and either widens the accuracy")
    func linearAccelerationIsNotHeldButCounted() throws {
        var e = TiltEstimator(configuration: TiltConfiguration())
        let still = bodyReadings(yaw: 0, roll: 10, pitch: 5).acceleration
        _ = feed(&e, still, from: 0, seconds: 1, rate: 100)
        #expect(feed(&e, still, from: 1, seconds: 0.1, rate: 100).accelerationActivity < 0.01)
        // Heave or a bump: the specific force grows along gravity; its direction, the tilt, stays.
        let heave = feed(&e, still * 1.3, from: 1.1, seconds: 0.5, rate: 100)
        #expect(!heave.held)
        let tilt = try #require(heave.tilt)
        #expect(abs(tilt.roll - 10) < 0.01 && abs(tilt.pitch - 5) < 0.01)
        #expect(heave.accelerationActivity >= 0.29)
        // Braking at 0.6 g: |a| = 1.17 g, the tilt leans and nothing can tell it from a real pitch
        // without a gyroscope; the activity (what the accuracy widens by) is at least the excess.
        var f = TiltEstimator(configuration: TiltConfiguration())
        _ = feed(&f, still, from: 0, seconds: 1, rate: 100)
        let pushed = still + Vector3(-0.6, 0, 0)
        let braking = feed(&f, pushed, from: 1, seconds: 0.5, rate: 100)
        #expect(!braking.held)
        #expect(braking.accelerationActivity >= pushed.norm - 1 - 1e-12)
    }

    @Test("without a gyro, a tilt held after a knock is let go once the body turns: the accelerometer's own is then the better one")
    func heldTiltLetGoWhenTheBodyTurns() throws {
        var e = TiltEstimator(configuration: TiltConfiguration())
        let start = bodyReadings(yaw: 0, roll: 10, pitch: 5)
        for i in 0..<100 {
            _ = e.update(acceleration: start.acceleration, time: Double(i) / 100, dt: i == 0 ? 0 : 0.01,
                         field: start.magnetic)
        }
        // A knock (3 g within one sample) holds the tilt; the field stays put, the hold stays.
        let knock = Vector3(0, 0, -3)
        let still = e.update(acceleration: start.acceleration + knock, time: 1.0, dt: 0.01, field: start.magnetic)
        #expect(still.held && !still.accelerated)
        #expect(abs(try #require(still.tilt).roll - 10) < 0.01)
        // Turning 8° about the vertical (a vehicle in a bend) keeps roll and pitch: still held.
        let yawed = bodyReadings(yaw: 8, roll: 10, pitch: 5)
        let bend = e.update(acceleration: yawed.acceleration, time: 1.005, dt: 0.005, field: yawed.magnetic)
        #expect(bend.held && !bend.accelerated)
        // Rolled over to 60° within the hold: the field has moved in the body, the held 10° is
        // stale, and the accelerometer's own tilt is taken, flagged.
        let turned = bodyReadings(yaw: 0, roll: 60, pitch: 5)
        let r = e.update(acceleration: turned.acceleration, time: 1.01, dt: 0.005, field: turned.magnetic)
        #expect(!r.held && r.accelerated)
        let roll = try #require(r.tilt).roll
        #expect(abs(roll - 60) < 0.5, "roll \(roll)")
        // Without the field, nothing tells a turn: the hold stays.
        var blind = TiltEstimator(configuration: TiltConfiguration())
        _ = feed(&blind, start.acceleration, from: 0, seconds: 1, rate: 100)
        _ = blind.update(acceleration: start.acceleration + knock, time: 1.0, dt: 0.01)
        #expect(blind.update(acceleration: turned.acceleration, time: 1.01, dt: 0.01).held)
    }

    @Test func holdsTiltOnAKnockButNotOnMotion() throws {
        var e = TiltEstimator(configuration: TiltConfiguration())
        let level = Vector3(0, 0, -1)
        _ = feed(&e, level, from: 0, seconds: 1, rate: 100)
        // A knock: 3 g sideways within one sample (300 g/s).
        let r = e.update(acceleration: Vector3(3, 0, -1), time: 1.0, dt: 0.01)
        #expect(r.held)
        #expect(abs(try #require(r.tilt).pitch) < 0.01)
        // A hand tipping the board 20° within 50 ms (7 g/s) is motion, never held, and followed.
        var f = TiltEstimator(configuration: TiltConfiguration())
        _ = feed(&f, level, from: 0, seconds: 1, rate: 100)
        for i in 1...5 {
            let pitch = radians(Double(i) * 4)
            let r = f.update(acceleration: Vector3(sin(pitch), 0, -cos(pitch)), time: 1 + Double(i) * 0.01, dt: 0.01)
            #expect(!r.held)
        }
        let tipped = try #require(feed(&f, Vector3(sin(radians(20)), 0, -cos(radians(20))),
                                       from: 1.06, seconds: 0.1, rate: 100).tilt)
        #expect(abs(abs(tipped.pitch) - 20) < 0.5, "pitch \(tipped.pitch)")
    }

    @Test func badReadingsHoldAndNeverGiveNaN() throws {
        var e = TiltEstimator(configuration: TiltConfiguration())
        _ = feed(&e, Vector3(0, 0, -1), from: 0, seconds: 0.5, rate: 50)
        let r = e.update(acceleration: Vector3(.nan, 0, -1), time: 0.5, dt: 0.02)
        #expect(r.held)
        #expect(try #require(r.tilt).roll.isFinite)
        // No accelerometer reading for longer than maxAgeSeconds: no tilt.
        let stale = e.update(acceleration: nil, time: 2.0, dt: 1.5)
        #expect(stale.tilt == nil)
    }

    @Test func tracksATiltChangeQuickly() throws {
        // Tilting by 30° at 60°/s: adaptive smoothing follows within 1° 0.15 s after the motion.
        for rate in [10.0, 50, 1000] {
            var e = TiltEstimator(configuration: TiltConfiguration())
            var rng = SplitMix64(seed: 7)
            var last: TiltReading?
            let n = Int(1.65 * rate)
            for i in 0..<n {
                let t = Double(i) / rate
                let roll = t < 1 ? 0 : min(30, (t - 1) * 60)
                let a = bodyReadings(yaw: 0, roll: roll).acceleration + gaussianVector(&rng, 0.003)
                last = e.update(acceleration: a, time: t, dt: i == 0 ? 0 : 1 / rate)
            }
            let roll = try #require(last?.tilt).roll
            #expect(abs(roll - 30) < 1, "rate \(rate): roll \(roll)")
        }
    }
}

@Suite struct FastAtanTests {
    @Test func headingMatchesLibmAtan2() {
        var rng = SplitMix64(seed: 31)
        var worst = 0.0
        for i in 0..<200_000 {
            let scale = i % 3 == 0 ? 1e-3 : (i % 3 == 1 ? 1 : 1e4)
            let v = Vector3(rng.nextGaussian() * scale, rng.nextGaussian() * scale, rng.nextGaussian() * scale)
            let reference = degrees(atan2(-v.y, v.x))
            worst = max(worst, abs(angleDifference(Tilt.heading(ofLevelled: v), reference)))
            let incl = degrees(atan2(v.z, (v.x * v.x + v.y * v.y).squareRoot()))
            worst = max(worst, abs(Tilt.inclination(ofLevelled: v) - incl))
        }
        #expect(worst < 1e-9, "worst difference \(worst)°")
        for (x, y, h) in [(1.0, 0.0, 0.0), (0, -1, 90), (-1, 0, 180), (0, 1, 270), (1, -1, 45), (-1, 1, 225)] {
            #expect(Tilt.heading(ofLevelled: Vector3(x, y, 0)).isApproximatelyEqual(to: h, absoluteTolerance: 1e-9))
        }
    }
}
