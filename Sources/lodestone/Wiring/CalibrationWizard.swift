import Calibration
import Glibc
import Options
import Sensors
import Platform
import Terminal

/// `lodestone calibrate`: the interactive wizard. Tumble the board while the coverage map fills;
/// it stops by itself when every check passes (or on Enter/s), shows the figures before and after,
/// asks before saving, then optionally calibrates the accelerometer (`--accel`) and aligns the
/// heading with a landmark (`--align`, or when asked).
///
/// ```swift
/// return try runCalibrationWizard(arguments)
/// ```
func runCalibrationWizard(_ arguments: ParsedArguments) throws -> ExitCode {
    let signals = SignalWatcher()
    let selection = try SensorSelection(arguments)
    let speed = try simulationSpeed(arguments, simulate: selection.simulate)
    let output = arguments.string("output")
    let saveWithoutAsking = arguments.flag("yes")
    let interactive = isatty(STDIN_FILENO) == 1
    let store: ProfileStore? = output == nil ? try ProfileStore(path: nil) : nil
    if !interactive && !saveWithoutAsking && output == nil {
        throw WizardError.cannotAsk(defaultPath: abbreviatingHome(store?.path ?? "the default calibration file"))
    }
    let timeLimit = try arguments.double("duration", in: 1...3600) ?? (interactive ? nil : 300)
    let ascii = arguments.flag("ascii") || !Environment.localeIsUTF8
    let out = StandardOutput()

    let sensor = try CalibrationSensor.open(selection, speed: speed)
    if arguments.flag("accel"), sensor.source.accelerometer == nil {
        throw WizardError.noAccelerometer(simulated: selection.simulate)
    }
    var place = try ExpectedField.fromLocationOption(arguments)
    if place == nil, let world = sensor.world {
        place = try? ExpectedField.at(latitude: world.latitude, longitude: world.longitude, unixSeconds: Clock.wall())
    }
    let info = sensor.source.info
    var options = CalibrationOptions(expectedFieldStrength: place?.total, expectedInclinationDegrees: place?.inclination,
                                     fullScaleRange: info.fullScale)
    if place == nil { options.plausibleFieldRange = 20...75 }
    let sensorName = info.chip.displayName + (selection.simulate ? " (simulated)" : " on bus \(info.bus) at \(hexAddress(info.address))")
    out.write("Calibrating the \(sensorName). Expected field: "
              + (place.map(\.summary) ?? "unknown (give --location LAT,LON for the field-strength check)") + "\n")

    var collection = CalibrationCollection(sensor: sensor, signals: signals, session: CalibrationSession(options: options))
    let useScreen = TerminalDevice().isOutputTerminal && Environment.value("TERM") != "dumb"
    if !useScreen {
        out.write("Hold the board away from metal. Turn it slowly through every orientation: roll it, pitch it, turn it upside down.\n")
    }
    let end = collection.run(title: "Lodestone calibration: " + sensorName, expectedField: place?.total, ascii: ascii,
                             timeLimit: timeLimit, screen: useScreen)
    switch end {
    case .cancelled, .signal:
        out.write("calibration cancelled; nothing was saved\n")
        return .success
    case .outputClosed:
        return .success
    case .passed, .fitNow, .timeLimit:
        break
    }
    out.write("\n")
    for line in renderCoverageMap(bands: collection.session.coverage.countsByBand, discRows: 9, ascii: ascii) {
        out.write(line + "\n")
    }
    let reason = end == .passed ? "every check passed" : (end == .fitNow ? "stopped by you" : "time limit reached")
    out.write("Calibration finished (\(reason)).\n")

    let input = PromptInput(signals: signals)
    input.discardPendingTerminalInput()
    let finished = collection.session.finish()
    var best: CalibrationResult?
    switch finished {
    case .success(let r): best = r
    case .failure(let failure): best = failure.result
    }
    let outcome = best.map { CalibrationOutcome(result: $0, samples: collection.raw, expectedField: place?.total) }
    if let outcome { printSummary(outcome) }
    if case .failure(let failure) = finished {
        out.write("The calibration does not pass:\n" + failure.issues.map { "  - " + $0.message }.joined(separator: "\n") + "\n")
    } else {
        out.write("checks        all passed\n")
    }
    guard let outcome else { throw WizardError.notPassed }
    if case .failure = finished {
        guard interactive, input.ask("Save this calibration anyway?", defaultYes: false) == .yes else {
            throw WizardError.notPassed
        }
    }
    var profile = outcome.profile(sensor: sensor.identity, unit: "uT")
    let target = output ?? store?.path ?? ""
    if output == nil && !saveWithoutAsking {
        switch input.ask("Save to \(abbreviatingHome(target))?", defaultYes: true) {
        case .yes: break
        case .no:
            out.write("not saved\n")
            return .success
        case .interrupted:
            out.write("calibration cancelled; nothing was saved\n")
            return .success
        }
    }
    try save(profile, output: output, store: store)
    out.write("saved the profile for \(profile.sensor) to \(abbreviatingHome(target))\n")

    if arguments.flag("accel") {
        if let cal = runAccelerometerStep(sensor: sensor, input: input, signals: signals) {
            profile.accelerometer = cal
            try save(profile, output: output, store: store)
            out.write("saved the accelerometer calibration\n")
        }
    }
    var align = arguments.flag("align") || arguments.string("bearing") != nil
    if !align && interactive && !signals.stopRequested {
        align = input.ask("Align heading with a landmark?", defaultYes: false) == .yes
    }
    if align, !signals.stopRequested,
       let offset = runHeadingAlignment(profile: profile, sensor: sensor, input: input, signals: signals,
                                        place: place, bearingText: arguments.string("bearing")) {
        profile.yawOffsetDegrees = offset
        try save(profile, output: output, store: store)
        out.write("saved the heading offset\n")
    }
    out.write("done: 'lodestone watch" + (selection.simulate ? " --simulate" : "")
              + (output.map { " --calibration \($0)" } ?? "") + "' now uses this calibration\n")
    return .success
}

