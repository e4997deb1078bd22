import Attitude
import Foundation
import Linear
import Testing

/// How far each reference is trusted follows from what the sensors show: gravity levels a still body
/// at once but not a steadily pushed one, its time constant shortens in fast turns with little
/// acceleration, a fast turn's timing spread does not reject a good field, and the accuracy model
/// reads the magnetometer's noise and the gyro's scale error from the innovations and corrections,
/// and the tilt error the heading takes in from the field's dip.
@Suite struct TrustTests {
    /// The tilt error (degrees) between an estimate and the truth.
    static func tiltError(_ e: AttitudeEstimate, _ truth: Quaternion) -> Double {
        let down = e.quaternion.inverseRotate(Vector3(0, 0, 1)), trueDown = truth.inverseRotate(Vector3(0, 0, 1))
        return degrees(atan2(down.cross(trueDown).norm, down.dot(trueDown)))
    }

    /// Still for 10 s, rolled 60° in one second with a gyro whose scale is 3 % off (so the strapdown
    /// frame ends up 1.8° off), then still: the tilt error `seconds` after the body stopped.
    static func tiltAfterRoll(settings: AttitudeSettings, seconds: Double) -> (stopped: Double, still: Double) {
        var motion = SyntheticMotion(seed: 21)
        motion.gyroNoise = 0.02
        var filter = AttitudeFilter(settings: settings)
        var stopped = 0.0, still = 0.0
        for i in 0..<Int((11 + seconds) * 100) {
            let t = Double(i) / 100
            var s = motion.step(bodyRate: Vector3(t >= 10 && t < 11 ? 60 : 0, 0, 0))
            s.gyro = Vector3(s.gyro.x * 1.03, s.gyro.y, s.gyro.z)   // 3 % scale error about x
            filter.update(s)
            if i == 1100 { stopped = tiltError(filter.estimate, s.truth) }
            still = tiltError(filter.estimate, s.truth)
        }
        return (stopped, still)
    }

    @Test("at rest gravity levels the tilt a motion left wrong within seconds, not over its time constant")
    func restLevelsTheTilt() {
        // Rest is declared once the short averages have settled and held for `restMinimumDuration`
        // (about 4.5 s after the stop here); 7 s after it:
        let quick = Self.tiltAfterRoll(settings: AttitudeSettings(), seconds: 7)
        var slow = AttitudeSettings()
        slow.restAccelerationTimeConstant = slow.accelerationTimeConstant
        let slowly = Self.tiltAfterRoll(settings: slow, seconds: 7)
        #expect(quick.stopped > 1, "the roll left the tilt \(quick.stopped)° off")
        #expect(quick.still < 0.05, "tilt error 7 s after stopping: \(quick.still)°")
        #expect(quick.still < slowly.still / 3, "\(quick.still)° against \(slowly.still)° levelled at the moving rate")
    }

    @Test("a steady push without rotation is not taken for rest's gravity; the cruise after it is")
    func aPushIsNotRest() {
        // Level and still for 20 s, then 0.3 g east for 8 s (steady after the first moment: the gyro
        // and accelerometer hold still, as at rest), then cruising at constant speed for 12 s.
        var motion = SyntheticMotion(orientation: Quaternion(rollDegrees: 0, pitchDegrees: 0, headingDegrees: 90), seed: 22)
        var filter = AttitudeFilter()
        var worstPushing = 0.0, atEnd = 0.0
        for i in 0..<4000 {
            let t = Double(i) / 100
            let pushing = t >= 20 && t < 28
            let s = motion.step(bodyRate: .zero, acceleration: pushing ? Vector3(0, 0.3, 0) : .zero)
            filter.update(s)
            let error = Self.tiltError(filter.estimate, s.truth)
            if pushing { worstPushing = max(worstPushing, error) }
            atEnd = error
        }
        // Levelling to the pushed specific force would tilt it by 16.7°; rejection holds it to a few.
        #expect(worstPushing < 5, "tilt error while pushed: \(worstPushing)°")
        // Once cruising, |f| is back to the 1 g the first rest measured: levelled again quickly.
        #expect(atEnd < 0.5, "tilt error 12 s into the cruise: \(atEnd)°")
    }

    /// A tumble about a horizontal axis at 150 °/s with a 1 % scale error and no acceleration: the
    /// RMS tilt error after the first 20 s.
    static func tumbleTilt(_ settings: AttitudeSettings) -> Double {
        var motion = SyntheticMotion(seed: 23)
        var filter = AttitudeFilter(settings: settings)
        var squares = 0.0, count = 0
        for i in 0..<6000 {
            let t = Double(i) / 100
            let rate = t > 10 ? 150.0 * (sin(2 * .pi * t / 7) > 0 ? 1 : 0.3) : 0
            var s = motion.step(bodyRate: Vector3(rate, 0.2 * rate, 0))
            s.gyro = s.gyro * 1.01
            filter.update(s)
            if t > 20 { squares += pow(Self.tiltError(filter.estimate, s.truth), 2); count += 1 }
        }
        return (squares / Double(count)).squareRoot()
    }

    @Test("in fast turns with little acceleration, gravity is trusted more: the tilt drifts less")
    func gravityTimeConstantFollowsTheDrift() {
        var fixed = AttitudeSettings()
        fixed.accelerationMinimumTimeConstant = fixed.accelerationTimeConstant
        let adaptive = Self.tumbleTilt(AttitudeSettings()), steady = Self.tumbleTilt(fixed)
        #expect(adaptive < 0.7 * steady, "RMS tilt error \(adaptive)° against \(steady)° at a fixed 5 s")
    }

