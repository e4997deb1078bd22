import Platform
import Glibc
import Linear
import Calibration
import Sensors
import Simulation

/// `calibration.wizard_sim`: what the wizard achieves on badly distorted boards. Eight simulated
/// QMC5883L boards (datasheet noise, offsets 2–3× the Earth field, symmetric soft iron ±30 %) are
/// tumbled for 60 s through the real driver and register emulator on a manual clock stepped at the
/// chip rate, fed to a `CalibrationSession` as the wizard does, and fitted. Then the board is
/// turned level through 360° in 5° steps.
///
/// Figures: the worst heading error over the turn after calibration (noise-free truth, the goal:
/// ≤ 0.5°), the same measured through the chip (each step averaged over 0.2 s), and the smallest
/// worst-case error without calibration (goal: > 20°).
func runCalibrationWizardBenchmark() {
    let name = "calibration.wizard_sim"
    guard report.shouldRun(name) else { return }
    let world = SimulatedWorld.sydney
    var rng = SplitMix64(seed: 60)
    var worstCalibrated = 0.0, worstMeasured = 0.0, smallestUncalibrated = Double.infinity
    var passed = 0, distinct = 0
    let boards = 8
    for board in 0..<boards {
        let model = randomBoard(&rng, field: world.field.norm, offsetScale: board % 2 == 0 ? 3 : 2)
        guard let run = simulateWizard(model: model, world: world, seed: UInt64(board + 1)) else {
            reportFigure(name, extra: [("ok", "false"), ("error", "\"simulation failed\"")])
            return
        }
        if run.passed { passed += 1 }
        distinct = max(distinct, run.distinct)
        worstCalibrated = max(worstCalibrated, run.calibratedError)
        worstMeasured = max(worstMeasured, run.measuredError)
        smallestUncalibrated = min(smallestUncalibrated, run.uncalibratedError)
    }
    reportFigure(name, extra: [
        ("boards", "\(boards)"),
        ("tumble_seconds", "60"),
        ("passed", "\(passed)"),
        ("worst_heading_error_deg", jsonNumber(worstCalibrated, 3)),
        ("worst_measured_heading_error_deg", jsonNumber(worstMeasured, 3)),
        ("uncalibrated_smallest_worst_error_deg", jsonNumber(smallestUncalibrated, 1)),
        ("goal_met", worstCalibrated <= 0.5 && smallestUncalibrated > 20 ? "true" : "false"),
    ])
}

private struct WizardRun {
    var passed: Bool
    var distinct: Int
    var calibratedError: Double
    var measuredError: Double
    var uncalibratedError: Double
}

/// Offset of `offsetScale` × the field in a random direction; soft iron R · diag(1.3, 0.7, g) · Rᵀ.
private func randomBoard(_ rng: inout SplitMix64, field: Double, offsetScale: Double) -> MagnetometerModel {
    func rotation() -> Matrix3 {
        Matrix3.rotation(roll: 2 * .pi * rng.nextUnit(), pitch: asin(2 * rng.nextUnit() - 1), yaw: 2 * .pi * rng.nextUnit())
    }
    let direction = rotation() * Vector3(1, 0, 0)
    let r = rotation()
    let gains = Vector3(1.3, 0.7, 0.7 + 0.6 * rng.nextUnit())
    return MagnetometerModel(hardIron: direction * (offsetScale * field),
                             softIron: r * Matrix3.diagonal(gains) * r.transposed)
}

private func simulateWizard(model: MagnetometerModel, world: SimulatedWorld, seed: UInt64) -> WizardRun? {
    let tumbleEnd = 60.0, step = 0.25, settle = 0.05
    let tumble = AttitudeScenario.tumble(period: 40, field: world.field)
    // 60 s of tumbling, then a level turn in 5° steps of 0.25 s each.
    let scenario = AttitudeScenario(name: "wizard then level turn") { t in
        guard t >= tumbleEnd else { return tumble.attitude(at: t) }
        let k = min(71, Int((t - tumbleEnd) / step))
        return Attitude(roll: 0, pitch: 0, yaw: Double(k) * 5)
    }
    let setup = SimulationSetup(world: world, scenario: scenario, model: model, seed: seed, chip: .qmc5883l)
    let clock = ManualClock()
    let rig = SimulatedRig(setup: setup, now: { clock.now() })
    guard let chip = try? DriverFactory.open(.qmc5883l, bus: rig.bus, address: rig.address, now: rig.now) else { return nil }
    let reader = MagnetometerReader(magnetometer: chip, orientation: setup.orientation,
                                    clock: ReaderClock(monotonic: clock.now, wall: { 1.8e9 + clock.now() },
                                                       sleep: clock.advance(by:)))
    var options = CalibrationOptions(expectedFieldStrength: world.field.norm,
                                     expectedInclinationDegrees: degrees(atan2(world.field.z, world.horizontal)),
                                     fullScaleRange: chip.info.fullScale)
    options.maximumModel = .full
    var session = CalibrationSession(options: options)
    while clock.now() < tumbleEnd {
        if let sample = reader.next(timeout: 0.05) { session.add(sample.field) }
    }
    let fit: EllipsoidFit
    let passed: Bool
    switch session.finish() {
    case .success(let r): fit = r.fit; passed = true
    case .failure(let f):
        guard let r = f.result else { return nil }
        fit = r.fit; passed = false
    }
    func heading(_ v: Vector3) -> Double { degrees(atan2(-v.y, v.x)) }
    // Noise-free: the fitted correction against the true distortion.
    var calibrated = 0.0, uncalibrated = 0.0
    for yaw in 0..<360 {
        let body = Matrix3.rotation(roll: 0, pitch: 0, yaw: radians(Double(yaw))).transposed * world.field
        let raw = model.distorted(body)
        calibrated = max(calibrated, abs(angleDifference(heading(fit.apply(raw)), heading(body))))
        uncalibrated = max(uncalibrated, abs(angleDifference(heading(raw), heading(body))))
    }
    // Through the chip: average each held step, compare with the true heading.
    var sums = [Vector3](repeating: .zero, count: 72)
    while clock.now() < tumbleEnd + 72 * step {
        guard let sample = reader.next(timeout: 0.05) else { continue }
        let offset = sample.monotonic - tumbleEnd
        let k = Int(offset / step)
        guard k >= 0, k < 72, offset - Double(k) * step >= settle else { continue }
        sums[k] += fit.apply(sample.field)
    }
    var measured = 0.0
    for k in 0..<72 where sums[k] != .zero {
        let body = Matrix3.rotation(roll: 0, pitch: 0, yaw: radians(Double(k) * 5)).transposed * world.field
        measured = max(measured, abs(angleDifference(heading(sums[k]), heading(body))))
    }
    return WizardRun(passed: passed, distinct: session.distinctCount, calibratedError: calibrated,
                     measuredError: measured, uncalibratedError: uncalibrated)
}
