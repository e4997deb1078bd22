import Calibration
import Linear
import Platform
import Sensors
import Terminal

/// Why the tumble step ended.
enum CollectionEnd: Equatable {
    /// The session passed every check: it stopped by itself.
    case passed
    /// Enter or s: fit what there is.
    case fitNow
    /// `--duration` ran out.
    case timeLimit
    /// q or Esc.
    case cancelled
    /// SIGINT, SIGTERM or SIGHUP.
    case signal
    /// The terminal went away.
    case outputClosed
}

/// The tumble step of the wizard: reads the magnetometer into the session until it passes, a key
/// stops it, the time limit runs out or a signal arrives. On a terminal it draws the live screen
/// (alternate screen, hidden cursor, keys without echo; all restored on every way out); otherwise
/// it prints a progress line every two seconds.
///
/// ```swift
/// var collection = CalibrationCollection(sensor: sensor, inbox: inbox, session: session)
/// let end = collection.run(runtime: runtime, title: "…", expectedField: 57.3, ascii: false, timeLimit: nil, screen: true)
/// ```
struct CalibrationCollection {
    let sensor: CalibrationSensor
    let inbox: ControlInbox
    var session: CalibrationSession
    /// Every usable raw reading (µT, body axes), for the before/after figures.
    private(set) var raw: [Vector3] = []
    private(set) var lastState = CalibrationViewState()
    static let maximumKept = 200_000
    /// For a compass fixed in a vehicle (`--vehicle`): the fit from circles, refitted every few
    /// seconds of sensor time on the magnetometer and accelerometer pairs.
    let vehicle: VehicleCalibration?
    /// Magnetometer and accelerometer pairs (vehicle mode).
    private(set) var pairs: (magnetic: [Vector3], acceleration: [Vector3?]) = ([], [])
    /// The latest vehicle fit, passed or not.
    private(set) var vehicleOutcome: Result<CalibrationResult, CalibrationFailure>?
    private var nextVehicleFit = 0.0
    /// Seconds of sensor time between vehicle refits.
    static let vehicleRefitInterval = 3.0
    /// Heading sectors (of 18) a vehicle calibration must have covered before it stops by itself: a full circle.
    static let vehicleSectorsToStop = 18

    init(sensor: CalibrationSensor, inbox: ControlInbox, session: CalibrationSession, vehicle: VehicleCalibration? = nil) {
        self.sensor = sensor; self.inbox = inbox; self.session = session; self.vehicle = vehicle
    }

    /// Whether collecting can stop by itself: every check passed (vehicle: and most of the heading circle covered).
    var isReady: Bool {
        guard vehicle != nil else { return session.isReady }
        guard case .success(let r)? = vehicleOutcome else { return false }
        return (r.headingBins ?? 0) >= Self.vehicleSectorsToStop
    }

    /// The fit of everything collected, judged.
    func finish() -> Result<CalibrationResult, CalibrationFailure> {
        guard let vehicle else { return session.finish() }
        return vehicle.solve(magnetic: pairs.magnetic, acceleration: pairs.acceleration)
    }

    mutating func run(runtime: Runtime, title: String, expectedField: Double?, ascii: Bool, timeLimit: Double?,
                      screen useScreen: Bool) -> CollectionEnd {
        let reader = sensor.makeReader(inbox: inbox)
        let start = sensor.now()
        let output = runtime.output
        let terminal = useScreen ? runtime.terminal : nil
        let screen = Screen(isTerminal: terminal != nil, output: { output.write($0) })
        screen.enter()
        terminal?.enableKeyInput()
        defer {
            terminal?.restoreInputMode()
            screen.leave()
        }
        let framePeriod = useScreen ? 0.1 : 2.0
        var nextFrame = sensor.time.monotonic()
        while true {
            if inbox.stopRequested { return .signal }
            for key in calibrationKeys(for: terminal?.readKeys() ?? []) {
                return key == .fitNow ? .fitNow : .cancelled
            }
            // Read for the rest of this frame.
            while sensor.time.monotonic() < nextFrame, !inbox.stopRequested {
                let remaining = max(0, nextFrame - sensor.time.monotonic())
                guard let sample = reader.next(timeout: remaining * sensor.speed) else { break }
                add(sample.field, acceleration: sample.acceleration)
                if isReady { break }
            }
            if let vehicle, sensor.now() >= nextVehicleFit, pairs.magnetic.count >= VehicleCalibration.minimumSamples {
                nextVehicleFit = sensor.now() + Self.vehicleRefitInterval
                vehicleOutcome = vehicle.solve(magnetic: pairs.magnetic, acceleration: pairs.acceleration)
            }
            lastState = viewState(title: title, expectedField: expectedField, status: reader.statusMessage)
            let now = sensor.time.monotonic()
            if isReady || now >= nextFrame {
                nextFrame = max(nextFrame + framePeriod, now)
                if let terminal {
                    let size = terminal.size() ?? (columns: 80, rows: 24)
                    let lines = renderCalibrationView(lastState, columns: size.columns, rows: size.rows, ascii: ascii)
                    guard screen.draw(lines, columns: size.columns, rows: size.rows) else { return .outputClosed }
                } else if !output.write(progressLine(lastState) + "\n") {
                    return .outputClosed
                }
            }
            if isReady { return .passed }
            if let timeLimit, sensor.now() - start >= timeLimit { return .timeLimit }
        }
    }

