import Attitude
import Glibc
import Heading
import JSON
import Linear
import Platform

// Attitude stage benchmarks: the cost of one `AttitudeFilter.update`, and its heading accuracy on the
// BROAD trials (real IMU, optical truth) when `make bench` has unpacked them into LODESTONE_BROAD_DIR
// (default .build/bench/broad). Reference figures for VQF and x-io Fusion, computed live by
// Benchmarks/attitude/reference_filters.py, are read from LODESTONE_ATTITUDE_REFERENCE (a file of
// JSON lines) and shown beside ours.

/// CPU time of the calling thread in nanoseconds.
func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// One BROAD trial: sensor rows and truth rows, one to one.
struct BroadTrial {
    var name: String
    /// t, mag x y z (µT), accel x y z (g), gyro x y z (°/s).
    var raw: [[Double]]
    /// t, heading, roll, pitch, qw, qx, qy, qz, movement.
    var truth: [[Double]]
    /// True for the trials recorded near a magnet or steel (BROAD's "disturbed" trials).
    var magneticallyDisturbed = false
}

private func parseCSV(_ text: String) -> [[Double]] {
    var rows: [[Double]] = []
    for line in text.split(separator: "\n").dropFirst() {
        rows.append(line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) ?? .nan })
    }
    return rows
}

private func loadTrials(_ folder: String) -> [BroadTrial] {
    guard let names = Files.list(folder) else { return [] }
    var trials: [BroadTrial] = []
    for name in names.sorted() where name.hasPrefix("broad_") && name.hasSuffix("_raw.csv") {
        let base = String(name.dropLast("_raw.csv".count))
        guard let raw = try? Files.readText(folder + "/" + name),
              let truth = try? Files.readText(folder + "/" + base + "_truth.csv") else { continue }
        let number = base.split(separator: "_").dropFirst().first.map(String.init) ?? base
        trials.append(BroadTrial(name: number, raw: parseCSV(raw), truth: parseCSV(truth),
                                 magneticallyDisturbed: base.contains("_disturbed_")))
    }
    return trials
}

/// Heading error statistics over the metric rows (movement = 1, |pitch| ≤ 60°, finite truth).
struct HeadingScore {
    var rmse: Double
    var p95: Double
    var coverage: Double
    var rows: Int
    var unavailable: Int
    var medianAccuracy = Double.nan
    var disturbedFraction = Double.nan
    var rejectedFraction = Double.nan
    var tiltRMSE = Double.nan
    var rollCoverage = Double.nan
    var pitchCoverage = Double.nan
    var medianRollAccuracy = Double.nan
    var rollRMSE = Double.nan
    /// The same as the heading stage states them for a calibration whose residual is
    /// `benchCalibrationResidual` (as `heading --from-file --residual 0.5` does): coverage and median.
    var calibratedCoverage = Double.nan
    var calibratedMedianAccuracy = Double.nan
    /// Median stated accuracy over the RMSE: 1.645 for an exact normal bound; the goal is ≤ 3.
    var sharpness: Double { medianAccuracy / rmse }
}

