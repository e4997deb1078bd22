import Glibc
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

/// 15 µT disturbances, fixed in the world, in eight directions (true NED): north, east, south, west,
/// down, up and two oblique ones; each comes over 2 s, stays 30 s and goes, one a minute from 60 s.
let scenarioDisturbances: [FieldDisturbance] = {
    let r = 1 / 3.0.squareRoot()
    let directions = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(-1, 0, 0), Vector3(0, -1, 0),
                      Vector3(0, 0, 1), Vector3(0, 0, -1), Vector3(r, r, r), Vector3(-r, -r, -r)]
    return directions.enumerated().map { i, d in
        FieldDisturbance(ned: d * 15, start: 60 + 60 * Double(i), duration: 30)
    }
}()

/// The simulated trials, in the BROAD trials' row layout: the vehicles (car, boat, walk), and a
/// still compass ("still") and the boat ("boatmag") through `scenarioDisturbances`.
func simulatedTrials(disturbed: Bool = true) -> [BroadTrial] {
    var names = ["car", "boat", "walk"]
    if disturbed { names += ["stillmag", "boatmag"] }
    return names.compactMap { simulatedTrial($0) }
}

/// One simulated trial; "stillmag" and "boatmag" are the still compass and the boat with the
/// disturbances, "still" the still compass without.
func simulatedTrial(_ name: String, disturbances: Bool = true) -> BroadTrial? {
    let still = AttitudeScenario.fixed(Attitude(roll: 2, pitch: -1, yaw: 130))
    let base = name.hasSuffix("mag") ? String(name.dropLast(3)) : name
    guard let scenario = base == "still" ? still : AttitudeScenario.named(base) else { return nil }
    let rate = Double(Environment.value("LODESTONE_SIM_RATE") ?? "") ?? 100
    var recording = InertialRecording(scenario: scenario, duration: scenarioDuration, rate: rate, seed: 5)
    if name.hasSuffix("mag") && disturbances { recording.disturbances = scenarioDisturbances }
    let rows = recording.rows()
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

/// The heading of every row (nan where there is none).
func headingTrace(_ trial: BroadTrial) -> [Double] {
    var filter = AttitudeFilter()
    return trial.raw.map { r in
        filter.update(time: r[0], gyroscope: Vector3(r[7], r[8], r[9]),
                      accelerometer: Vector3(r[4], r[5], r[6]), magnetometer: Vector3(r[1], r[2], r[3]))
        return filter.estimate.headingDegrees ?? .nan
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
        var met = s.coverage >= 0.9 && s.sharpness <= 3
        if trial.name.hasSuffix("mag") {
            // How far the disturbances move the heading: against the same trial without them
            // (same motion, same noise), the largest difference on any row.
            let clean = simulatedTrial(trial.name, disturbances: false).map(headingTrace) ?? []
            let moved = zip(headingTrace(trial), clean).map { abs(remainder($0 - $1, 360)) }.filter(\.isFinite).max() ?? .nan
            extra.append(("disturbance_moves_heading_deg", fixed(moved, 2)))
            extra.append(("goal_moves_deg", "2.00"))
            met = moved <= 2
        } else if let fusion = reference["attitude.reference.fusion.\(trial.name)"] {
            let goal = max(2, 0.8 * fusion.p95)
            extra.append(("goal_p95_deg", fixed(goal, 2)))
            met = met && s.p95 <= goal
        } else {
            extra.append(("goal_p95_deg", "\"2.00 or 0.8 x Fusion (make bench-deps)\""))
            met = met && s.p95 <= 2
        }
        extra.append(("goal_met", met ? "true" : "false"))
        reportFigure("attitude.sim.\(trial.name)", extra: extra)
    }
}
