import Calibration
import JSON
import Platform

/// The unit of a recording `calibrate --from-file` fits (`--unit`); µT and gauss enable the
/// field-strength checks.
public enum RecordingUnit: String, Sendable, CaseIterable {
    case uT, gauss, counts

    /// Units per microtesla (a field in µT times this is in the unit); nil for raw counts.
    var perMicrotesla: Double? {
        switch self {
        case .uT: return 1
        case .gauss: return 0.01
        case .counts: return nil
        }
    }
}

/// What `lodestone calibrate --from-file` was asked to do.
public struct CalibrationFileRequest: Sendable {
    /// The recording (CSV).
    public var path: String
    /// The recording's unit; nil: unknown (the profile says "input").
    public var unit: RecordingUnit?
    /// Where the calibration happened, for the expected field.
    public var place: ExpectedPlace?
    /// The identity the profile is stored under.
    public var sensor: SensorIdentity
    /// Where to write the profile; nil: standard output.
    public var output: String?
    /// Write the fit even when it fails the checks.
    public var force: Bool
    /// Use the vehicle fit (circles, gravity and the place) even when gravity moved more than a
    /// vehicle's roll and pitch; without it the recording decides.
    public var vehicle: Bool

    /// The chip name a fitted recording's profile is stored under when `--sensor` does not say.
    public static let recordingChip = "recording"

    public init(path: String, unit: RecordingUnit? = nil, place: ExpectedPlace? = nil,
                sensor: SensorIdentity = SensorIdentity(chip: recordingChip), output: String? = nil, force: Bool = false,
                vehicle: Bool = false) {
        self.vehicle = vehicle
        self.path = path
        self.unit = unit
        self.place = place
        self.sensor = sensor
        self.output = output
        self.force = force
    }
}

/// `lodestone calibrate --from-file raw.csv [--output profile.json]`: fits a recording and writes
/// one profile document (JSON) to the output file, or to stdout; a summary goes to stderr.
///
/// ```swift
/// return try calibrateFromFile(CalibrationFileRequest(path: "raw.csv", unit: .uT), runtime: runtime)
/// ```
public func calibrateFromFile(_ request: CalibrationFileRequest, runtime: Runtime) throws -> ExitCode {
    let path = request.path, place = request.place, output = request.output
    let unit = request.unit?.rawValue ?? "input"
    let identity = request.sensor
    if let output, Files.same(output, path) {
        throw InvalidRequest("--output \(output) would overwrite the recording being calibrated; choose another file")
    }
    let recording = try Recording.read(path: path, standardInput: runtime.standardInputPath)
    for bad in recording.badRows.prefix(10) {
        runtime.say("\(path) line \(bad.line): \(bad.reason); row skipped")
    }
    if recording.badRowCount > 10 {
        runtime.say("… and \(recording.badRowCount - 10) more bad rows skipped")
    }

    var options = CalibrationOptions()
    let scale = request.unit?.perMicrotesla
    if let scale {
        options.plausibleFieldRange = (15 * scale)...(100 * scale)
        if let place { options.expectedFieldStrength = place.total * scale }
    }
    if let place { options.expectedInclinationDegrees = place.inclination }
    // Readings beyond what any supported chip can measure are not readings: ±4,912 µT (AK09916,
    // the widest) in µT or gauss, and a 16-bit register in counts.
    options.fullScaleRange = Recording.widestFullScale(unit: unit)

    // A recording whose gravity hardly moved was turned in circles (a compass fixed in a vehicle):
    // with the place (field strength and dip) and gravity, the vehicle fit can use it.
    let circling = request.vehicle || (recording.acceleration.map(VehicleCalibration.isCircling) ?? false)
    if request.vehicle, recording.acceleration == nil { throw RecordingError.vehicleNeedsAcceleration(path: path) }
    let solved: Result<CalibrationResult, CalibrationFailure>
    if circling, place != nil || request.vehicle, let acceleration = recording.acceleration {
        solved = VehicleCalibration(options: options).solve(magnetic: recording.magnetic, acceleration: acceleration)
    } else {
        solved = CalibrationSolver(options: options).solve(recording.magnetic)
    }
    let result: CalibrationResult
    switch solved {
    case .success(let r):
        result = r
    case .failure(let failure):
        guard let r = failure.result, request.force else {
            throw CalibrationFitError(path: path, failure: failure, canForce: failure.result != nil)
        }
        result = r
    }
    let outcome = CalibrationOutcome(result: result, samples: recording.magnetic,
                                     expectedField: options.expectedFieldStrength, fullScale: options.fullScaleRange)
    let profile = outcome.profile(sensor: identity, unit: unit, created: ISO8601.format(runtime.time.wall()))
    // The profile, and beside it how the fit compares with its algebraic seed (which was kept, and why).
    var document = profile.jsonValue
    if let seed = result.seed, case .object(var pairs) = document {
        pairs.append(("seed", seed.jsonValue))
        document = .object(pairs)
    }
    let json = document.serialized(pretty: true) + "\n"

    let unitLabel = request.unit.map { $0 == .uT ? "µT" : $0.rawValue } ?? "(input unit)"
    var summary = ["calibration of \(path): \(recording.magnetic.count) samples"
        + (recording.badRowCount == 0 ? "" : " (\(recording.badRowCount) bad rows skipped)")
        + ", columns " + recording.magneticColumns.joined(separator: ",")]
    summary.append(methodLine(result))
    summary += outcome.summaryLines(unit: unitLabel)
    summary.append(result.issues.isEmpty ? "checks        all passed"
                   : "checks        FAILED (written because of --force):\n" + result.issues.map { "  - " + $0.message }.joined(separator: "\n"))
    if let output {
        do {
            try Files.writeAtomically(output, contents: json)
        } catch {
            throw ProfileStoreError.unwritable(path: output, error.message)
        }
        summary.append("profile written to \(output)")
    }
    runtime.diagnostics.write(sanitize(summary.joined(separator: "\n"), keepingLineBreaks: true) + "\n")
    if output == nil, !runtime.output.write(json) { return .success }
    return .success
}

/// "method        vehicle: circles, the expected field strength and dip, and gravity (18 of 18 heading sectors)".
func methodLine(_ result: CalibrationResult) -> String {
    switch result.method {
    case .ellipsoid:
        return "method        ellipsoid through the turned samples"
    case .vehicle:
        return "method        vehicle: circles, the expected field strength and dip, and gravity"
            + (result.headingBins.map { " (\($0) of 18 heading sectors)" } ?? "")
    }
}

/// The recording could not be calibrated: the solver's reasons, each with its fix. Exit 65.
public struct CalibrationFitError: UserFacingError {
    let path: String
    let failure: CalibrationFailure
    let canForce: Bool

    public var message: String {
        var text = "cannot calibrate from \(path):\n" + failure.issues.map { "  - " + $0.message }.joined(separator: "\n")
        if let r = failure.result {
            text += "\n(best fit: \(r.fit.model.rawValue) model, coverage " + fixed(r.metrics.coveragePercent, 0)
                + " %, residual " + percentText(r.metrics.residualPercent) + "; " + headingLine(r.headingError) + ")"
            if let seed = r.seed, seed.keptAlgebraic { text += "\n(" + seed.explanation + ")" }
        }
        if canForce { text += "\nrecord again as the reasons say, or pass --force to write this fit anyway" }
        return text
    }

    public var exitCode: ExitCode { .dataError }
}