/// Settings from LODESTONE_ATTITUDE_SETTINGS ("name=value,name=value"), to try values without a rebuild.
private func benchSettings() -> AttitudeSettings {
    var settings = AttitudeSettings()
    let names: [String: WritableKeyPath<AttitudeSettings, Double>] = [
        "accelerationTimeConstant": \.accelerationTimeConstant,
        "accelerationRejectionDegrees": \.accelerationRejectionDegrees,
        "accelerationRejectionTimeConstant": \.accelerationRejectionTimeConstant,
        "accelerationReferenceTimeConstant": \.accelerationReferenceTimeConstant,
        "accelerationRejectionNorm": \.accelerationRejectionNorm,
        "accelerationRejectionWeight": \.accelerationRejectionWeight,
        "accelerationRejectionTimeout": \.accelerationRejectionTimeout,
        "accelerationRejectionBudget": \.accelerationRejectionBudget,
        "accelerationRejectionHold": \.accelerationRejectionHold,
        "accelerationRejectionMaximumDriftDegrees": \.accelerationRejectionMaximumDriftDegrees,
        "magneticTimeConstant": \.magneticTimeConstant,
        "magneticDriftAllowanceDegrees": \.magneticDriftAllowanceDegrees,
        "magneticMinimumTimeConstant": \.magneticMinimumTimeConstant,
        "magneticNormTolerance": \.magneticNormTolerance,
        "magneticDipToleranceDegrees": \.magneticDipToleranceDegrees,
        "magneticInnovationGateDegrees": \.magneticInnovationGateDegrees,
        "magneticInnovationGateSigmas": \.magneticInnovationGateSigmas,
        "magneticRejectionTimeout": \.magneticRejectionTimeout,
        "magneticLagTimeConstant": \.magneticLagTimeConstant,
        "magneticRejectionMaximumDriftDegrees": \.magneticRejectionMaximumDriftDegrees,
        "motionBiasTimeConstant": \.motionBiasTimeConstant,
        "motionBiasInitialTimeConstant": \.motionBiasInitialTimeConstant,
        "gyroNoiseDensity": \.gyroNoiseDensity,
        "gyroBiasInstability": \.gyroBiasInstability,
        "accelerometerNoiseDensity": \.accelerometerNoiseDensity,
        "magnetometerNoise": \.magnetometerNoise,
        "restGyroSteadiness": \.restGyroSteadiness,
        "restAccelerationSteadiness": \.restAccelerationSteadiness,
        "restResidualRate": \.restResidualRate,
        "restMinimumDuration": \.restMinimumDuration,
        "restAccelerationTimeConstant": \.restAccelerationTimeConstant,
        "accelerationMinimumTimeConstant": \.accelerationMinimumTimeConstant,
        "accelerationCorrelationTime": \.accelerationCorrelationTime,
        "dipReferenceTimeConstant": \.dipReferenceTimeConstant,
        "restFieldTurnSigmas": \.restFieldTurnSigmas,
        "tiltErrorAveragingTimeConstant": \.tiltErrorAveragingTimeConstant,
        "magneticTimingUncertainty": \.magneticTimingUncertainty,
        "gyroScaleObservationRate": \.gyroScaleObservationRate,
        "restMagnitudeTolerance": \.restMagnitudeTolerance,
        "magneticNormMinimumTolerance": \.magneticNormMinimumTolerance,
        "magneticDipMinimumToleranceDegrees": \.magneticDipMinimumToleranceDegrees,
        "magneticToleranceSigmas": \.magneticToleranceSigmas,
        "initialBiasUncertainty": \.initialBiasUncertainty,
        "motionBiasRateLimit": \.motionBiasRateLimit,
        "accuracyCoverageFactor": \.accuracyCoverageFactor,
        "tiltNoiseDegrees": \.tiltNoiseDegrees,
        "gyroScaleUncertainty": \.gyroScaleUncertainty,
        "gyroRotationUncertainty": \.gyroRotationUncertainty,
    ]
    for item in (Environment.value("LODESTONE_ATTITUDE_SETTINGS") ?? "").split(separator: ",") {
        let parts = item.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, let path = names[String(parts[0])], let value = Double(parts[1]) else {
            StandardOutput().write("attitude: ignoring setting \(item)\n")
            continue
        }
        settings[keyPath: path] = value
    }
    return settings
}

