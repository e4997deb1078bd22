import Glibc
import Heading
import Linear
import Platform
import Session

// Without a gyroscope: the heading `watch` gives from the magnetometer and accelerometer alone
// (the pipeline's compass path, through `HeadingPipeline` as `heading --from-file` builds it) on the
// BROAD trials and the simulated vehicles, beside the unfiltered tilt-compensated heading of every
// sample (the accelerometer's tilt, no smoothing, no holding), and the tilt-compensated heading of
// the pipeline's own tilt before the heading is smoothed. Goal: never worse than the unfiltered
// heading (within 2 %), where there is a heading to speak of: on the magnetically disturbed trials
// (BROAD 30) both are about 90° RMS, a compass pointing anywhere, so the goal reads "n/a" there.

/// RMS of the heading error over the metric rows, for headings `estimate(i)` (nil: no heading).
private func rmse(_ trial: BroadTrial, _ estimate: (Int) -> Double?) -> Double {
    var sum = 0.0, count = 0
    for (i, t) in trial.truth.enumerated() where t.count >= 9 && t[8] == 1 && abs(t[3]) <= 60 && t[1].isFinite {
        guard let h = estimate(i) else { continue }
        let e = remainder(h - t[1], 360)
        sum += e * e
        count += 1
    }
    return count > 0 ? (sum / Double(count)).squareRoot() : .nan
}

func runNoGyroBenchmarks(trials: [BroadTrial]) {
    guard report.shouldRun("attitude.broad_no_gyro") else { return }
    for trial in trials + simulatedTrials(disturbed: false) {
        let pipeline = HeadingPipeline(PipelineSetup(profile: nil))
        var filtered = [Double?](repeating: nil, count: trial.raw.count)
        var unfiltered = [Double?](repeating: nil, count: trial.raw.count)
        var tiltOnly = [Double?](repeating: nil, count: trial.raw.count)
        for (i, r) in trial.raw.enumerated() where r.count >= 7 {
            let field = Vector3(r[1], r[2], r[3]), acceleration = Vector3(r[4], r[5], r[6])
            let estimate = pipeline.process(field: field, acceleration: acceleration, monotonic: r[0], wall: r[0])
            filtered[i] = estimate?.magneticHeading
            tiltOnly[i] = estimate?.rawMagneticHeading
            unfiltered[i] = Tilt(gravity: acceleration).map { Tilt.heading(ofLevelled: $0.levelled(field)) }
        }
        let ours = rmse(trial) { filtered[$0] }, plain = rmse(trial) { unfiltered[$0] }
        let goal = trial.magneticallyDisturbed ? "\"n/a\"" : ours <= plain * 1.02 ? "true" : "false"
        reportFigure("attitude.broad_no_gyro.\(trial.name)",
                     extra: [("rmse_deg", fixed(ours, 2)), ("unfiltered_rmse_deg", fixed(plain, 2)),
                             ("unsmoothed_rmse_deg", fixed(rmse(trial) { tiltOnly[$0] }, 2)), ("goal_met", goal)])
    }
}
