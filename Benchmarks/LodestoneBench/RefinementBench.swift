import Linear
import Platform
import Session
import Simulation

/// `refine.drive`: the background refinement (`--refine`) on a simulated 20-minute drive (the car
/// scenario: launches, 90° turns, braking) whose calibration was exact at the start, with a (6, −5, 3) µT
/// hard-iron step at 5 min and a 20 s, 15 µT transient riding with the board (a magnet held near) at
/// 12 min (the simulated receiver's ground track reaches the attitude filter once a second, as in
/// `watch`); the p95 heading error before the step (1–5 min; on the boat 30–60 s), after convergence (the last 6 min) and in
/// the minute after the transient, with and without --refine; and `refine.unchanged`, the same drive
/// with nothing changed. Goals: ≤ 1.5° over the last 6 min with --refine, ≤ 2° in the minute after the
/// transient, and --refine changing the unchanged drive's p95 by at most 0.2°. `refine.boat`: the same
/// changes on the boat scenario (tacks through 90°, rolling) without a receiver, as a replay runs it,
/// the step at 1 min.
func runRefinementBenchmarks() {
    let step = FieldChange(field: Vector3(6, -5, 3), start: 300)
    let transient = FieldChange(field: Vector3(9, -12, 0), start: 720, end: 740, rampSeconds: 2)
    func figures(_ trial: RefinementTrial, stepAt: Double, transientEnd: Double) -> [(String, String)] {
        var extra: [(String, String)] = []
        var last = Double.nan, afterTransient = Double.nan
        for refine in [false, true] {
            let (errors, report) = trial.headingErrors(refine: refine)
            let suffix = refine ? "_refine" : ""
            // From the first minute (half the time before an early step: the boat's comes at 1 min).
            let settled = min(60, stepAt / 2)
            extra.append(("p95_before_step\(suffix)", jsonNumber(RefinementTrial.percentile95(errors, from: settled, to: stepAt), 3)))
            let lastSix = RefinementTrial.percentile95(errors, from: 840, to: 1200)
            let minute = RefinementTrial.percentile95(errors, from: transientEnd, to: transientEnd + 60)
            extra.append(("p95_last_6min\(suffix)", jsonNumber(lastSix, 3)))
            extra.append(("p95_minute_after_transient\(suffix)", jsonNumber(minute, 3)))
            if let report {
                extra.append(("refined_change_uT", "[\(report.profileChange.array.map { jsonNumber($0, 3) }.joined(separator: ","))]"))
                extra.append(("refined_sigma_uT", jsonNumber(report.horizontalUncertainty ?? .nan, 3)))
                extra.append(("soft_iron_refined", report.softIron == nil ? "false" : "true"))
            }
            if refine { last = lastSix; afterTransient = minute }
        }
        // The goals: ≤ 1.5° over the last 6 min with --refine, ≤ 2° in the minute after the transient.
        extra.append(("goal_p95_last_6min_refine_deg", "1.5"))
        extra.append(("goal_p95_minute_after_transient_refine_deg", "2"))
        extra.append(("goal_met", last <= 1.5 && afterTransient <= 2 ? "true" : "false"))
        return extra
    }
    if report.shouldRun("refine.drive") {
        var trial = RefinementTrial(scenario: .car(), duration: 1200, changes: [step, transient])
        trial.groundTrack = true
        let extra = figures(trial, stepAt: 300, transientEnd: 740)
        reportFigure("refine.drive", extra: extra + [("step_uT", "[6,-5,3]"), ("step_s", "300"), ("transient_uT", "15"),
                                                     ("transient_s", "[720,740]")])
    }
    if report.shouldRun("refine.unchanged") {
        var trial = RefinementTrial(scenario: .car(), duration: 1200)
        trial.groundTrack = true
        let without = RefinementTrial.percentile95(trial.headingErrors(refine: false).errors, from: 60, to: 1200)
        let with = RefinementTrial.percentile95(trial.headingErrors(refine: true).errors, from: 60, to: 1200)
        reportFigure("refine.unchanged", extra: [("p95", jsonNumber(without, 3)), ("p95_refine", jsonNumber(with, 3)),
                                                 ("difference", jsonNumber(with - without, 3)),
                                                 ("goal_difference_deg", "0.2"),
                                                 ("goal_met", abs(with - without) <= 0.2 ? "true" : "false")])
    }
    if report.shouldRun("refine.boat") {
        var boatStep = step
        boatStep.start = 60
        let trial = RefinementTrial(scenario: .boat(), duration: 1200, changes: [boatStep, transient])
        reportFigure("refine.boat", extra: figures(trial, stepAt: 60, transientEnd: 740))
    }
}