func score(_ trial: BroadTrial) -> HeadingScore {
    var filter = AttitudeFilter(settings: benchSettings())
    var rollErrors: [Double] = [], rollAccuracies: [Double] = []
    var rollCovered = 0, pitchCovered = 0
    var accuracies: [Double] = []
    var disturbed = 0, rejected = 0
    var tiltSquares = 0.0, tiltRows = 0
    let trace = Environment.value("LODESTONE_ATTITUDE_TRACE") != nil
    var errors: [Double] = []
    var covered = 0, unavailable = 0
    var calibratedAccuracies: [Double] = [], calibratedCovered = 0
    var residual = AccuracyModel()
    residual.calibrationResidualMicrotesla = benchCalibrationResidual
    for (r, t) in zip(trial.raw, trial.truth) where r.count >= 10 && t.count >= 9 {
        filter.update(time: r[0], gyroscope: Vector3(r[7], r[8], r[9]),
                      accelerometer: Vector3(r[4], r[5], r[6]), magnetometer: Vector3(r[1], r[2], r[3]))
        if trace {
            let e = filter.estimate
            StandardOutput().write("trace,\(trial.name),\(r[0]),\(e.headingDegrees ?? .nan),\(t[1]),\(t[3]),\(t[8]),\(e.accuracyDegrees),\(e.flags.rawValue),\(e.gyroBias.x),\(e.gyroBias.y),\(e.gyroBias.z),\(e.rollDegrees),\(e.pitchDegrees),\(t[2]),\(filter.accuracyModel.headingDrift),\(filter.accuracyModel.tiltDrift),\(filter.accuracyModel.innovationMeanSquare.squareRoot()),\(filter.accuracyModel.biasUncertainty),\(filter.magneticInnovationDegrees ?? .nan),\(filter.magneticLagSeconds),\(filter.accuracyModel.headingVariance.squareRoot()),\(filter.accuracyModel.headingSystematic),\(filter.accuracyModel.surviving.squareRoot()),\(filter.accuracyModel.slowRollVariance.squareRoot()),\(filter.accuracyModel.slowPitchVariance.squareRoot()),\(filter.accuracyModel.rollLean),\(filter.accuracyModel.pitchLean),\(filter.accuracyModel.dipStrayMeanSquare.squareRoot())\n")
        }
        guard isMetricRow(t) else { continue }
        let e = filter.estimate
        if t[2].isFinite, t[3].isFinite {
            let rollError = abs(remainder(e.rollDegrees - t[2], 360)), pitchError = abs(e.pitchDegrees - t[3])
            rollErrors.append(rollError)
            rollAccuracies.append(e.rollAccuracyDegrees)
            if rollError <= e.rollAccuracyDegrees { rollCovered += 1 }
            if pitchError <= e.pitchAccuracyDegrees { pitchCovered += 1 }
        }
        guard let heading = e.headingDegrees else { unavailable += 1; continue }
        let error = abs(remainder(heading - t[1], 360))
        errors.append(error)
        let truth = Quaternion(w: t[4], x: t[5], y: t[6], z: t[7])
        if truth.isFinite {
            let down = e.quaternion.inverseRotate(Vector3(0, 0, 1)), trueDown = truth.normalized.inverseRotate(Vector3(0, 0, 1))
            let tilt = degrees(atan2(down.cross(trueDown).norm, down.dot(trueDown)))
            tiltSquares += tilt * tilt
            tiltRows += 1
        }
        accuracies.append(e.accuracyDegrees)
        let field = e.quaternion.rotate(Vector3(r[1], r[2], r[3]))
        let bound = residual.calibrationAccuracy(horizontalField: (field.x * field.x + field.y * field.y).squareRoot())
        let calibrated = HeadingFilter.combined(e.accuracyDegrees, HeadingFilter.calibrationAccuracy(bound, share: e.calibrationErrorShare))
        calibratedAccuracies.append(calibrated)
        if error <= calibrated { calibratedCovered += 1 }
        if e.flags.contains(.magneticDisturbance) { disturbed += 1 }
        if e.flags.contains(.accelerationRejected) { rejected += 1 }
        if error <= e.accuracyDegrees { covered += 1 }
    }
    guard !errors.isEmpty else { return HeadingScore(rmse: .nan, p95: .nan, coverage: .nan, rows: 0, unavailable: unavailable) }
    let (rmse, p95) = rmseAndP95(errors)
    let tiltCount = Double(max(1, rollErrors.count))
    return HeadingScore(rmse: rmse, p95: p95, coverage: Double(covered) / Double(errors.count),
                        rows: errors.count, unavailable: unavailable,
                        medianAccuracy: accuracies.sorted()[accuracies.count / 2],
                        disturbedFraction: Double(disturbed) / Double(errors.count),
                        rejectedFraction: Double(rejected) / Double(errors.count),
                        tiltRMSE: (tiltSquares / Double(max(1, tiltRows))).squareRoot(),
                        rollCoverage: Double(rollCovered) / tiltCount, pitchCoverage: Double(pitchCovered) / tiltCount,
                        medianRollAccuracy: rollAccuracies.isEmpty ? .nan : rollAccuracies.sorted()[rollAccuracies.count / 2],
                        rollRMSE: (rollErrors.reduce(0) { $0 + $1 * $1 } / tiltCount).squareRoot(),
                        calibratedCoverage: Double(calibratedCovered) / Double(errors.count),
                        calibratedMedianAccuracy: calibratedAccuracies.sorted()[calibratedAccuracies.count / 2])
}

