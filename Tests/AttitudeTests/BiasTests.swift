import Attitude
import Foundation
import Linear
import Testing

/// Gyro bias: learned at rest, and in motion, so a 0.5 °/s bias does not become drift.
@Suite struct BiasTests {
    @Test func biasIsLearnedAtRestAndHeadingHolds() {
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 5, pitchDegrees: -3, headingDegrees: 70), seed: 11)
        motion.gyroBias = Vector3(0.5, -0.3, 0.5)
        var filter = AttitudeFilter()
        var headingAt20: Double?
        var worst = 0.0
        for i in 0..<6000 {
            filter.update(motion.step(bodyRate: .zero))
            let e = filter.estimate
            if i == 2000 { headingAt20 = e.headingDegrees }
            if i > 2000, let h = e.headingDegrees, let h20 = headingAt20 { worst = max(worst, angleError(h, h20)) }
        }
        let bias = filter.estimate.gyroBias
        #expect((bias - motion.gyroBias).norm < 0.03, "bias \(bias)")
        #expect(filter.estimate.flags.contains(.atRest))
        #expect(worst < 0.5, "heading moved \(worst)° after the bias was learned")
        #expect(angleError(filter.estimate.headingDegrees ?? .nan, 70) < 1)
    }

    @Test func biasIsLearnedWhileTurningWithoutRest() {
        // A slow, never-ending turn with a gentle wobble: no rest to learn from.
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 0, pitchDegrees: 0, headingDegrees: 10), seed: 12)
        motion.gyroBias = Vector3(0.2, -0.2, 0.5)
        var filter = AttitudeFilter()
        var errors: [Double] = []
        for i in 0..<60000 {
            let t = Double(i) / 100
            let rate = Vector3(3 * sin(0.5 * t), 3 * cos(0.37 * t), 10)
            let s = motion.step(bodyRate: rate)
            filter.update(s)
            if i >= 54000, let h = filter.estimate.headingDegrees, let truth = trueHeading(s.truth) {
                errors.append(angleError(h, truth))
            }
        }
        let bias = filter.estimate.gyroBias
        #expect(abs(bias.z - 0.5) < 0.1, "bias \(bias)")
        // Without bias estimation the heading would lag by 0.5 °/s × 15 s = 7.5°.
        #expect(rms(errors) < 2, "heading RMSE \(rms(errors))° in the last minute")
    }

    @Test("a steady slow turn about the vertical is not rest: its rate is not learned as a bias")
    func aSlowSteadyTurnIsNotRest() {
        // A ship or a boat turning at 0.5–1.9 °/s: gravity stays put in the body and the gyro reads
        // as steady as a bias; only the field shows the turn (0.75–2.9° within a rest's 1.5 s, where
        // the averaged field's reading noise is 0.08°).
        for rate in [0.5, 1.0, 1.9] {
            var motion = SyntheticMotion(seed: 27)
            var filter = AttitudeFilter()
            var worst = 0.0, rested = 0
            for i in 0..<20000 {
                let s = motion.step(bodyRate: Vector3(0, 0, rate))
                filter.update(s)
                if filter.estimate.flags.contains(.atRest) { rested += 1 }
                if i >= 1000, let h = filter.estimate.headingDegrees, let truth = trueHeading(s.truth) {
                    worst = max(worst, angleError(h, truth))
                }
            }
            #expect(rested == 0, "\(rate) °/s: at rest for \(rested) samples")
            #expect(abs(filter.estimate.gyroBias.z) < 0.05, "\(rate) °/s: bias \(filter.estimate.gyroBias)")
            #expect(worst < 1, "\(rate) °/s: heading off by up to \(worst)°")
        }
    }
}
