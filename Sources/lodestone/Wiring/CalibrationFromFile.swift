import Calibration
import JSON
import Options
import Platform

/// `lodestone calibrate --from-file raw.csv [--output profile.json]`: fits a recording and writes
/// one profile document (JSON) to the output file, or to stdout; a summary goes to stderr.
///
/// ```swift
/// return try calibrateFromFile(arguments, path: "raw.csv")
/// ```
func calibrateFromFile(_ arguments: ParsedArguments, path: String) throws -> ExitCode {
    for option in ["simulate", "record", "align", "accel", "yes", "bearing", "sim-speed", "orientation", "accelerometer", "duration"]
    where arguments.flag(option) || arguments.string(option) != nil {
        throw UsageError.conflict("--\(option) cannot be used with --from-file (it fits a recording; no sensor is read)")
    }
    let unit = try arguments.choice("unit", from: ["uT", "gauss", "counts"]) ?? "input"
    let place = try ExpectedField.fromLocationOption(arguments)
    let identity = SensorIdentity(chip: arguments.string("sensor").map(sanitize) ?? "recording",
                                  bus: try arguments.int("bus", in: 0...255), address: try arguments.int("address", in: 0...0x7F))
    let output = arguments.string("output")

    let text = try Files.readText(path)
    let recording = try Recording.parse(text, path: path)
    for bad in recording.badRows.prefix(10) {
        StandardOutput.error("lodestone calibrate: \(path) line \(bad.line): \(bad.reason); row skipped")
    }
    if recording.badRows.count > 10 {
        StandardOutput.error("lodestone calibrate: … and \(recording.badRows.count - 10) more bad rows skipped")
    }

    var options = CalibrationOptions()
    let scale = unit == "uT" ? 1.0 : (unit == "gauss" ? 0.01 : nil)
    if let scale {
        options.plausibleFieldRange = (15 * scale)...(100 * scale)
        if let place { options.expectedFieldStrength = place.total * scale }
    }
    if let place { options.expectedInclinationDegrees = place.inclination }

    let result: CalibrationResult
    switch CalibrationSolver(options: options).solve(recording.magnetic) {
    case .success(let r):
        result = r
    case .failure(let failure):
        guard let r = failure.result, arguments.flag("force") else {
            throw CalibrationFitError(path: path, failure: failure, canForce: failure.result != nil)
        }
        result = r
    }
    let outcome = CalibrationOutcome(result: result, samples: recording.magnetic,
                                     expectedField: options.expectedFieldStrength)
    let profile = outcome.profile(sensor: identity, unit: unit)
    let json = profile.jsonValue.serialized(pretty: true) + "\n"

    let unitLabel = unit == "input" ? "(input unit)" : (unit == "uT" ? "µT" : unit)
    var summary = ["calibration of \(path): \(recording.magnetic.count) samples"
        + (recording.badRows.isEmpty ? "" : " (\(recording.badRows.count) bad rows skipped)")
        + ", columns " + recording.magneticColumns.joined(separator: ",")]
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
    StandardOutput.error(summary.joined(separator: "\n"))
    if output == nil, !StandardOutput().write(json) { return .success }
    return .success
}

/// The recording could not be calibrated: the solver's reasons, each with its fix. Exit 65.
struct CalibrationFitError: UserFacingError {
    let path: String
    let failure: CalibrationFailure
    let canForce: Bool

    var message: String {
        var text = "cannot calibrate from \(path):\n" + failure.issues.map { "  - " + $0.message }.joined(separator: "\n")
        if let r = failure.result {
            text += "\n(best fit: \(r.fit.model.rawValue) model, coverage " + fixed(r.metrics.coveragePercent, 0)
                + " %, residual " + percentText(r.metrics.residualPercent) + ")"
        }
        if canForce { text += "\nrecord again with better coverage, or pass --force to write this fit anyway" }
        return text
    }

    var exitCode: ExitCode { .dataError }
}