/// The calibration residual (µT) the heading stage's stated accuracy is shown with beside the
/// attitude filter's own: BROAD's magnetometer comes calibrated, to about this.
let benchCalibrationResidual = 0.5   // µT

/// The metric rows of a trial: movement = 1, |pitch| ≤ 60°, finite truth heading.
func isMetricRow(_ t: [Double]) -> Bool { t.count >= 9 && t[8] == 1 && abs(t[3]) <= 60 && t[1].isFinite }

/// RMS and 95th percentile (linear interpolation between order statistics, as numpy's) of heading errors.
func rmseAndP95(_ errors: [Double]) -> (rmse: Double, p95: Double) {
    guard !errors.isEmpty else { return (.nan, .nan) }
    let rmse = (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
    let sorted = errors.sorted()
    let position = 0.95 * Double(sorted.count - 1)
    let low = Int(position), high = min(sorted.count - 1, low + 1)
    return (rmse, sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low)))
}

/// A trial's score as benchmark fields, with the reference filters' figures on the same trial.
func scoreFields(_ s: HeadingScore, trial: String, reference: [String: (rmse: Double, p95: Double)]) -> [(String, String)] {
    var extra: [(String, String)] = [("rmse_deg", fixed(s.rmse, 2)), ("p95_deg", fixed(s.p95, 2)),
                                     ("coverage", fixed(s.coverage, 3)), ("tilt_rmse_deg", fixed(s.tiltRMSE, 2)),
                                     ("rows", "\(s.rows)"), ("heading_unavailable", "\(s.unavailable)"),
                                     ("median_accuracy_deg", fixed(s.medianAccuracy, 2)),
                                     ("median_accuracy_over_rmse", fixed(s.sharpness, 2)),
                                     ("roll_rmse_deg", fixed(s.rollRMSE, 2)), ("median_roll_accuracy_deg", fixed(s.medianRollAccuracy, 2)),
                                     ("roll_coverage", fixed(s.rollCoverage, 3)), ("pitch_coverage", fixed(s.pitchCoverage, 3)),
                                     ("coverage_residual_0_5", fixed(s.calibratedCoverage, 3)),
                                     ("median_accuracy_over_rmse_residual_0_5", fixed(s.calibratedMedianAccuracy / s.rmse, 2)),
                                     ("mag_disturbed", fixed(s.disturbedFraction, 3)),
                                     ("accel_rejected", fixed(s.rejectedFraction, 3))]
    for filterName in ["vqf", "fusion"] {
        if let r = reference["attitude.reference.\(filterName).\(trial)"] {
            extra.append(("\(filterName)_rmse_deg", fixed(r.rmse, 2)))
            extra.append(("\(filterName)_p95_deg", fixed(r.p95, 2)))
        }
    }
    return extra
}

