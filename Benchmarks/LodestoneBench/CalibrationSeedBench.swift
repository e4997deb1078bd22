import Calibration
import Linear
import Platform

/// `calibration.seed.NAME`: the fit no worse than its algebraic seed on every real recording at hand:
/// the magnetometer recording of ../shared/data/magnetometer (else the committed copy in
/// calibration/data) and every BROAD trial `make bench` unpacks (LODESTONE_BROAD_DIR). For each, the
/// spread of |B| (std/mean) after the solver's final fit and after a plain algebraic ellipsoid fitted
/// over the same samples (every usable one: finite, within range, not a spike far outside the cloud, as
/// the solver takes them), their ratio against the goal (≤ 1.02), and beside it what the solver's own
/// refined model left before the better one was kept (`refined_ratio`), which was kept and why. A
/// recording whose calibration the acceptance refuses (a translation without rotation, a magnet) says
/// so and is compared by the fit the solver made (what --force writes); one with no fit at all counts
/// against the goal. `calibration.seed` sums up the worst final ratio and the worst refined one.
func runCalibrationSeedBenchmarks() {
    guard report.shouldRun("calibration.seed") else { return }
    var recordings: [(name: String, samples: [Vector3])] = []
    let shared = Environment.value("LODESTONE_SHARED_DIR") ?? "../shared"
    for path in [shared + "/data/magnetometer/acc_mag_log.csv", "calibration/data/acc_mag_log.csv"] {
        if let samples = seedBenchColumns(path, columns: ["mx", "my", "mz"]), !samples.isEmpty {
            recordings.append(("acc_mag_log", samples))
            break
        }
    }
    let broad = Environment.value("LODESTONE_BROAD_DIR") ?? ".build/bench/broad"
    for name in (Files.list(broad) ?? []).sorted() where name.hasPrefix("broad_") && name.hasSuffix("_raw.csv") {
        if let samples = seedBenchColumns(broad + "/" + name, columns: ["x", "y", "z"]), !samples.isEmpty {
            recordings.append((String(name.dropLast("_raw.csv".count)), samples))
        }
    }
    var worst = 0.0, worstRefined = 0.0
    var allMet = !recordings.isEmpty
    for (name, all) in recordings {
        // The samples the solver fits: usable (finite, in range) and no spike.
        let usable = all.filter(CalibrationOptions().isUsable)
        let samples = zip(usable, SpikeFilter.mask(usable)).compactMap { $1 ? $0 : nil }
        var extra: [(String, String)] = [("samples", "\(samples.count)"), ("dropped", "\(all.count - samples.count)"),
                                         ("goal_ratio", "1.02")]
        // A recording the acceptance refuses (a translation without rotation, a magnet) still has the
        // fit the solver made: that is what is compared with its seed.
        let solved = CalibrationSolver().solve(all)
        var refusal: String?
        if case let .failure(f) = solved {
            refusal = (f.issues.first.map { "\($0)" } ?? "refused").filter { $0 != "\"" && $0 != "\\" && !$0.isNewline }
        }
        let outcome: Result<CalibrationResult, CalibrationFailure>
        switch solved {
        case .success: outcome = solved
        case let .failure(f): outcome = f.result.map { .success($0) } ?? solved
        }
        if let refusal { extra.append(("refused", "\"\(refusal)\"")) }
        switch outcome {
        case let .success(r):
            let ours = QualityMetrics.magnitudeSpreadPercent(samples.map(r.fit.apply))
            let algebraic = EllipsoidFit.algebraic(samples).map { QualityMetrics.magnitudeSpreadPercent(samples.map($0.apply)) } ?? .nan
            let ratio = ours / algebraic
            let met = ratio <= 1.02
            worst = max(worst, ratio.isFinite ? ratio : .infinity)
            allMet = allMet && met
            extra += [("spread_after_percent", jsonNumber(ours, 3)), ("algebraic_spread_percent", jsonNumber(algebraic, 3)),
                      ("ratio", jsonNumber(ratio, 4))]
            if let seed = r.seed {
                let refinedRatio = seed.refinedSpreadPercent / seed.algebraicSpreadPercent
                worstRefined = max(worstRefined, refinedRatio.isFinite ? refinedRatio : .infinity)
                extra += [("refined_model", "\"\(seed.refinedModel.rawValue)\""),
                          ("refined_spread_percent", jsonNumber(seed.refinedSpreadPercent, 3)),
                          ("refined_ratio", jsonNumber(refinedRatio, 4)),
                          ("kept", seed.keptAlgebraic ? "\"algebraic\"" : "\"refined\"")]
                if let why = seed.reasonText { extra.append(("why", "\"\(why.filter { $0 != "\"" && $0 != "\\" })\"")) }
            } else {
                extra.append(("kept", "\"not compared\""))
            }
            extra.append(("goal_met", met ? "true" : "false"))
        case .failure:
            allMet = false
            extra += [("no_fit", "true"), ("goal_met", "false")]
        }
        reportFigure("calibration.seed.\(name)", extra: extra)
    }
    reportFigure("calibration.seed", extra: [("recordings", "\(recordings.count)"), ("worst_ratio", jsonNumber(worst, 4)),
                                             ("worst_refined_ratio", jsonNumber(worstRefined, 4)),
                                             ("goal_ratio", "1.02"), ("goal_met", allMet ? "true" : "false")])
}

/// The named columns of a CSV recording as vectors (rows with all three finite), nil when unreadable.
private func seedBenchColumns(_ path: String, columns: [String]) -> [Vector3]? {
    guard let text = try? Files.readText(path) else { return nil }
    var lines = text.split(whereSeparator: \.isNewline).makeIterator()
    guard let header = lines.next() else { return nil }
    let names = header.split(separator: ",").map { $0.filter { !$0.isWhitespace }.lowercased() }
    let index = columns.compactMap { names.firstIndex(of: $0) }
    guard index.count == 3 else { return nil }
    var out: [Vector3] = []
    while let line = lines.next() {
        let cells = line.split(separator: ",", omittingEmptySubsequences: false)
        guard index.allSatisfy({ $0 < cells.count }),
              let x = Double(cells[index[0]].filter { !$0.isWhitespace }),
              let y = Double(cells[index[1]].filter { !$0.isWhitespace }),
              let z = Double(cells[index[2]].filter { !$0.isWhitespace }) else { continue }
        let v = Vector3(x, y, z)
        if v.isFinite { out.append(v) }
    }
    return out
}
