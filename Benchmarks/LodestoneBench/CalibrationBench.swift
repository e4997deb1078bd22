import Platform
import Glibc
import Linear
import Calibration

/// Calibration benchmarks: fitting 20,000 samples (goal ≤ 50 ms in release), the wizard on
/// simulated boards (`calibration.wizard_sim`, CalibrationWizardBench.swift), the spread of |B|
/// before and after calibrating the committed real recording (goal: within 5 % of a plain
/// algebraic ellipsoid fit's) with its predicted heading error, and the acceptance figures
/// (CalibrationAcceptanceBench.swift).
func runCalibrationBenchmarks() {
    let samples = syntheticCalibrationSamples(count: 20_000, seed: 2025)
    let solver = CalibrationSolver(options: CalibrationOptions(expectedFieldStrength: 49.4))
    var model = "none"
    var residual = 0.0
    if case let .success(r) = solver.solve(samples) {
        model = r.fit.model.rawValue
        residual = r.metrics.residualPercent
    }
    bench("calibration.fit20k", iterations: 10,
          extra: [("samples", "20000"), ("model", "\"\(model)\""), ("residual_percent", jsonNumber(residual, 3))]) { n in
        for _ in 0..<n { blackHole(solver.solve(samples)) }
    }

    runCalibrationWizardBenchmark()
    runCalibrationAcceptanceBenchmarks()
    runCalibrationSeedBenchmarks()

    guard let recording = loadRecordingMagnetometer() else {
        reportFigure("calibration.real_recording", extra: [("ok", "false"), ("error", "\"recording not found\"")])
        return
    }
    switch CalibrationSolver().solve(recording) {
    case let .success(r):
        let after = recording.map { r.fit.apply($0) }
        let algebraic = EllipsoidFit.algebraic(recording).map { fit in magnitudeSpreadPercent(recording.map(fit.apply)) } ?? .nan
        reportFigure("calibration.real_recording", extra: [
            ("algebraic_spread_after_percent", fixed(algebraic, 3)),
            ("heading_error_level", fixed(r.headingError.level, 3)),
            ("heading_error_20deg_tilt", fixed(r.headingError.tilted, 3)),
            ("samples", "\(recording.count)"),
            ("spread_before_percent", jsonNumber(magnitudeSpreadPercent(recording), 3)),
            ("spread_after_percent", jsonNumber(magnitudeSpreadPercent(after), 3)),
            ("fit_set_spread_after_percent", jsonNumber(r.metrics.spreadAfterPercent, 3)),
            ("model", "\"\(r.fit.model.rawValue)\""),
            ("distinct", "\(r.distinctCount)"),
            ("rejected", "\(r.rejectedCount)"),
            ("ok", "true"),
        ])
    case let .failure(f):
        reportFigure("calibration.real_recording", extra: [("ok", "false"), ("issues", "\(f.issues.count)")])
    }
}

/// Readings of a distorted sensor over uniformly random field directions, with 0.2 µT noise.
private func syntheticCalibrationSamples(count: Int, seed: UInt64) -> [Vector3] {
    var rng = SplitMix64(seed: seed)
    let softIron = Matrix3(rows: Vector3(1.2, 0.08, -0.05), Vector3(0.08, 0.85, 0.1), Vector3(-0.05, 0.1, 1.05))
    let offset = Vector3(60, -90, 35)
    var out: [Vector3] = []
    out.reserveCapacity(count)
    while out.count < count {
        let v = Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian())
        guard let u = v.normalized else { continue }
        let noise = Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian()) * 0.2
        out.append(softIron * (u * 49.4) + offset + noise)
    }
    return out
}

/// std/mean of the magnitudes, %.
private func magnitudeSpreadPercent(_ v: [Vector3]) -> Double {
    guard !v.isEmpty else { return .nan }
    let m = v.map(\.norm)
    let mean = m.reduce(0, +) / Double(m.count)
    let variance = m.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(m.count)
    return variance.squareRoot() / mean * 100
}

/// The mx, my, mz columns of calibration/data/acc_mag_log.csv (found next to the sources, or
/// relative to the working directory).
private func loadRecordingMagnetometer() -> [Vector3]? {
    var root = #filePath
    for _ in 0..<3 {
        guard let slash = root.lastIndex(of: "/") else { break }
        root = String(root[..<slash])
    }
    let candidates = [root + "/calibration/data/acc_mag_log.csv", "calibration/data/acc_mag_log.csv"]
    for path in candidates {
        guard let file = fopen(path, "r") else { continue }
        defer { fclose(file) }
        var rows: [Vector3] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        while getline(&line, &capacity, file) > 0 {
            guard let line else { break }
            let fields = String(cString: line).split(separator: ",").compactMap { Double($0.filter { !$0.isWhitespace }) }
            if fields.count == 6 { rows.append(Vector3(fields[3], fields[4], fields[5])) }
        }
        free(line)
        if !rows.isEmpty { return rows }
    }
    return nil
}