private func printSummary(_ outcome: CalibrationOutcome) {
    StandardOutput().write(outcome.summaryLines(unit: "µT").joined(separator: "\n") + "\n")
}

/// `--output FILE`: one profile document; otherwise the default calibration file (other sensors'
/// profiles kept). Both written atomically.
private func save(_ profile: CalibrationProfile, output: String?, store: ProfileStore?) throws {
    if let output {
        do {
            try Files.writeAtomically(output, contents: profile.jsonValue.serialized(pretty: true) + "\n")
        } catch {
            throw ProfileStoreError.unwritable(path: output, error.message)
        }
    } else if let store {
        try store.save(profile)
    }
}

/// `--sim-speed X`, only with `--simulate`.
func simulationSpeed(_ arguments: ParsedArguments, simulate: Bool) throws -> Double {
    guard let speed = try arguments.double("sim-speed", in: 1...50) else { return 1 }
    guard simulate else { throw UsageError.conflict("--sim-speed needs --simulate (real sensors run in real time)") }
    return speed
}

/// Why the wizard cannot start or finish.
enum WizardError: UserFacingError {
    case cannotAsk(defaultPath: String)
    case noAccelerometer(simulated: Bool)
    case notPassed

    var message: String {
        switch self {
        case .cannotAsk(let path):
            return "standard input is not a terminal, so the wizard cannot ask before saving: "
                + "pass --yes to save to \(path), or --output FILE to write the profile there"
        case .noAccelerometer(let simulated):
            return "--accel needs an accelerometer, and none was found"
                + (simulated ? ": add one to the simulation, e.g. --accelerometer mpu6050"
                             : ": connect one (LSM303AGR, ICM-20948, MPU-6050) or name it with --accelerometer")
        case .notPassed:
            return "calibration not saved: turn the board through every orientation, away from metal, and run 'lodestone calibrate' again"
        }
    }

    var exitCode: ExitCode {
        switch self {
        case .cannotAsk: return .usage
        case .noAccelerometer: return .unavailable
        case .notPassed: return .dataError
        }
    }
}
