import Foundation
import Heading
import Linear
import Testing

/// The project's goals for the heading stage, at default settings.
@Suite struct FilterGoalTests {
    @Test(arguments: [false, true])
    func staticJitterIsAtMostATenthOfADegree(withAccelerometer: Bool) {
        // QMC5883L-class noise: 0.2 µT per axis at 50 Hz; H = 25 µT, inclination −64° (Sydney).
        for heading in [0.0, 45, 137, 270] {
            var filter = HeadingFilter()
            var g = SampleGenerator(seed: 42 + UInt64(heading))
            g.withAccelerometer = withAccelerometer
            let out = run(&filter, generator: &g, rate: 50, duration: 30) { _ in heading }
            let settled = out.filter { $0.time >= 5 }.map(\.estimate.magneticHeading)
            let jitter = headingJitter(settled)
            #expect(jitter <= 0.1, "heading \(heading) accel \(withAccelerometer): jitter \(jitter)°")
            let raw = headingJitter(out.filter { $0.time >= 5 }.map(\.estimate.rawMagneticHeading))
            #expect(raw > 0.3, "the raw heading should show the sensor noise (\(raw)°)")
        }
    }

    /// Runs `seeds` noisy runs of yaw(t) and returns the latest settling time (after `end`, within
    /// `tolerance` of `target`) over all runs, and the overshoot of the ensemble mean (the systematic
    /// overshoot, with the sensor noise averaged out).
    func settling(rate: Double, duration: Double, end: Double, target: Double, direction: Double,
                  seeds: UInt64 = 32, tolerance: Double = 1,
                  yaw: (Double) -> Double) -> (settle: Double, overshoot: Double, noisyOvershoot: Double) {
        var meanError: [Double] = []
        var settle = 0.0, noisyOvershoot = 0.0
        for seed in 1...seeds {
            var filter = HeadingFilter()
            var g = SampleGenerator(seed: seed)
            let out = run(&filter, generator: &g, rate: rate, duration: duration, yaw: yaw)
            if meanError.isEmpty { meanError = Array(repeating: 0, count: out.count) }
            var lastOutside = end
            for (i, (t, e)) in out.enumerated() {
                let remaining = angleDifference(target, e.magneticHeading)
                meanError[i] += remaining / Double(seeds)
                if t >= end - 0.5 { noisyOvershoot = max(noisyOvershoot, -remaining * direction) }
                if t >= end && abs(remaining) > tolerance { lastOutside = t }
            }
            settle = max(settle, lastOutside - end)
        }
        let overshoot = meanError.map { -$0 * direction }.max() ?? 0
        return (settle, overshoot, noisyOvershoot)
    }

    @Test(arguments: [10.0, 50, 100, 1000])
    func stepOf90SettlesWithinHalfASecondWithoutOvershoot(rate: Double) {
        for (from, to) in [(10.0, 100.0), (300, 30), (200, 110)] {
            let direction = angleDifference(to, from) > 0 ? 1.0 : -1.0
            let r = settling(rate: rate, duration: 4, end: 2, target: to, direction: direction) { t in
                t < 2 ? from : to
            }
            #expect(r.settle <= 0.5, "rate \(rate) \(from)→\(to): settled after \(r.settle) s")
            #expect(r.overshoot <= 0.15, "rate \(rate) \(from)→\(to): mean overshoot \(r.overshoot)°")
            #expect(r.noisyOvershoot <= 1.5, "rate \(rate) \(from)→\(to): noisy overshoot \(r.noisyOvershoot)°")
        }
    }

    @Test(arguments: [10.0, 50, 1000])
    func turnAt90PerSecondSettlesWithinHalfASecondWithoutOvershoot(rate: Double) {
        for speed in [90.0, -90, 180, -360] {
            let turnTime = 90 / abs(speed)
            let target = normalize(350 + 90 * (speed > 0 ? 1.0 : -1))
            let r = settling(rate: rate, duration: 2 + turnTime + 2, end: 2 + turnTime, target: target,
                             direction: speed > 0 ? 1 : -1) { t in
                350 + speed * min(max(t - 2, 0), turnTime)
            }
            #expect(r.settle <= 0.5, "rate \(rate) \(speed)°/s: settled after \(r.settle) s")
            #expect(r.overshoot <= 0.15, "rate \(rate) \(speed)°/s: mean overshoot \(r.overshoot)°")
            #expect(r.noisyOvershoot <= 1.5, "rate \(rate) \(speed)°/s: noisy overshoot \(r.noisyOvershoot)°")
        }
    }

