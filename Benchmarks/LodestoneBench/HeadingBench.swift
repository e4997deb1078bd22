import Glibc
import Heading
import Linear

// Heading stage benchmarks: the per-sample cost of `HeadingFilter.update(sample:)` and the goal
// figures (static jitter, step and turn settling, wrap glitches in a spin, tilted accuracy), all on
// synthetic samples with QMC5883L-class noise at Sydney (H = 25 µT, inclination −64°).

private let benchField = Vector3(25, 0, -25 * tan(64 * Double.pi / 180))

/// Noisy body-frame samples for an attitude (degrees): field = Rᵀ · field_NED, accel = Rᵀ · (0, 0, −1).
private struct BenchSamples {
    var rng: SplitMix64
    var magneticNoise = 0.2, accelerationNoise = 0.003
    var accelerometer = true

    mutating func sample(_ t: Double, yaw: Double, roll: Double = 0, pitch: Double = 0) -> CalibratedSample {
        let r = Matrix3.rotation(roll: radians(roll), pitch: radians(pitch), yaw: radians(yaw)).transposed
        func noise(_ s: Double) -> Vector3 { Vector3(rng.nextGaussian() * s, rng.nextGaussian() * s, rng.nextGaussian() * s) }
        let m = r * benchField + noise(magneticNoise)
        let a = r * Vector3(0, 0, -1) + noise(accelerationNoise)
        return CalibratedSample(monotonic: t, wall: 1_750_000_000 + t, magnetic: m, acceleration: accelerometer ? a : nil)
    }
}

private func jitter(_ headings: [Double]) -> Double {
    let mean = headings.reduce(0) { $0 + angleDifference($1, headings[0]) } / Double(headings.count)
    let d = headings.map { angleDifference($0, headings[0]) - mean }
    return (d.reduce(0) { $0 + $1 * $1 } / Double(d.count)).squareRoot()
}

/// Worst settling time (s, to within 1°) and worst overshoot (degrees, noisy) over seeds and rates for
/// a 90° change ending at t = 2 s: a step (turnSeconds 0) or a turn.
private func settle(turnSeconds: Double) -> (seconds: Double, overshoot: Double) {
    var worst = 0.0, overshoot = 0.0
    for rate in [10.0, 50, 100, 1000] {
        for seed in UInt64(1)...8 {
            var f = HeadingFilter()
            var g = BenchSamples(rng: SplitMix64(seed: seed))
            let start = 2 - turnSeconds
            var lastOutside = 2.0
            for i in 0..<Int(4 * rate) {
                let t = Double(i) / rate
                let yaw = turnSeconds == 0 ? (t < 2 ? 10 : 100) : 10 + 90 * min(max((t - start) / turnSeconds, 0), 1)
                guard let e = f.update(sample: g.sample(t, yaw: yaw)) else { continue }
                let remaining = angleDifference(100, e.magneticHeading)
                if t >= 2 && abs(remaining) > 1 { lastOutside = t }
                if t >= 2 { overshoot = max(overshoot, -remaining) }
            }
            worst = max(worst, lastOutside - 2)
        }
    }
    return (worst, overshoot)
}

func runHeadingBenchmarks() {
    // Cost per sample, with and without accelerometer (precomputed samples, 50 Hz timestamps).
    for accelerometer in [true, false] {
        var g = BenchSamples(rng: SplitMix64(seed: 1))
        g.accelerometer = accelerometer
        let samples = (0..<4096).map { i in g.sample(Double(i) / 50, yaw: Double(i % 360)) }
        var filter = HeadingFilter()
        var clock = 0.0
        bench(accelerometer ? "heading.filter_update" : "heading.filter_update_level_only", iterations: 1_000_000,
              extra: [("goal_ns", "300")]) { n in
            var sum = 0.0
            for i in 0..<n {
                var s = samples[i & 4095]
                clock += 0.02
                s.monotonic = clock
                if let e = filter.update(sample: s) { sum += e.magneticHeading }
            }
            blackHole(sum)
        }
    }

    // Static jitter at 50 Hz, default smoothing.
    for accelerometer in [false, true] {
        var worst = 0.0
        for heading in [0.0, 45, 137, 270] {
            var f = HeadingFilter()
            var g = BenchSamples(rng: SplitMix64(seed: 42 + UInt64(heading)))
            g.accelerometer = accelerometer
            var out: [Double] = []
            for i in 0..<1500 {
                let t = Double(i) / 50
                if let e = f.update(sample: g.sample(t, yaw: heading)), t >= 5 { out.append(e.magneticHeading) }
            }
            worst = max(worst, jitter(out))
        }
        reportFigure(accelerometer ? "heading.static_jitter" : "heading.static_jitter_level_only",
                     extra: [("jitter_deg", jsonNumber(worst, 4)), ("goal_deg", "0.1"), ("ok", worst <= 0.1 ? "true" : "false")])
    }

    let step = settle(turnSeconds: 0), turn = settle(turnSeconds: 1)
    reportFigure("heading.step90_settle", extra: [("settle_s", jsonNumber(step.seconds, 3)), ("noisy_overshoot_deg", jsonNumber(step.overshoot, 3)),
                                                  ("goal_s", "0.5"), ("ok", step.seconds <= 0.5 ? "true" : "false")])
    reportFigure("heading.turn90_settle", extra: [("settle_s", jsonNumber(turn.seconds, 3)), ("noisy_overshoot_deg", jsonNumber(turn.overshoot, 3)),
                                                  ("goal_s", "0.5"), ("ok", turn.seconds <= 0.5 ? "true" : "false")])

    // Ten turns at 360°/s sampled at 1 kHz, noiseless: every step forward, none larger than expected.
    do {
        var f = HeadingFilter()
        var g = BenchSamples(rng: SplitMix64(seed: 9))
        g.magneticNoise = 0; g.accelerationNoise = 0
        var previous: Double?
        var glitches = 0
        for i in 0..<11_000 {
            let t = Double(i) / 1000
            guard let e = f.update(sample: g.sample(t, yaw: (10 + 360 * min(t, 10)).truncatingRemainder(dividingBy: 360))) else { continue }
            if let p = previous {
                let d = angleDifference(e.magneticHeading, p)
                if d < -1e-12 || d > 2 { glitches += 1 }
            }
            previous = e.magneticHeading
        }
        reportFigure("heading.spin_wrap_glitches", extra: [("glitches", "\(glitches)"), ("goal", "0"), ("ok", glitches == 0 ? "true" : "false")])
    }

    // Tilted ±25°, noisy, 12 headings × 6 tilts: worst error once settled.
    do {
        var f = HeadingFilter()
        var g = BenchSamples(rng: SplitMix64(seed: 21))
        var worst = 0.0, t = 0.0
        for heading in stride(from: 0.0, to: 360, by: 30) {
            for (roll, pitch) in [(25.0, 25.0), (-25, 25), (25, -25), (-25, -25), (25, 0), (0, -25)] {
                for i in 0..<200 {
                    if let e = f.update(sample: g.sample(t, yaw: heading, roll: roll, pitch: pitch)), i >= 125 {
                        worst = max(worst, abs(angleDifference(e.magneticHeading, heading)))
                    }
                    t += 0.02
                }
            }
        }
        reportFigure("heading.tilted_error", extra: [("max_error_deg", jsonNumber(worst, 3)), ("goal_deg", "0.5"), ("ok", worst <= 0.5 ? "true" : "false")])
    }
}