/// "attitude.reference.vqf.01" → (rmse, p95) from the reference file's JSON lines.
func loadReference(_ path: String?) -> [String: (rmse: Double, p95: Double)] {
    guard let path, let text = try? Files.readText(path) else { return [:] }
    var out: [String: (rmse: Double, p95: Double)] = [:]
    for line in text.split(separator: "\n") {
        guard let value = try? JSONValue.parse(String(line)), let name = value["benchmark"]?.string,
              let rmse = value["rmse_deg"]?.double, let p95 = value["p95_deg"]?.double else { continue }
        out[name] = (rmse, p95)
    }
    return out
}

func runAttitudeBenchmarks() {
    let folder = Environment.value("LODESTONE_BROAD_DIR") ?? ".build/bench/broad"
    let trials = loadTrials(folder)
    // The C/C++ harnesses' figures (Benchmarks/reference) where they were built, else the Python file's.
    let reference = loadReference(Environment.value("LODESTONE_ATTITUDE_REFERENCE"))
        .merging(report.shouldRun("attitude.broad") || report.shouldRun("attitude.sim") ? referenceScores(folder: folder) : [:]) { _, harness in harness }
    if trials.isEmpty {
        if report.shouldRun("attitude.broad") {
            StandardOutput().write("attitude.broad: skipped, no BROAD trials in \(folder) (make bench unpacks ../shared/data/broad there)\n")
        }
    }
    runAttitudeScenarioBenchmarks(reference: reference)
    runNoGyroBenchmarks(trials: trials)
    var scores: [(trial: BroadTrial, score: HeadingScore)] = []
    for trial in trials where report.shouldRun("attitude.broad.") {
        let s = score(trial)
        scores.append((trial, s))
        var extra = scoreFields(s, trial: trial.name, reference: reference)
        if let vqf = reference["attitude.reference.vqf.\(trial.name)"] {
            extra.append(("rmse_over_vqf", fixed(s.rmse / vqf.rmse, 2)))
            extra.append(("goal_met", s.rmse <= 1.5 * vqf.rmse && s.sharpness <= 3 ? "true" : "false"))
        } else {
            extra.append(("goal_met", s.sharpness <= 3 ? "true" : "false"))
        }
        reportFigure("attitude.broad.\(trial.name)", extra: extra)
    }
    reportBroadSummary(scores, reference: reference)

    // Cost per update: replay a trial (or a synthetic tumble) through one filter.
    var samples: [(t: Double, g: Vector3, a: Vector3, m: Vector3)] = []
    if let trial = trials.first {
        for r in trial.raw.prefix(20_000) where r.count >= 10 {
            samples.append((r[0], Vector3(r[7], r[8], r[9]), Vector3(r[4], r[5], r[6]), Vector3(r[1], r[2], r[3])))
        }
    } else {
        var rng = SplitMix64(seed: 13)
        for i in 0..<20_000 {
            let t = Double(i) * 0.01
            samples.append((t, Vector3(rng.nextGaussian() * 30, rng.nextGaussian() * 30, rng.nextGaussian() * 30),
                            Vector3(rng.nextGaussian() * 0.1, rng.nextGaussian() * 0.1, -1),
                            Vector3(15 + rng.nextGaussian(), rng.nextGaussian(), 40)))
        }
    }
    let period = samples.count > 1 ? samples[samples.count - 1].t - samples[0].t + 0.01 : 0.01
    var filter = AttitudeFilter()
    var index = 0, lap = 0.0
    // CPU time of this thread per update: unlike the wall clock, not inflated when other processes
    // share the cores.
    if report.shouldRun("attitude.update.cpu") {
        var filter = AttitudeFilter()
        var best = Double.infinity
        for _ in 0..<5 {
            let t0 = threadCPUNanoseconds()
            for i in 0..<200_000 {
                let s = samples[i % samples.count]
                filter.update(time: s.t + Double(i / samples.count) * period, gyroscope: s.g, accelerometer: s.a, magnetometer: s.m)
            }
            blackHole(filter.quaternion)
            best = min(best, Double(threadCPUNanoseconds() - t0) / 200_000)
            filter = AttitudeFilter()
        }
        reportFigure("attitude.update.cpu", extra: [("cpu_ns_per_update", fixed(best, 1))])
    }
    bench("attitude.update", iterations: 400_000) { n in
        for _ in 0..<n {
            let s = samples[index]
            filter.update(time: s.t + lap, gyroscope: s.g, accelerometer: s.a, magnetometer: s.m)
            index += 1
            if index == samples.count { index = 0; lap += period }
        }
        blackHole(filter.quaternion)
    }
    bench("attitude.update+estimate", iterations: 400_000) { n in
        for _ in 0..<n {
            let s = samples[index]
            // As the pipeline reads it (`updatedEstimate`: no copy of the filter to read its estimate).
            blackHole(filter.updatedEstimate(time: s.t + lap, gyroscope: s.g, accelerometer: s.a, magnetometer: s.m).headingDegrees)
            index += 1
            if index == samples.count { index = 0; lap += period }
        }
    }
}