    @Test(arguments: [10.0, 50, 1000])
    func noiselessStepAndTurnNeverOvershoot(rate: Double) {
        for turnSeconds in [0.0, 1.0] {
            var filter = HeadingFilter()
            var g = SampleGenerator(seed: 1)
            g.magneticNoise = 0; g.accelerationNoise = 0
            let out = run(&filter, generator: &g, rate: rate, duration: 7) { t in
                turnSeconds == 0 ? (t < 1 ? 300 : 30) : 300 + 90 * min(max(t - 1, 0), 1)
            }
            var previous = out[0].estimate.magneticHeading
            for (_, e) in out {
                #expect(angleDifference(e.magneticHeading, previous) >= -1e-9, "moved backwards")
                #expect(angleDifference(30, e.magneticHeading) >= -1e-9, "overshoot at rate \(rate)")
                previous = e.magneticHeading
            }
            #expect(abs(angleDifference(previous, 30)) < 0.01)
        }
    }

    @Test func tenTurnSpinAt1kHzHasNoWrapGlitch() {
        for (noisy, speed) in [(false, 360.0), (false, -720), (true, 360), (true, -180)] {
            var filter = HeadingFilter()
            var g = SampleGenerator(seed: 9)
            if !noisy { g.magneticNoise = 0; g.accelerationNoise = 0 }
            let seconds = 3600 / abs(speed)
            let out = run(&filter, generator: &g, rate: 1000, duration: seconds + 1) { t in
                normalize(10 + speed * min(t, seconds))
            }
            var unwrapped = out[0].estimate.magneticHeading, previous = unwrapped
            var wrongWay = 0, worstBackStep = 0.0, jumps = 0, maxLag = 0.0
            for (t, e) in out.dropFirst() {
                let step = angleDifference(e.magneticHeading, previous)
                if t <= seconds, step * speed < -1e-12 {
                    wrongWay += 1
                    worstBackStep = max(worstBackStep, abs(step))
                }
                if abs(step) > abs(speed) / 1000 * 3 + 1 { jumps += 1 }
                unwrapped += step
                previous = e.magneticHeading
                maxLag = max(maxLag, abs(unwrapped - (10 + speed * min(t, seconds))))
            }
            if noisy {
                // Sensor noise may nudge a sample back by a hair, never by a visible amount.
                #expect(worstBackStep < 0.05, "speed \(speed): back step \(worstBackStep)°")
            } else {
                #expect(wrongWay == 0, "speed \(speed): \(wrongWay) wrong-way steps")
            }
            #expect(jumps == 0, "noisy \(noisy) speed \(speed): \(jumps) jumps")
            #expect(maxLag < 20, "noisy \(noisy) speed \(speed): lag \(maxLag)° (a wrap slip would be 360°)")
            #expect(abs(unwrapped - (10 + speed * seconds)) < 0.5, "ended \(unwrapped)")
        }
    }

    @Test func tiltedNoisyHeadingsAreWithinHalfADegree() throws {
        var filter = HeadingFilter()
        var g = SampleGenerator(seed: 21)
        var worst = 0.0
        var t = 0.0
        let rate = 50.0
        var previous = (yaw: 0.0, roll: 0.0, pitch: 0.0)
        for heading in stride(from: 0.0, to: 360, by: 30) {
            for (roll, pitch) in [(25.0, 25.0), (-25, 25), (25, -25), (-25, -25), (25, 0), (0, -25)] {
                // Move there over 1 s, hold 3 s, judge the last 1.5 s.
                let start = previous
                for i in 0..<Int(4 * rate) {
                    let f = min(1, Double(i) / rate)
                    let yaw = start.yaw + angleDifference(heading, start.yaw) * f
                    let s = g.sample(time: t, yaw: yaw, roll: start.roll + (roll - start.roll) * f,
                                     pitch: start.pitch + (pitch - start.pitch) * f)
                    let updated = filter.update(sample: s)
                    let e = try #require(updated)
                    if Double(i) / rate >= 2.5 {
                        worst = max(worst, abs(angleDifference(e.magneticHeading, heading)))
                    }
                    t += 1 / rate
                }
                previous = (heading, roll, pitch)
            }
        }
        #expect(worst <= 0.5, "worst tilted error \(worst)°")
    }
}

func normalize(_ a: Double) -> Double {
    let r = a.truncatingRemainder(dividingBy: 360)
    return r < 0 ? r + 360 : r
}