    private mutating func add(_ field: Vector3, acceleration: Vector3?) {
        session.add(field)
        if field.isFinite, raw.count < Self.maximumKept { raw.append(field) }
        if vehicle != nil, field.isFinite, pairs.magnetic.count < Self.maximumKept {
            pairs.magnetic.append(field)
            pairs.acceleration.append(acceleration)
        }
    }

    private func viewState(title: String, expectedField: Double?, status: String?) -> CalibrationViewState {
        var state = CalibrationViewState(title: title)
        state.bands = session.coverage.countsByBand
        state.progressPercent = session.progressPercent
        state.sampleCount = session.receivedCount
        state.distinctCount = session.distinctCount
        state.coveragePercent = session.coverage.coveragePercent
        state.gaps = session.coverage.gaps
        if let latest = session.latest {
            state.spreadPercent = latest.metrics.spreadAfterPercent
            state.residualPercent = latest.metrics.residualPercent
            state.wobblePercent = latest.metrics.wobblePercent
            state.fieldStrength = latest.fit.fieldStrength
        }
        state.expectedFieldStrength = expectedField
        state.issue = session.isReady ? "all checks passed: fitting…" : Self.shownIssue(session.issues)?.message
        state.status = status
        if vehicle != nil { vehicleView(&state) }
        return state
    }

    /// Vehicle mode: progress from the heading circle and the predicted error; the issue line
    /// shows the 18 heading sectors covered so far.
    private func vehicleView(_ state: inout CalibrationViewState) {
        let result: CalibrationResult?
        var issues: [CalibrationIssue] = []
        switch vehicleOutcome {
        case .success(let r)?: result = r
        case .failure(let f)?: result = f.result; issues = f.issues
        case nil: result = nil
        }
        let sectors = Self.sectors(pairs.magnetic, acceleration: pairs.acceleration, fit: result?.fit)
        let covered = sectors.filter { $0 }.count
        let samples = min(1, Double(pairs.magnetic.count) / Double(VehicleCalibration.minimumSamples))
        var heading = 0.0
        if let p = result?.headingError, p.level > 0, p.level.isFinite {
            heading = min(1, session.options.thresholds.maximumLevelHeadingError / p.level)
        }
        state.progressPercent = isReady ? 100 : min(99, Int((30 * samples + 35 * Double(covered) / 18 + 35 * heading).rounded(.down)))
        let bar = sectors.map { $0 ? "#" : "." }.joined()
        var line = "heading sectors [\(bar)] \(covered) of 18"
        if isReady {
            line += ": all checks passed"
        } else if let issue = Self.shownIssue(issues), covered >= 14 {
            line += ": " + issue.message
        } else {
            line += ": keep turning slow full circles, two in all"
        }
        state.issue = line
    }

    /// Which 20° heading sectors the horizontal field has pointed into: corrected by `fit` when
    /// there is one, else about the mean of the readings.
    static func sectors(_ magnetic: [Vector3], acceleration: [Vector3?], fit: EllipsoidFit?) -> [Bool] {
        var centre = Vector3.zero
        for m in magnetic { centre += m }
        centre = magnetic.isEmpty ? .zero : centre / Double(magnetic.count)
        return VehicleCalibration.headingSectors(magnetic.map { fit?.apply($0) ?? ($0 - centre) }, acceleration: acceleration)
    }

    /// The one issue worth showing while collecting: when the predicted heading error is the
    /// reason, what to do about it (the coverage or noise explanation) says more; its figures
    /// are in the progress line.
    static func shownIssue(_ issues: [CalibrationIssue]) -> CalibrationIssue? {
        guard case .headingErrorTooLarge? = issues.first, issues.count > 1 else { return issues.first }
        return issues[1]
    }

    /// "calibrating: 45 % (coverage 63 %, gaps 37.0, 412 distinct samples): <issue>".
    private func progressLine(_ s: CalibrationViewState) -> String {
        var line = "calibrating: \(s.progressPercent) % (coverage " + fixed(s.coveragePercent, 0) + " %, gaps "
            + fixed(s.gaps, 1) + ", \(s.distinctCount) distinct samples)"
        if let p = session.latest?.headingError, p.level.isFinite {
            line += ", heading ±" + fixed(p.level, 1) + "° level"
        }
        if let status = s.status { line += "; sensor: " + status }
        if let issue = s.issue { line += ": " + issue }
        return line
    }
}