/// The goals over all the trials: mean RMSE over the undisturbed and over the magnetically disturbed
/// trials ≤ 0.9 × VQF's, no trial worse than 1.5 × VQF's, the stated accuracy covering the error on
/// ≥ 90 % of all the metric rows with a median ≤ 3 × each trial's RMSE.
func reportBroadSummary(_ scores: [(trial: BroadTrial, score: HeadingScore)],
                        reference: [String: (rmse: Double, p95: Double)]) {
    guard !scores.isEmpty, report.shouldRun("attitude.broad.summary") else { return }
    var extra: [(String, String)] = []
    var met = true
    for disturbed in [false, true] {
        let group = scores.filter { $0.trial.magneticallyDisturbed == disturbed }
        guard !group.isEmpty else { continue }
        let ours = group.map(\.score.rmse).reduce(0, +) / Double(group.count)
        let label = disturbed ? "disturbed" : "undisturbed"
        extra.append(("\(label)_mean_rmse_deg", fixed(ours, 2)))
        let vqf = group.compactMap { reference["attitude.reference.vqf.\($0.trial.name)"]?.rmse }
        if vqf.count == group.count {
            let theirs = vqf.reduce(0, +) / Double(vqf.count)
            extra.append(("\(label)_vqf_mean_rmse_deg", fixed(theirs, 2)))
            extra.append(("\(label)_ratio", fixed(ours / theirs, 2)))
            met = met && ours <= 0.9 * theirs
        } else {
            extra.append(("\(label)_vqf_mean_rmse_deg", "null"))
            met = false
        }
    }
    let worst = scores.compactMap { s in
        reference["attitude.reference.vqf.\(s.trial.name)"].map { s.score.rmse / $0.rmse }
    }.max() ?? .nan
    extra.append(("worst_rmse_over_vqf", fixed(worst, 2)))
    met = met && worst <= 1.5
    let rows = scores.map { Double($0.score.rows) }.reduce(0, +)
    let coverage = scores.map { $0.score.coverage * Double($0.score.rows) }.reduce(0, +) / max(1, rows)
    let lowest = scores.map(\.score.coverage).min() ?? .nan
    let sharpest = scores.map(\.score.sharpness).max() ?? .nan
    extra.append(("coverage_all", fixed(coverage, 3)))
    extra.append(("lowest_trial_coverage", fixed(lowest, 3)))
    extra.append(("worst_median_accuracy_over_rmse", fixed(sharpest, 2)))
    // The heading stage's accuracy, the calibration's residual added (what `heading --residual` states).
    let calibratedCoverage = scores.map { $0.score.calibratedCoverage * Double($0.score.rows) }.reduce(0, +) / max(1, rows)
    let calibratedSharpest = scores.map { $0.score.calibratedMedianAccuracy / $0.score.rmse }.max() ?? .nan
    extra.append(("coverage_all_residual_0_5", fixed(calibratedCoverage, 3)))
    extra.append(("worst_median_accuracy_over_rmse_residual_0_5", fixed(calibratedSharpest, 2)))
    met = met && coverage >= 0.9 && sharpest <= 3
    extra.append(("goal_met", met ? "true" : "false"))
    reportFigure("attitude.broad.summary", extra: extra)
}
