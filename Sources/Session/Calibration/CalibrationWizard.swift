import Calibration
import Glibc
import Sensors
import Platform
import Terminal

/// What the calibration wizard (`lodestone calibrate`) was asked to do.
public struct WizardRequest: Sendable {
    public var sensors: SensorSelection
    /// With the simulator: sensor seconds per real second (1–50).
    public var simulationSpeed: Double
    /// Where the calibration happens (`--location`); with the simulator, the simulated place is used.
    public var place: ExpectedPlace?
    /// Write the profile document here instead of the default calibration file.
    public var output: String?
    /// Save to the default file without asking.
    public var saveWithoutAsking: Bool
    /// Longest time to collect, seconds; nil: until it passes (`unattendedLimit` without a terminal).
    public var duration: Double?
    /// How long the wizard collects without a terminal when `duration` does not say, seconds.
    public static let unattendedLimit = 300.0
    /// Also calibrate the accelerometer.
    public var accelerometer: Bool
    /// Align the heading with a landmark afterwards.
    public var align: Bool
    /// The landmark's bearing as typed (else it is asked for).
    public var bearing: String?
    public var ascii: Bool
    /// A compass fixed in a vehicle (`--vehicle`): calibrate from slow circles with the
    /// accelerometer and the place's expected field and dip, instead of a tumble.
    public var vehicle: Bool

    public init(sensors: SensorSelection, simulationSpeed: Double = 1, place: ExpectedPlace? = nil, output: String? = nil,
                saveWithoutAsking: Bool = false, duration: Double? = nil, accelerometer: Bool = false,
                align: Bool = false, bearing: String? = nil, ascii: Bool = false, vehicle: Bool = false) {
        self.vehicle = vehicle
        self.sensors = sensors
        self.simulationSpeed = simulationSpeed
        self.place = place
        self.output = output
        self.saveWithoutAsking = saveWithoutAsking
        self.duration = duration
        self.accelerometer = accelerometer
        self.align = align
        self.bearing = bearing
        self.ascii = ascii
    }
}

