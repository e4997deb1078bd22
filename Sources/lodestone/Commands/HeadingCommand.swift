import Calibration
import Heading
import JSON
import Linear
import Options
import Platform

/// `lodestone heading --from-file`: a recorded raw file through the same filter stage as `watch`,
/// so old recordings can be re-processed with a new calibration.
enum HeadingCommand: Command {
    static let spec = CommandSpec(
        name: "heading",
        abstract: "run a recorded raw file (t,x,y,z[,ax,ay,az]) through the filter stage",
        usage: "--from-file raw.csv [--calibration PROFILE] [--location LAT,LON | --declination DEG]\n"
            + "       [--year Y] [--unit uT|gauss|nT] [--smoothing S] [--format csv|json]",
        options: [
            Option("from-file", value: "FILE", help: "the recording: header with t (s), x,y,z (or mx,my,mz), optional ax,ay,az (g), body axes"),
            Option("calibration", value: "PROFILE", help: "calibration profile to apply (a profile document or a calibration file)"),
            Option("sensor", value: "NAME", help: "which profile to use when the calibration file holds several (its chip name)"),
            Option("year", value: "Y", help: "decimal year the recording started, for the WMM declination (default: now)"),
            Option("unit", value: "UNIT", help: "unit of x,y,z: uT (default), gauss, nT or mG"),
            Option("format", value: "FORMAT", help: "csv (default) or json (one object per line)"),
        ] + headingOptions.filter { $0.name != "deviation" },
        discussion: """
        Output columns: t (copied from the input), heading_magnetic_deg, heading_true_deg, accuracy_deg,
        heading_magnetic_raw_deg, declination_deg, declination_source, field_uT, roll_deg, pitch_deg, flags.
        True heading needs --location or --declination. Example:
          lodestone heading --from-file raw.csv --calibration profile.json --location -33.87,151.21 --year 2026.5
        """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        guard let path = arguments.string("from-file") else {
            throw UsageError.missingArgument("--from-file FILE", command: spec.name)
        }
        let json = try arguments.choice("format", from: ["csv", "json"]) == "json"
        let unitName = arguments.string("unit") ?? "uT"
        guard let scale = CalibrationProfile.microteslaPerUnit(unitName) else {
            throw UsageError.invalidValue(option: "unit", value: unitName, expected: "uT, gauss, nT or mG")
        }
        let options = try HeadingOptions(arguments)
        let startWall = try arguments.double("year", in: 1900...2100).map(unixTime(ofDecimalYear:)) ?? Clock.wall()
        let loaded = try arguments.string("calibration").map { try loadOfflineProfile($0, sensor: arguments.string("sensor")) }
        // A profile in a known unit is applied in µT; one in the recording's own unit ("input",
        // counts) is applied before the unit conversion.
        let profile = loaded.flatMap { $0.inMicrotesla() }
        let inputProfile = profile == nil ? loaded : nil
        let text: String
        do { text = try Files.readText(path) } catch { throw error }
        let recording = try Recording.parse(text, path: path)
        guard let times = recording.times, let timeTexts = recording.timeTexts else {
            throw RecordingError.missingColumns(path: path, found: recording.magneticColumns + ["(no t column: add the sample time in seconds)"])
        }
        for bad in recording.badRows.prefix(10) {
            StandardOutput.error("lodestone heading: \(path) line \(bad.line): \(bad.reason); skipped")
        }
        var configuration = options.configuration
        configuration.deviationMode = .off
        configuration.calibrationResidualMicrotesla = uncalibratedResidualMicrotesla
        if let loaded {
            configuration.calibrationResidualMicrotesla = profile?.residualField() ?? loaded.residualField(scale: scale)
        }
        var filter = HeadingFilter(configuration: configuration)
        let out = StandardOutput()
        if !json { guard out.write(header + "\n") else { return .success } }
        var skipped = 0
        var lines: [String] = []
        for i in recording.magnetic.indices {
            guard let t = times[i] else { skipped += 1; continue }
            let input = recording.magnetic[i]
            let magnetic = inputProfile.map { $0.apply(input) * scale } ?? profile.map { $0.apply(input * scale) } ?? input * scale
            let acceleration = recording.acceleration?[i].map { a in loaded?.accelerometer?.apply(a) ?? a }
            guard let e = filter.update(sample: CalibratedSample(monotonic: t, wall: startWall + t,
                                                                 magnetic: magnetic, acceleration: acceleration))
            else { skipped += 1; continue }
            lines.append(json ? jsonLine(timeTexts[i], e) : csvLine(timeTexts[i], e))
            if lines.count >= 256 {
                guard out.write(lines.joined(separator: "\n") + "\n") else { return .success }
                lines.removeAll(keepingCapacity: true)
            }
        }
        if !lines.isEmpty { guard out.write(lines.joined(separator: "\n") + "\n") else { return .success } }
        if skipped > 0 { StandardOutput.error("lodestone heading: \(skipped) rows without a usable time or value were skipped") }
        return .success
    }

