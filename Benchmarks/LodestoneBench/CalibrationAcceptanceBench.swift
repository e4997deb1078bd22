import Glibc
import Linear
import Calibration
import Platform

/// How calibrations are judged (issue 14): the vehicle fit on a simulated two-circle swing
/// (heading error at ±5° roll and pitch, goal ≤ 1.0°), a tumble covering two thirds of the
/// directions (heading error at ±25°, goal ≤ 0.5°), and the predicted heading error against
/// the actual one over 20 seeds.
func runCalibrationAcceptanceBenchmarks() {
    let earth = Vector3(19.9, 0.6, 45.2)   // µT, NED: 49.4 µT at 66° dip
    let dip = atan2(earth.z, (earth.x * earth.x + earth.y * earth.y).squareRoot()) * 180 / .pi
    let r = Matrix3.rotation(roll: 0.4, pitch: -0.3, yaw: 1.1)
    let softIron = r * Matrix3.diagonal(Vector3(1.15, 0.88, 1.05)) * r.transposed
    let hardIron = Vector3(25, -18, 30)

    // Vehicle: two circles in 120 s at 20 Hz, roll and pitch within ±4°, 0.3 µT and 0.005 g noise.
    var rng = SplitMix64(seed: 14)
    var mags: [Vector3] = [], accels: [Vector3?] = []
    for i in 0..<2400 {
        let t = Double(i) / 20
        let attitude = Matrix3.rotation(roll: 4 * .pi / 180 * sin(2 * .pi * t / 7.3),
                                        pitch: 4 * .pi / 180 * sin(2 * .pi * t / 11.9 + 1), yaw: 4 * .pi * Double(i) / 2400)
        mags.append(softIron * (attitude.transposed * earth) + hardIron + gaussian(&rng) * 0.3)
        accels.append(attitude.transposed * Vector3(0, 0, -1) + gaussian(&rng) * 0.005)
    }
    let vehicle = VehicleCalibration(options: CalibrationOptions(expectedFieldStrength: earth.norm, expectedInclinationDegrees: dip))
    if case let .success(result) = vehicle.solve(magnetic: mags, acceleration: accels) {
        reportFigure("calibration.vehicle_swing", extra: [
            ("heading_error_5deg_tilt", fixed(worstHeadingError(result.fit, softIron, hardIron, earth, tilt: 5), 3)),
            ("heading_error_level", fixed(worstHeadingError(result.fit, softIron, hardIron, earth, tilt: 0), 3)),
            ("predicted_level", fixed(result.headingError.level, 3)),
            ("predicted_10deg_tilt", fixed(result.headingError.tilted, 3)),
            ("goal", "1.0"), ("ok", "true"),
        ])
    } else {
        reportFigure("calibration.vehicle_swing", extra: [("ok", "false")])
    }
    bench("calibration.vehicle_fit", iterations: 3, extra: [("samples", "2400")]) { n in
        for _ in 0..<n { blackHole(vehicle.solve(magnetic: mags, acceleration: accels)) }
    }

    // A tumble whose field directions stay within 109° of +z: about two thirds of the sphere.
    let partial = benchTumble(seconds: 120, seed: 72).filter { ($0.transposed * earth).z / earth.norm >= cos(109 * .pi / 180) }
    var noise = SplitMix64(seed: 73)
    let raw = partial.map { softIron * ($0.transposed * earth) + hardIron + gaussian(&noise) * 0.2 }
    if case let .success(result) = CalibrationSolver().solve(raw) {
        reportFigure("calibration.partial_tumble", extra: [
            ("coverage_percent", fixed(result.metrics.coveragePercent, 1)),
            ("heading_error_25deg_tilt", fixed(worstHeadingError(result.fit, softIron, hardIron, earth, tilt: 25), 3)),
            ("predicted_level", fixed(result.headingError.level, 3)),
            ("predicted_20deg_tilt", fixed(result.headingError.tilted, 3)),
            ("goal", "0.5"), ("ok", "true"),
        ])
    } else {
        reportFigure("calibration.partial_tumble", extra: [("ok", "false")])
    }

    // Predicted 95 % bound against the actual worst level error, 20 short noisy tumbles.
    var ratios: [Double] = []
    for seed in UInt64(1)...20 {
        var n = SplitMix64(seed: seed * 7 + 1)
        let samples = benchTumble(seconds: 20, seed: seed * 7, rate: 25)
            .map { softIron * ($0.transposed * earth) + hardIron + gaussian(&n) * 1.5 }
        var options = CalibrationOptions()
        options.expectedInclinationDegrees = dip
        let outcome = CalibrationSolver(options: options).solve(samples)
        let result: CalibrationResult?
        switch outcome {
        case let .success(r): result = r
        case let .failure(f): result = f.result
        }
        guard let result else { continue }
        ratios.append(worstHeadingError(result.fit, softIron, hardIron, earth, tilt: 0) / result.headingError.level)
    }
    ratios.sort()
    reportFigure("calibration.prediction", extra: [
        ("fits", "\(ratios.count)"),
        ("median_actual_over_predicted", fixed(ratios.isEmpty ? .nan : ratios[ratios.count / 2], 3)),
        ("max_actual_over_predicted", fixed(ratios.last ?? .nan, 3)),
        ("over_bound", "\(ratios.filter { $0 > 1 }.count)"),
    ])
}

