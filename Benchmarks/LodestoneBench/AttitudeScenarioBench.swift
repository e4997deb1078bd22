import Attitude
import Linear
import Platform
import Simulation

// Heading accuracy on simulated vehicles (a car, a boat, a walk with the board in the hand), each with
// a 0.5 °/s gyro bias on every axis, scored as the real trials are. `lodestone-bench --export-scenarios
// DIR` writes the same samples as DIR/sim_NAME_raw.csv and _truth.csv (the BROAD layout), so
// Benchmarks/attitude/reference_filters.py runs VQF and x-io Fusion on exactly these samples; their
// figures come back through LODESTONE_ATTITUDE_REFERENCE. Goal: p95 ≤ max(2°, 0.8 × Fusion's p95).
// LODESTONE_SIM_RATE sets the sample rate (default 100 Hz): the figures hardly move from 50 to 285 Hz.

/// Seconds of each simulated trial, and the settling time left out of the score.
private let scenarioDuration = 600.0
private let scenarioSettling = 10.0

/// The simulated trials, in the BROAD trials' row layout.
func simulatedTrials() -> [BroadTrial] {
    ["car", "boat", "walk"].compactMap { name in
        guard let scenario = AttitudeScenario.named(name) else { return nil }
        let rate = Double(Environment.value("LODESTONE_SIM_RATE") ?? "") ?? 100
        let rows = InertialRecording(scenario: scenario, duration: scenarioDuration, rate: rate, seed: 5).rows()
        var raw: [[Double]] = [], truth: [[Double]] = []
        raw.reserveCapacity(rows.count)
        truth.reserveCapacity(rows.count)
        for r in rows {
            raw.append([r.time, r.magnetometer.x, r.magnetometer.y, r.magnetometer.z,
                        r.accelerometer.x, r.accelerometer.y, r.accelerometer.z,
                        r.gyroscope.x, r.gyroscope.y, r.gyroscope.z])
            let q = Quaternion(rollDegrees: r.attitude.roll, pitchDegrees: r.attitude.pitch,
                               headingDegrees: r.magneticHeading)
            truth.append([r.time, r.magneticHeading, r.attitude.roll, r.attitude.pitch, q.w, q.x, q.y, q.z,
                          r.time >= scenarioSettling ? 1 : 0])
        }
        return BroadTrial(name: name, raw: raw, truth: truth)
    }
}

/// Writes the simulated trials as CSV for the reference filters. Returns false on a write error.
func exportSimulatedTrials(to folder: String) -> Bool {
    func csv(_ header: String, _ rows: [[Double]]) -> String {
        var text = header + "\n"
        for row in rows { text += row.map { plain($0, decimals: 6) }.joined(separator: ",") + "\n" }
        return text
    }
    for trial in simulatedTrials() {
        do {
            try Files.writeAtomically(folder + "/sim_\(trial.name)_raw.csv",
                                      contents: csv("t,x,y,z,ax,ay,az,gx,gy,gz", trial.raw))
            try Files.writeAtomically(folder + "/sim_\(trial.name)_truth.csv",
                                      contents: csv("t,heading_deg,roll_deg,pitch_deg,qw,qx,qy,qz,movement", trial.truth))
        } catch {
            StandardError().write("lodestone-bench: cannot write \(folder): \(error.message)\n")
            return false
        }
    }
    return true
}

func runAttitudeScenarioBenchmarks(reference: [String: (rmse: Double, p95: Double)]) {
    guard report.shouldRun("attitude.sim") else { return }
    for trial in simulatedTrials() {
        let s = score(trial)
        var extra = scoreFields(s, trial: trial.name, reference: reference)
        if let fusion = reference["attitude.reference.fusion.\(trial.name)"] {
            let goal = max(2, 0.8 * fusion.p95)
            extra.append(("goal_p95_deg", fixed(goal, 2)))
            extra.append(("goal_met", s.p95 <= goal ? "true" : "false"))
        } else {
            extra.append(("goal_p95_deg", "2.00 or 0.8 x Fusion (make bench-deps)"))
        }
        reportFigure("attitude.sim.\(trial.name)", extra: extra)
    }
}