    static let header = "t,heading_magnetic_deg,heading_true_deg,accuracy_deg,heading_magnetic_raw_deg,declination_deg,"
        + "declination_source,field_uT,roll_deg,pitch_deg,flags"

    static func csvLine(_ t: String, _ e: HeadingEstimate) -> String {
        func v(_ x: Double?, _ d: Int = 4) -> String { x.map { plain($0, decimals: d) } ?? "" }
        return [t, v(e.magneticHeading), v(e.trueHeading), e.isAccuracyAvailable ? v(e.accuracy, 3) : "",
                v(e.rawMagneticHeading), v(e.declination), e.declinationSource.label, v(e.fieldStrength, 3),
                v(e.roll, 3), v(e.pitch, 3), e.flags.names.joined(separator: "|")].joined(separator: ",")
    }

    static func jsonLine(_ t: String, _ e: HeadingEstimate) -> String {
        func n(_ x: Double?) -> JSONValue { x.map { .number($0) } ?? .null }
        return JSONValue.object([
            ("t", Double(t).map { .number($0) } ?? .string(t)), ("heading_magnetic_deg", n(e.magneticHeading)),
            ("heading_true_deg", n(e.trueHeading)), ("accuracy_deg", e.isAccuracyAvailable ? n(e.accuracy) : .null),
            ("heading_magnetic_raw_deg", n(e.rawMagneticHeading)), ("declination_deg", n(e.declination)),
            ("declination_source", .string(e.declinationSource.label)), ("field_uT", n(e.fieldStrength)),
            ("roll_deg", n(e.roll)), ("pitch_deg", n(e.pitch)), ("flags", .array(e.flags.names.map { .string($0) })),
        ]).serialized()
    }

    /// The profile from a file: a single profile document, the only profile in a calibration file,
    /// or the one for `--sensor`.
    static func loadOfflineProfile(_ path: String, sensor: String?) throws -> CalibrationProfile {
        let file = try ProfileStore(path: path).loadAll()
        let candidates = sensor.map { name in file.profiles.filter { $0.sensor.chip == name } } ?? file.profiles
        guard candidates.count == 1, let profile = candidates.first else {
            let names = file.profiles.map(\.sensor.description).joined(separator: "; ")
            throw ProfileStoreError.corrupt(path: path, candidates.isEmpty
                ? "it holds no profile\(sensor.map { " for \($0)" } ?? "") (it has: \(names.isEmpty ? "none" : names))"
                : "it holds several profiles (\(names)); choose one with --sensor NAME")
        }
        return profile
    }

    /// Unix seconds at the start of a decimal year's fraction.
    static func unixTime(ofDecimalYear y: Double) -> Double {
        let year = Int(y.rounded(.down))
        let start = Double(ISO8601.daysFromCivil(year, 1, 1)) * 86400
        let end = Double(ISO8601.daysFromCivil(year + 1, 1, 1)) * 86400
        return start + (y - Double(year)) * (end - start)
    }
}