private func gaussian(_ rng: inout SplitMix64) -> Vector3 {
    Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian())
}

/// Worst tilt-compensated heading error (true attitude) over headings every 2°, at roll and
/// pitch of −tilt, 0 and +tilt, noise-free readings.
private func worstHeadingError(_ fit: EllipsoidFit, _ softIron: Matrix3, _ hardIron: Vector3, _ earth: Vector3,
                               tilt: Double) -> Double {
    var worst = 0.0
    let t = tilt * .pi / 180
    for roll in [-t, 0, t] {
        for pitch in [-t, 0, t] {
            for step in stride(from: 0, to: 360, by: 2) {
                let attitude = Matrix3.rotation(roll: roll, pitch: pitch, yaw: Double(step) * .pi / 180)
                let world = attitude * fit.apply(softIron * (attitude.transposed * earth) + hardIron)
                var d = (atan2(world.y, world.x) - atan2(earth.y, earth.x)) * 180 / .pi
                d = (d + 540).truncatingRemainder(dividingBy: 360) - 180
                worst = max(worst, abs(d))
            }
        }
    }
    return worst
}

/// A smooth random tumble (body-to-NED attitudes): body rates an Ornstein–Uhlenbeck process.
private func benchTumble(seconds: Double, seed: UInt64, rate: Double = 50) -> [Matrix3] {
    var rng = SplitMix64(seed: seed)
    let dt = 1 / rate
    var omega = gaussian(&rng) * 1.3
    var attitude = Matrix3.rotation(roll: 2 * .pi * rng.nextUnit(), pitch: asin(2 * rng.nextUnit() - 1), yaw: 2 * .pi * rng.nextUnit())
    var out: [Matrix3] = []
    for _ in 0..<Int(seconds * rate) {
        out.append(attitude)
        omega = omega - omega * (dt / 1.5) + gaussian(&rng) * (1.3 * (2 * dt / 1.5).squareRoot())
        let w = omega * dt, angle = w.norm
        if angle > 0 {
            let k = w / angle
            let kx = Matrix3(rows: Vector3(0, -k.z, k.y), Vector3(k.z, 0, -k.x), Vector3(-k.y, k.x, 0))
            attitude = attitude * (Matrix3.identity + kx * sin(angle) + (kx * kx) * (1 - cos(angle)))
        }
        // Keep it a rotation: polar decomposition by a few Newton steps.
        if let inverse = attitude.inverse { attitude = (attitude + inverse.transposed) * 0.5 }
    }
    return out
}
