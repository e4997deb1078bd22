import Foundation
import Heading
import Linear
import Testing

@Suite struct CircularSmootherTests {
    @Test func crossesNorthTheShortWay() {
        for adaptive in [false, true] {
            var s = CircularSmoother(timeConstant: 0.5, adaptive: adaptive)
            _ = s.update(350, dt: 0, noiseDegrees: 0.5)
            var previous = 350.0
            for _ in 0..<200 {
                let h = s.update(10, dt: 0.02, noiseDegrees: 0.5)
                let step = angleDifference(h, previous)
                #expect(step >= 0 && step <= 20, "moved \(step) at \(h)")
                #expect(h < 10.0001 || h > 349.9999)
                previous = h
            }
            #expect(abs(angleDifference(previous, 10)) < 0.01)
        }
    }

    @Test func timeConstantMeansTheSameAtAnyRate() {
        // Non-adaptive: after τ seconds a step is 1 − 1/e done, whatever the sample rate.
        for rate in [10.0, 50, 1000] {
            var s = CircularSmoother(timeConstant: 0.5, adaptive: false)
            _ = s.update(0, dt: 0, noiseDegrees: 0)
            var h = 0.0
            for _ in 0..<Int(0.5 * rate) { h = s.update(90, dt: 1 / rate, noiseDegrees: 0) }
            #expect(abs(h - 90 * (1 - exp(-1))) < 1e-6, "rate \(rate): \(h)")
        }
    }

    @Test func irregularTimestampsMatchTheRegularResponse() {
        var rng = SplitMix64(seed: 11)
        var s = CircularSmoother(timeConstant: 0.5, adaptive: false)
        _ = s.update(0, dt: 0, noiseDegrees: 0)
        var t = 0.0, h = 0.0
        while t < 0.5 {
            let dt = min(0.5 - t, 0.001 + rng.nextUnit() * 0.09)
            h = s.update(90, dt: dt, noiseDegrees: 0)
            t += dt
        }
        #expect(abs(h - 90 * (1 - exp(-1))) < 1e-6)
    }

    @Test func neverOvershootsAStep() {
        for adaptive in [false, true] {
            for step in [5.0, 45, 90, 179, -90, -170] {
                for rate in [10.0, 50, 1000] {
                    var s = CircularSmoother(timeConstant: 0.5, adaptive: adaptive)
                    _ = s.update(100, dt: 0, noiseDegrees: 0.46)
                    let target = 100 + step
                    var previous = 100.0
                    for _ in 0..<Int(3 * rate) {
                        let h = s.update(target, dt: 1 / rate, noiseDegrees: 0.46)
                        let remaining = angleDifference(target, h), moved = angleDifference(h, previous)
                        #expect(remaining * step >= -1e-9, "overshoot \(remaining) step \(step) rate \(rate)")
                        #expect(moved * step >= -1e-9, "moved backwards")
                        previous = h
                    }
                }
            }
        }
    }

    @Test func ignoresBadInputAndNonPositiveDt() {
        var s = CircularSmoother(timeConstant: 0.5)
        #expect(s.update(.nan, dt: 0.02, noiseDegrees: 0.5) == 0)  // nothing yet: 0, no NaN
        #expect(s.value == nil)
        _ = s.update(45, dt: 0, noiseDegrees: 0.5)
        #expect(s.update(.infinity, dt: 0.02, noiseDegrees: 0.5) == 45)
        #expect(s.update(90, dt: 0, noiseDegrees: 0.5) == 45)
        #expect(s.update(90, dt: -1, noiseDegrees: 0.5) == 45)
        #expect(s.update(90, dt: 0.02, noiseDegrees: .nan).isFinite)
        #expect(s.update(-720.5, dt: 0.02, noiseDegrees: 0.5) >= 0)
    }

    @Test func adaptiveIsFastWhenTurningAndSlowWhenStill() {
        var s = CircularSmoother(timeConstant: 0.5)
        _ = s.update(0, dt: 0, noiseDegrees: 0.46)
        for i in 1...50 { _ = s.update(Double(i) * 1.8, dt: 0.02, noiseDegrees: 0.46) }  // 90°/s
        #expect(s.isTurning)
        #expect(s.timeConstantUsed < 0.1)
        #expect(s.turnRate > 60 && s.turnRate < 100)
        for _ in 0..<100 { _ = s.update(90, dt: 0.02, noiseDegrees: 0.46) }
        #expect(!s.isTurning)
        #expect(s.timeConstantUsed > 0.45)
    }
}
