import Attitude
import Foundation
import Linear
import Testing

/// Any orientation: upside down, steep pitch, roll through 180°, without gimbal-lock jumps.
@Suite struct OrientationTests {
    /// Runs a motion and returns the worst heading error after `settle` seconds and the largest
    /// heading change between consecutive samples.
    private func run(start: Quaternion, seconds: Double, settle: Double = 5, seed: UInt64,
                     rate: (Double) -> Vector3) -> (worst: Double, jump: Double, last: AttitudeEstimate) {
        var motion = SyntheticMotion(orientation: start, seed: seed)
        motion.gyroBias = Vector3(0.3, -0.4, 0.5)
        var filter = AttitudeFilter()
        var worst = 0.0, jump = 0.0
        var previous: Double?
        for i in 0..<Int(seconds * 100) {
            let t = Double(i) / 100
            let s = motion.step(bodyRate: rate(t))
            filter.update(s)
            let e = filter.estimate
            guard t > settle, let h = e.headingDegrees, let truth = trueHeading(s.truth) else { previous = nil; continue }
            worst = max(worst, angleError(h, truth))
            if let p = previous { jump = max(jump, angleError(h, p)) }
            previous = h
        }
        return (worst, jump, filter.estimate)
    }

    @Test(arguments: [0.0, 75, 160, 250, 340])
    func upsideDownHeadingIsRight(heading: Double) {
        let r = run(start: Quaternion(rollDegrees: 180, pitchDegrees: 0, headingDegrees: heading), seconds: 30, seed: 31) { _ in .zero }
        #expect(r.worst < 1.5, "worst error \(r.worst)° upside down at \(heading)°")
        #expect(abs(abs(r.last.rollDegrees) - 180) < 1)
    }

    @Test func upsideDownWhileTurning() {
        // Body z points up: a positive body-z rate turns the heading anticlockwise seen from above.
        let r = run(start: Quaternion(rollDegrees: 180, pitchDegrees: 10, headingDegrees: 30), seconds: 60, settle: 10, seed: 32) { t in
            t < 10 ? .zero : Vector3(0, 0, 20 * sin(0.3 * t))
        }
        #expect(r.worst < 3, "worst error \(r.worst)°")
        let rate = r.last.rateOfTurnDegreesPerSecond ?? .nan
        #expect(rate * sin(0.3 * 59.99) <= 0 || abs(rate) < 1, "rate of turn \(rate)")
    }

    @Test(arguments: [85.0, -85])
    func steepPitchKeepsHeading(pitch: Double) {
        // At 85° a tilt error of 0.1° already turns the projected nose by 1.1°.
        let r = run(start: Quaternion(rollDegrees: 0, pitchDegrees: pitch, headingDegrees: 120), seconds: 40, settle: 20, seed: 33) { _ in .zero }
        #expect(r.worst < 2, "worst error \(r.worst)° at pitch \(pitch)°")
        #expect(r.worst < r.last.accuracyDegrees)
        #expect(abs(r.last.pitchDegrees - pitch) < 1)
    }

    @Test func rollingThroughUpsideDownHasNoHeadingJump() {
        // A full barrel roll at 30 °/s with the nose 10° up, heading 45°.
        let r = run(start: Quaternion(rollDegrees: 0, pitchDegrees: 10, headingDegrees: 45), seconds: 40, seed: 34) { t in
            t > 10 ? Vector3(30, 0, 0) : .zero
        }
        #expect(r.worst < 3, "worst error \(r.worst)° in a barrel roll")
        #expect(r.jump < 1, "heading stepped \(r.jump)° between samples")
    }

    @Test func pitchingUpToEightyFiveAndBackIsSmooth() {
        let r = run(start: Quaternion(rollDegrees: 0, pitchDegrees: 0, headingDegrees: 200), seconds: 40, seed: 35) { t in
            t > 10 && t < 27 ? Vector3(0, 10 * sin((t - 10) * .pi / 8.5), 0) : .zero
        }
        #expect(r.worst < 3, "worst error \(r.worst)° pitching to 85°")
    }

    @Test func headingIsUnavailableOnlyNearVertical() {
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 0, pitchDegrees: 89.5, headingDegrees: 10), seed: 36)
        var filter = AttitudeFilter()
        for _ in 0..<500 { filter.update(motion.step(bodyRate: .zero)) }
        #expect(filter.estimate.headingDegrees == nil)
        #expect(filter.estimate.quaternion.isFinite)
    }

    @Test func rateOfTurnIsPositiveTurningToStarboard() {
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 5, pitchDegrees: -5, headingDegrees: 0), seed: 37)
        var filter = AttitudeFilter()
        for i in 0..<1000 { filter.update(motion.step(bodyRate: i > 500 ? Vector3(0, 0, 15) : .zero)) }
        let rate = filter.estimate.rateOfTurnDegreesPerSecond ?? .nan
        #expect(abs(rate - 15) < 1, "rate of turn \(rate)")
    }
}
