import Foundation
import Heading
import Linear
import Testing

@Suite struct FilterBehaviourTests {
    func sample(_ t: Double, yaw: Double, roll: Double = 0, accel: Bool = true) -> CalibratedSample {
        let (m, a) = bodyReadings(yaw: yaw, roll: roll)
        return CalibratedSample(monotonic: t, wall: 1_750_000_000 + t, magnetic: m, acceleration: accel ? a : nil)
    }

    @Test func rejectsNonFiniteSamplesWithoutChangingState() throws {
        var f = HeadingFilter()
        _ = f.update(sample: sample(0, yaw: 30))
        let bad = [
            CalibratedSample(monotonic: .nan, wall: 0, magnetic: Vector3(20, 0, -40)),
            CalibratedSample(monotonic: 0.02, wall: .infinity, magnetic: Vector3(20, 0, -40)),
            CalibratedSample(monotonic: 0.02, wall: 0, magnetic: Vector3(.nan, 0, -40)),
            CalibratedSample(monotonic: 0.02, wall: 0, magnetic: Vector3(1e300, 1e300, 0)),
        ]
        for s in bad { #expect(f.update(sample: s) == nil) }
        let next = f.update(sample: sample(0.02, yaw: 30))
        let e = try #require(next)
        #expect(!e.flags.contains(.restarted))
        #expect(abs(e.magneticHeading - 30) < 1e-6)
    }

    @Test func aGapOrABackwardsClockRestartsWithoutSweeping() throws {
        var f = HeadingFilter()
        var quiet = SampleGenerator(seed: 0)
        quiet.magneticNoise = 0; quiet.accelerationNoise = 0
        _ = run(&f, generator: &quiet, rate: 50, duration: 2) { _ in 10 }
        // After a 5 s gap the heading is 200°: taken as it is, no sweep from 10°.
        let afterGap = try step(&f, sample(7, yaw: 200))
        #expect(afterGap.flags.contains(.restarted))
        #expect(abs(afterGap.magneticHeading - 200) < 1e-6)
        let backwards = try step(&f, sample(6, yaw: 100))
        #expect(backwards.flags.contains(.restarted) && abs(backwards.magneticHeading - 100) < 1e-6)
        // A duplicate timestamp does not move the smoothed heading.
        let duplicate = try step(&f, sample(6, yaw: 140))
        #expect(abs(duplicate.magneticHeading - 100) < 1e-6 && abs(duplicate.rawMagneticHeading - 140) < 1e-6)
    }

    @Test func irregularTimestampsGiveTheSameStaticResult() throws {
        var rng = SplitMix64(seed: 99)
        var f = HeadingFilter()
        var g = SampleGenerator(seed: 12)
        var t = 0.0
        var headings: [Double] = []
        while t < 30 {
            t += 0.001 + rng.nextUnit() * 0.099   // 10 Hz … 1 kHz, jittered
            let e = try step(&f, g.sample(time: t, yaw: 359.9))
            #expect(estimateIsFinite(e))
            if t > 5 { headings.append(e.magneticHeading) }
        }
        #expect(headingJitter(headings) < 0.2)  // ≈ 20 Hz on average: a little above the 50 Hz figure
        #expect(headings.allSatisfy { abs(angleDifference($0, 359.9)) < 0.6 })
    }

    @Test func levelOnlyWithoutAccelerometer() throws {
        var f = HeadingFilter()
        let e = try step(&f, sample(0, yaw: 75, accel: false))
        #expect(e.flags.contains(.levelOnly))
        #expect(e.roll == nil && e.pitch == nil && e.inclination == nil)
        #expect(abs(e.magneticHeading - 75) < 1e-9)
        var g = HeadingFilter()
        let tilted = try step(&g, sample(0, yaw: 75))
        #expect(!tilted.flags.contains(.levelOnly))
        #expect(tilted.accuracy < e.accuracy)
        #expect(try #require(tilted.inclination).isApproximatelyEqual(to: -64, absoluteTolerance: 1e-6))
        #expect(tilted.roll == 0 && tilted.pitch == 0)
    }

    @Test func aKnockHoldsTheTiltAndIsFlagged() throws {
        var f = HeadingFilter()
        for i in 0..<100 { _ = f.update(sample: sample(Double(i) * 0.02, yaw: 20, roll: 10)) }
        let (m, a) = bodyReadings(yaw: 20, roll: 10)
        let e = try step(&f, CalibratedSample(monotonic: 2, wall: 0, magnetic: m,
                                                                acceleration: a + Vector3(4, 0, 0)))
        #expect(e.flags.contains(.tiltHeld))
        #expect(abs(try #require(e.roll) - 10) < 0.01)
        #expect(abs(angleDifference(e.rawMagneticHeading, 20)) < 1e-6)
    }

    @Test("a sustained linear acceleration leans the tilt (no gyro can tell), and the accuracy says so")
    func linearAccelerationWidensTheAccuracy() throws {
        var f = HeadingFilter()
        var calm: HeadingEstimate?
        for i in 0..<100 { calm = f.update(sample: sample(Double(i) * 0.02, yaw: 20, roll: 10)) }
        let before = try #require(calm).accuracy
        let (m, a) = bodyReadings(yaw: 20, roll: 10)
        var worst = 0.0, narrowest = Double.infinity
        for i in 0..<50 {
            let e = try step(&f, CalibratedSample(monotonic: 2 + Double(i) * 0.02, wall: 0, magnetic: m,
                                                  acceleration: a + Vector3(0.5, 0, 0)))
            #expect(!e.flags.contains(.tiltHeld))
            let error = abs(angleDifference(e.magneticHeading, 20))
            worst = max(worst, error / e.accuracy)
            narrowest = min(narrowest, e.accuracy)
        }
        // |a| = 1.12 g says the acceleration is at least 0.12 g and, were it all sideways, 0.5 g: the
        // accuracy widens from the first sample (a typical lean, not the worst case, so that a
        // boat's heave does not read as a useless compass), and the error stays within twice it.
        #expect(narrowest >= 3 * before, "accuracy \(narrowest)° against \(before)° when calm")
        #expect(worst <= 2, "the error reached \(worst)× the claimed accuracy")
    }

    @Test func weakFieldHoldsTheHeadingAndSaysSo() throws {
        var f = HeadingFilter()
        _ = f.update(sample: sample(0, yaw: 120))
        let e = try step(&f, CalibratedSample(monotonic: 0.02, wall: 0, magnetic: Vector3(0.1, 0.1, -40),
                                                                acceleration: Vector3(0, 0, -1)))
        #expect(e.flags.isSuperset(of: [.weakField, .caution]))
        #expect(!e.isAccuracyAvailable && e.accuracy == AccuracyModel.unavailable)
        #expect(abs(e.magneticHeading - 120) < 1e-6)
        let zero = try #require(HeadingFilter().updated(with: CalibratedSample(monotonic: 0, wall: 0, magnetic: .zero)) as HeadingEstimate?)
        #expect(estimateIsFinite(zero) && zero.accuracy == AccuracyModel.unavailable)
    }

    @Test func saturationIsPassedOn() throws {
        var f = HeadingFilter()
        var s = sample(0, yaw: 10)
        s.saturated = true
        let e = try step(&f, s)
        #expect(e.flags.isSuperset(of: [.saturated, .caution]) && !e.isAccuracyAvailable)
    }

    @Test func turningIsFlaggedAndTurnRateMeasured() throws {
        var f = HeadingFilter()
        var g = SampleGenerator(seed: 2)
        let out = run(&f, generator: &g, rate: 100, duration: 3) { t in 40 * max(0, t - 1) }
        let turning = out.last!.estimate
        #expect(turning.flags.contains(.turning))
        #expect(abs(turning.turnRate - 40) < 5)
        let still = run(&f, generator: &g, rate: 100, from: 3, duration: 2) { _ in 80 }.last!.estimate
        #expect(!still.flags.contains(.turning) && abs(still.turnRate) < 2)
    }

    @Test func garbageNeverProducesNaN() {
        var rng = SplitMix64(seed: 1234)
        var f = HeadingFilter()
        let specials: [Double] = [0, -0.0, 1e-300, -1e-300, 1e300, -1e300, .nan, .infinity, -.infinity, 1, -1]
        func value() -> Double {
            rng.nextUnit() < 0.2 ? specials[Int(rng.nextUnit() * Double(specials.count))] : rng.nextGaussian() * 100
        }
        var t = 0.0
        for _ in 0..<20_000 {
            t += rng.nextUnit() < 0.05 ? value() : 0.01
            let accel = rng.nextUnit() < 0.3 ? nil : Vector3(value(), value(), value())
            let s = CalibratedSample(monotonic: t, wall: value(), magnetic: Vector3(value(), value(), value()),
                                     acceleration: accel, saturated: rng.nextUnit() < 0.01)
            if let e = f.update(sample: s) {
                #expect(estimateIsFinite(e), "\(e)")
            }
            if !t.isFinite { t = 0 }
        }
    }
}

/// One update that must be accepted.
func step(_ f: inout HeadingFilter, _ s: CalibratedSample) throws -> HeadingEstimate {
    let e = f.update(sample: s)
    return try #require(e)
}

extension HeadingFilter {
    /// Test helper: one update on a fresh copy.
    func updated(with s: CalibratedSample) -> HeadingEstimate? {
        var copy = self
        return copy.update(sample: s)
    }
}