    @Test("a fast turn with a magnetometer sample a few ms off the gyro's is not a disturbance")
    func timingSpreadIsNotADisturbance() {
        var motion = SyntheticMotion(seed: 24)
        var filter = AttitudeFilter()
        var delayed: [SyntheticMotion.Sample] = []
        var flagged = 0, turning = 0
        for i in 0..<6000 {
            let t = Double(i) / 100
            // Still for 20 s (the field's scatter is learned narrow), then turning at ±300 °/s.
            let rate = t > 20 ? 300.0 * sin(2 * .pi * t / 3) : 0
            let s = motion.step(bodyRate: Vector3(0, 0, rate))
            delayed.append(s)
            // The field as it was one sample (10 ms) earlier: a magnetometer on its own clock.
            var late = s
            late.magnetometer = delayed[max(0, delayed.count - 2)].magnetometer
            filter.update(late)
            if t > 25 {
                turning += 1
                if filter.estimate.flags.contains(.magneticDisturbance) { flagged += 1 }
            }
        }
        #expect(Double(flagged) / Double(turning) < 0.05, "\(flagged) of \(turning) samples flagged disturbed")
    }

    @Test("the accuracy model reads the magnetometer's white noise from the innovations")
    func whiteNoiseIsMeasured() {
        for noise in [0.2, 1.0] {
            var motion = SyntheticMotion(seed: 25)
            motion.magneticNoise = noise
            var filter = AttitudeFilter()
            for i in 0..<6000 {
                let t = Double(i) / 100
                filter.update(motion.step(bodyRate: Vector3(0, 0, t > 5 ? 20 * sin(t) : 0)))
            }
            // The field's noise across its 20 µT horizontal component, as heading (degrees²); the
            // datasheet figure (0.3 µT) is the floor.
            let expected = pow(degrees(max(noise, filter.settings.magnetometerNoise) / 20), 2)
            let measured = filter.accuracyModel.whiteNoise
            #expect(abs(measured - expected) < 0.3 * expected, "noise \(noise) µT: \(measured) deg² against \(expected)")
        }
    }

    @Test("turning, a gyro whose scale is right is told from one that is 2 % off by the corrections")
    func scaleErrorIsBoundedByTheCorrections() {
        func scale(_ factor: Double) -> Double {
            var motion = SyntheticMotion(seed: 26)
            var filter = AttitudeFilter()
            for i in 0..<12000 {
                let t = Double(i) / 100
                var s = motion.step(bodyRate: Vector3(0, 0, t > 10 ? 40 : 0))
                s.gyro = Vector3(s.gyro.x, s.gyro.y, s.gyro.z * factor)
                filter.update(s)
            }
            return filter.accuracyModel.headingScale
        }
        let right = scale(1), off = scale(1.02)
        let prior = AttitudeSettings().gyroScaleUncertainty
        #expect(right < 0.5 * prior, "a right scale bounded at \(right)")
        #expect(off >= prior * 0.99, "a scale 2 % off bounded at \(off): the datasheet's \(prior) stands")
    }

    /// Turning (4 °/s) for 200 s with an accelerometer `misalignment` degrees about body x
    /// from the magnetometer: the accuracy model's measured tilt stray (degrees), and over the last
    /// 100 s the heading error's RMS, the stated accuracy's median and the share of samples it covers.
    static func turningWithMisalignment(_ misalignment: Double) -> (stray: Double, rms: Double, median: Double, covered: Double) {
        var motion = SyntheticMotion(seed: 27)
        var filter = AttitudeFilter()
        let tilt = Quaternion(rotationVector: Vector3(radians(misalignment), 0, 0))
        var squares = 0.0, accuracies: [Double] = [], covered = 0
        for i in 0..<20000 {
            var s = motion.step(bodyRate: Vector3(0, 0, 4))
            s.accelerometer = tilt.rotate(s.accelerometer)
            filter.update(s)
            guard i >= 10000, let heading = filter.estimate.headingDegrees, let truth = trueHeading(s.truth) else { continue }
            let error = angleError(heading, truth)
            squares += error * error
            accuracies.append(filter.estimate.accuracyDegrees)
            if error <= filter.estimate.accuracyDegrees { covered += 1 }
        }
        accuracies.sort()
        return (filter.accuracyModel.dipStrayMeanSquare.squareRoot(), (squares / Double(accuracies.count)).squareRoot(),
                accuracies[accuracies.count / 2], Double(covered) / Double(accuracies.count))
    }

    @Test("a tilt error the field's dip shows widens the heading's accuracy; a right tilt narrows it below the prior")
    func theDipShowsTheTiltErrorTheHeadingTakesIn() {
        let aligned = Self.turningWithMisalignment(0)
        let skewed = Self.turningWithMisalignment(1.5)
        let prior = AttitudeSettings().tiltNoiseDegrees
        // Aligned: the dip holds still, so the tilt error the heading takes in is measured below
        // the 0.5° prior.
        #expect(aligned.stray < prior, "aligned: stray \(aligned.stray)°")
        // 1.5° off: as the misalignment turns with the body the heading errs by up to
        // tan(dip) × 1.5° ≈ 3° (less, averaged over the heading's 15 s); the dip shows the same tilt
        // a quarter turn later, and the accuracy widens to cover it.
        #expect(skewed.rms > 1, "skewed: heading RMS \(skewed.rms)° (the misalignment should show)")
        #expect(skewed.stray > 2 * aligned.stray, "stray \(skewed.stray)° skewed, \(aligned.stray)° aligned")
        #expect(skewed.median > aligned.median + 1, "accuracy \(skewed.median)° skewed, \(aligned.median)° aligned")
        #expect(skewed.covered >= 0.9, "skewed: covered \(skewed.covered) with a median of \(skewed.median)° for an RMS of \(skewed.rms)°")
    }
}
