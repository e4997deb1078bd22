import Calibration
import Options
import Platform
import Session

/// `lodestone calibrate`: the calibration wizard, raw recording, and fitting a recording.
enum CalibrateCommand: Command {
    static let yes = Option("yes", short: "y", help: "save to the sensor's calibration file without asking")
    static let output = Option("output", short: "o", value: "FILE",
                absent: "the calibration file, $XDG_CONFIG_HOME/lodestone/calibration.json, else "
                + "~/.config/lodestone/calibration.json; with --from-file, standard output",
                help: "write the profile (one JSON document) to FILE")
    static let align = Option("align", help: "after calibrating, align the heading with a landmark of known bearing")
    static let bearing = Option("bearing", value: "BEARING", help: "the landmark's bearing for --align, e.g. 123, 123°T, 118M, SE, 北偏东30度 "
                + "(otherwise it is asked for)")
    static let accel = Option("accel", help: "also calibrate the accelerometer: six still poses, one per side facing up")
    static let duration = Option("duration", value: "S", range: 0.1...86_400,
                absent: "the wizard, until it passes or you stop it (\(plain(WizardRequest.unattendedLimit)) s without a terminal); "
                + "--record, until Ctrl-C",
                help: "longest time to collect (the wizard: at least \(plain(wizardDurations.lowerBound)) s, at most "
                + "\(plain(wizardDurations.upperBound)) s), or the length of a --record recording")
    /// The wizard's part of `--duration`'s range.
    static let wizardDurations = 1.0...3600
    static let record = Option("record", value: "FILE", help: "record raw samples to a new CSV file instead of calibrating: "
                + "t,x,y,z (s, µT, body axes, before calibration) plus ax,ay,az (g) with an accelerometer")
    static let fromFile = Option("from-file", value: "FILE", help: "fit a recorded CSV (- for standard input; header with x,y,z or mx,my,mz in any one unit; "
                + "optional t and ax,ay,az) and print the profile as JSON")
    static let unit = Option("unit", value: "UNIT", choices: RecordingUnit.self, absent: "unknown, \"input\"",
                help: "with --from-file: the recording's unit; uT and gauss enable the field-strength checks")
    static let force = Option("force", help: "with --from-file: write the fit even when it does not pass the checks")
    static let vehicle = Option("vehicle", help: "the compass is fixed in a vehicle (boat, car): calibrate from two slow full "
                + "circles instead of a tumble; needs an accelerometer and --location")
    static let ascii = Option("ascii", help: "draw the coverage map in plain ASCII (automatic when the locale is not UTF-8)")
    static let simSpeed = Option("sim-speed", value: "X", range: 1...50.0, default: 1,
                help: "with --simulate: run the simulated board X times faster than real time (for demos and tests)")