/// `lodestone calibrate`: the interactive wizard. Tumble the board while the coverage map fills;
/// it stops by itself when every check passes (or on Enter/s), shows the figures before and after,
/// asks before saving, then optionally calibrates the accelerometer (`--accel`) and aligns the
/// heading with a landmark (`--align`, or when asked).
///
/// ```swift
/// return try runCalibrationWizard(WizardRequest(sensors: SensorSelection(simulate: true)), runtime: runtime)
/// ```
public func runCalibrationWizard(_ request: WizardRequest, runtime: Runtime) throws -> ExitCode {
    let inbox = ControlInbox(runtime.events)
    let selection = request.sensors
    let output = request.output
    let saveWithoutAsking = request.saveWithoutAsking
    let interactive = runtime.interactiveInput
    let home = runtime.environment.value("HOME")
    let store: ProfileStore? = output == nil ? try ProfileStore(path: nil, configFolder: runtime.environment.configFolder) : nil
    if !interactive && !saveWithoutAsking && output == nil {
        throw WizardError.cannotAsk(defaultPath: abbreviatingHome(store?.path ?? "the default calibration file", home: home))
    }
    let input = PromptInput(inbox: inbox, runtime: runtime)
    // A corrupt calibration file is found now, not after minutes of turning the sensor: the user
    // may replace it (it is kept beside as FILE.corrupt) or stop and look at it.
    if let store, case .corrupt(let path, let why)? = store.problem {
        guard interactive, !saveWithoutAsking else { throw ProfileStoreError.corrupt(path: path, why) }
        runtime.output.write("The calibration file \(abbreviatingHome(path, home: home)) cannot be read: \(sanitize(why))\n")
        guard input.ask("Replace it with a new file (the old one is kept as \(path.split(separator: "/").last.map(String.init) ?? path).corrupt)?",
                        defaultYes: false) == .yes else {
            runtime.output.write("nothing was changed; move the file aside or fix it, then calibrate again\n")
            return .dataError
        }
        try store.setAsideCorrupt()
    }
    let timeLimit = request.duration ?? (interactive ? nil : WizardRequest.unattendedLimit)
    let ascii = request.ascii || !runtime.environment.localeIsUTF8
    let out = runtime.output

    let sensor = try CalibrationSensor.open(selection, speed: request.simulationSpeed, time: runtime.time, vehicle: request.vehicle)
    if request.accelerometer, sensor.source.accelerometer == nil {
        throw WizardError.noAccelerometer(simulated: selection.simulate)
    }
    if request.vehicle, sensor.source.accelerometer == nil {
        throw WizardError.vehicleNeedsAccelerometer(simulated: selection.simulate)
    }
    var place = request.place
    if place == nil, let world = sensor.world {
        place = ExpectedPlace.at(latitude: world.latitude, longitude: world.longitude, unixSeconds: runtime.time.wall())
    }
    if request.vehicle, place == nil { throw WizardError.vehicleNeedsLocation }
    let info = sensor.source.info
    var options = CalibrationOptions(expectedFieldStrength: place?.total, expectedInclinationDegrees: place?.inclination,
                                     fullScaleRange: info.fullScale)
    if place == nil { options.plausibleFieldRange = 20...75 }
    let sensorName = info.chip.displayName + (selection.simulate ? " (simulated)" : " on bus \(info.bus) at \(hexAddress(info.address))")
    out.write("Calibrating the \(sensorName). Expected field: "
              + (place.map(\.summary) ?? "unknown (give --location LAT,LON for the field-strength check)") + "\n")

    var collection = CalibrationCollection(sensor: sensor, inbox: inbox, session: CalibrationSession(options: options),
                                           vehicle: request.vehicle ? VehicleCalibration(options: options) : nil)
    let useScreen = runtime.terminal != nil && runtime.environment.value("TERM") != "dumb"
    if request.vehicle {
        out.write("Mounted in a vehicle: turn two slow full circles (a minute or more each) on level ground or calm water, "
                  + "away from other vehicles and steel structures.\n")
    } else if !useScreen {
        out.write("Hold the board away from metal. Turn it slowly through every orientation: roll it, pitch it, turn it upside down.\n")
    }
    let end = collection.run(runtime: runtime, title: "Lodestone calibration: " + sensorName, expectedField: place?.total, ascii: ascii,
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
    if request.vehicle {
        out.write(collection.lastState.issue.map { $0 + "\n" } ?? "")
    } else {
        for line in renderCoverageMap(bands: collection.session.coverage.countsByBand, discRows: 9, ascii: ascii) {
            out.write(line + "\n")
        }
    }
    let reason = end == .passed ? "every check passed" : (end == .fitNow ? "stopped by you" : "time limit reached")
    out.write("Calibration finished (\(reason)).\n")

    input.discardPendingTerminalInput()
    let finished = collection.finish()
    var best: CalibrationResult?
    switch finished {
    case .success(let r): best = r
    case .failure(let failure): best = failure.result
    }
    let outcome = best.map { CalibrationOutcome(result: $0, samples: collection.raw, expectedField: place?.total,
                                                fullScale: options.fullScaleRange) }
    if let outcome { out.write(([methodLine(outcome.result)] + outcome.summaryLines(unit: "µT")).joined(separator: "\n") + "\n") }
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
    var profile = outcome.profile(sensor: sensor.identity, unit: "uT", created: ISO8601.format(runtime.time.wall()))
    let target = output ?? store?.path ?? ""
    if output == nil && !saveWithoutAsking {
        switch input.ask("Save to \(abbreviatingHome(target, home: home))?", defaultYes: true) {
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
    out.write("saved the profile for \(profile.sensor) to \(abbreviatingHome(target, home: home))\n")

    if request.accelerometer {
        if let cal = runAccelerometerStep(sensor: sensor, input: input, inbox: inbox) {
            profile.accelerometer = cal
            try save(profile, output: output, store: store)
            out.write("saved the accelerometer calibration\n")
        }
    }
    var align = request.align || request.bearing != nil
    if !align && interactive && !inbox.stopRequested {
        align = input.ask("Align heading with a landmark?", defaultYes: false) == .yes
    }
    if align, !inbox.stopRequested,
       let offset = runHeadingAlignment(profile: profile, sensor: sensor, input: input, inbox: inbox,
                                        place: place, bearingText: request.bearing) {
        profile.yawOffsetDegrees = offset
        try save(profile, output: output, store: store)
        out.write("saved the heading offset\n")
    }
    out.write("done: 'lodestone watch" + (selection.simulate ? " --simulate" : "")
              + (output.map { " --calibration " + sanitize($0) } ?? "") + "' now uses this calibration\n")
    return .success
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

/// Why the wizard cannot start or finish.
public enum WizardError: UserFacingError, Equatable {
    case cannotAsk(defaultPath: String)
    case noAccelerometer(simulated: Bool)
    case vehicleNeedsAccelerometer(simulated: Bool)
    case vehicleNeedsLocation
    case notPassed

    public var message: String {
        switch self {
        case .cannotAsk(let path):
            return "standard input is not a terminal, so the wizard cannot ask before saving: "
                + "pass --yes to save to \(path), or --output FILE to write the profile there"
        case .noAccelerometer(let simulated):
            return "--accel needs an accelerometer, and none was found"
                + (simulated ? ": add one to the simulation, e.g. --accelerometer mpu6050"
                             : ": connect one (LSM303AGR, ICM-20948, MPU-6050) or name it with --accelerometer")
        case .vehicleNeedsAccelerometer(let simulated):
            return "--vehicle needs an accelerometer beside the magnetometer (gravity tells the fit which way is down), and none was found"
                + (simulated ? ": add one to the simulation, e.g. --accelerometer mpu6050"
                             : ": connect one (LSM303AGR, ICM-20948, MPU-6050) or name it with --accelerometer")
        case .vehicleNeedsLocation:
            return "--vehicle needs the place (--location LAT,LON): the World Magnetic Model's field strength and dip there "
                + "are what make the circles enough to calibrate"
        case .notPassed:
            return "calibration not saved: turn the board through every orientation, away from metal, and run 'lodestone calibrate' again"
        }
    }

    public var exitCode: ExitCode {
        switch self {
        case .cannotAsk: return .usage
        case .noAccelerometer, .vehicleNeedsAccelerometer: return .unavailable
        case .vehicleNeedsLocation: return .usage
        case .notPassed: return .dataError
        }
    }
}