    static let spec = CommandSpec(
        name: "calibrate",
        abstract: "calibrate the magnetometer (wizard), record raw samples, or fit a recording",
        options: SensorOptions.options + [PlaceOption.location, yes, output, align, bearing, accel, duration, record,
                                          fromFile, unit, force, vehicle, ascii, simSpeed],
        usageGroups: [.oneOf([yes, output]), .oneOf([record, fromFile])],
        discussion: """
        The wizard shows a live map of the field directions covered so far (two hemispheres: the field
        coming out of the board's top, −z, and out of its bottom, +z), a progress bar, the fit's
        figures (spread of |B|, residual, wobble, field strength) and the most important thing still
        wrong, with what to do about it. It stops by itself when every check passes; Enter or s fits
        what there is, q or Esc cancels without saving. Ctrl-C or SIGTERM also cancel, and the terminal
        is restored. Profiles are saved per sensor (chip, bus, address); simulated sensors have their
        own identity. 'lodestone watch' and 'lodestone log' load the profile automatically.
          lodestone calibrate --simulate
          lodestone calibrate --location 47.6,-122.3 --align
          lodestone calibrate --vehicle --location 47.6,-122.3    (a compass fixed in a boat or car)
          lodestone calibrate --record raw.csv --duration 60
          lodestone calibrate --from-file raw.csv --unit uT --output profile.json
        A calibration is accepted by the heading error it will leave, predicted from the fit's
        uncertainty (at most ±2° level and ±4° at 20° tilt, 95 %); coverage only explains a refusal. A compass
        fixed in a vehicle: record two slow full circles with the accelerometer (--record), then fit
        them with --from-file and --location, which gives the expected field strength and dip:
          lodestone calibrate --from-file circles.csv --unit uT --location 47.6,-122.3
        With --from-file the JSON holds offset [3] and matrix [3][3] (corrected = matrix · (raw − offset)),
        field_strength, residual_percent, coverage_percent, sample_count, model, created and sensor
        (--sensor NAME, else "\(CalibrationFileRequest.recordingChip)"); a summary goes to standard error. A recording that cannot
        support a calibration exits with status 65 and the reasons; see calibration/README.md.
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        if let path = arguments.string(fromFile) {
            return try calibrateFromFile(arguments, path: path, in: context)
        }
        for option in [unit, force] where arguments.isPresent(option) {
            throw UsageError.conflict("--unit and --force only apply to --from-file")
        }
        let sensors = try SensorOptions(arguments).selection
        let speed = try arguments.numberValue(simSpeed)
        if arguments.isPresent(simSpeed) && !sensors.simulate {
            throw UsageError.conflict("--sim-speed needs --simulate (real sensors run in real time)")
        }
        if let path = arguments.string(record) {
            for option in [output, yes, align, bearing, accel, vehicle, PlaceOption.location] where arguments.isPresent(option) {
                throw UsageError.conflict("--\(option.name) cannot be used with --record (it only records raw samples)")
            }
            let request = RecordRequest(sensors: sensors, path: path,
                                        duration: try arguments.number(duration), simulationSpeed: speed)
            return try recordRawSamples(request, runtime: context.runtime(spec.name))
        }
        let runtime = context.runtime(spec.name)
        let request = WizardRequest(
            sensors: sensors, simulationSpeed: speed, place: try place(arguments, runtime: runtime),
            output: arguments.string(output), saveWithoutAsking: arguments.flag(yes),
            duration: try arguments.double(duration, in: wizardDurations), accelerometer: arguments.flag(accel),
            align: arguments.flag(align), bearing: arguments.string(bearing), ascii: arguments.flag(ascii),
            vehicle: arguments.flag(vehicle))
        return try runCalibrationWizard(request, runtime: runtime)
    }

    /// `calibrate --from-file`: fits a recording; no sensor is read.
    private static func calibrateFromFile(_ arguments: ParsedArguments, path: String, in context: CommandContext) throws -> ExitCode {
        for option in [SensorOptions.simulate, record, align, accel, yes, bearing, simSpeed, SensorOptions.orientation,
                       SensorOptions.accelerometer, duration] where arguments.isPresent(option) {
            throw UsageError.conflict("--\(option.name) cannot be used with --from-file (it fits a recording; no sensor is read)")
        }
        let runtime = context.runtime(spec.name, signals: false)
        let identity = SensorIdentity(chip: arguments.string(SensorOptions.sensor).map(sanitize) ?? CalibrationFileRequest.recordingChip,
                                      bus: try arguments.integer(SensorOptions.bus),
                                      address: try arguments.int(SensorOptions.address, in: 0...0x7F))
        let request = CalibrationFileRequest(
            path: path, unit: try arguments.choice(unit, as: RecordingUnit.self),
            place: try place(arguments, runtime: runtime), sensor: identity, output: arguments.string(output),
            force: arguments.flag(force), vehicle: arguments.flag(vehicle))
        return try Session.calibrateFromFile(request, runtime: runtime)
    }

    /// `--location`: the place and the World Magnetic Model's field there today.
    private static func place(_ arguments: ParsedArguments, runtime: Runtime) throws(UsageError) -> ExpectedPlace? {
        guard let (lat, lon) = try PlaceOption.coordinates(arguments) else { return nil }
        guard let place = ExpectedPlace.at(latitude: lat, longitude: lon, unixSeconds: runtime.time.wall()) else {
            throw .invalidValue(option: PlaceOption.location.name, value: arguments.string(PlaceOption.location) ?? "",
                                expected: "a place where the World Magnetic Model can be evaluated")
        }
        return place
    }
}
