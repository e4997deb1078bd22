import Options
import Platform

/// `lodestone calibrate`: the calibration wizard, raw recording, and fitting a recording.
enum CalibrateCommand: Command {
    static let spec = CommandSpec(
        name: "calibrate",
        abstract: "calibrate the magnetometer (wizard), record raw samples, or fit a recording",
        usage: "[--simulate] [--sensor NAME] [--bus N] [--address 0xNN] [--location LAT,LON] [--yes | --output FILE] "
            + "[--align [--bearing B]] [--accel]\n"
            + "       lodestone calibrate --record FILE [--duration S] [sensor options]\n"
            + "       lodestone calibrate --from-file FILE [--output FILE] [--unit uT|gauss|counts] [--sensor NAME]",
        options: sensorOptions + [
            Option("location", value: "LAT,LON", help: "where you are, for the expected field strength and declination "
                + "(World Magnetic Model); with --simulate the simulated place is used"),
            Option("yes", short: "y", help: "save to the default calibration file without asking"),
            Option("output", short: "o", value: "FILE", help: "write the profile (one JSON document) to FILE "
                + "instead of the default calibration file ($XDG_CONFIG_HOME/lodestone/calibration.json, else "
                + "~/.config/lodestone/calibration.json); with --from-file, instead of standard output"),
            Option("align", help: "after calibrating, align the heading with a landmark of known bearing"),
            Option("bearing", value: "BEARING", help: "the landmark's bearing for --align, e.g. 123, 123°T, 118M, SE, 北偏东30度 "
                + "(otherwise it is asked for)"),
            Option("accel", help: "also calibrate the accelerometer: six still poses, one per side facing up"),
            Option("duration", value: "S", help: "longest time to collect (wizard; default: until it passes or you stop it, "
                + "300 s without a terminal), or the length of a --record recording (default: until Ctrl-C)"),
            Option("record", value: "FILE", help: "record raw samples to a new CSV file instead of calibrating: "
                + "t,x,y,z (s, µT, body axes, before calibration) plus ax,ay,az (g) with an accelerometer"),
            Option("from-file", value: "FILE", help: "fit a recorded CSV (header with x,y,z or mx,my,mz in any one unit; "
                + "optional t and ax,ay,az) and print the profile as JSON"),
            Option("unit", value: "UNIT", help: "with --from-file: the recording's unit, uT, gauss or counts (default: "
                + "\"input\", unknown); uT and gauss enable the field-strength checks"),
            Option("force", help: "with --from-file: write the fit even when it does not pass the checks"),
            Option("ascii", help: "draw the coverage map in plain ASCII (automatic when the locale is not UTF-8)"),
            Option("sim-speed", value: "X", help: "with --simulate: run the simulated board X times faster than real time "
                + "(1–50, default 1; for demos and tests)"),
        ],
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
          lodestone calibrate --record raw.csv --duration 60
          lodestone calibrate --from-file raw.csv --unit uT --output profile.json
        With --from-file the JSON holds offset [3] and matrix [3][3] (corrected = matrix · (raw − offset)),
        field_strength, residual_percent, coverage_percent, sample_count, model, created and sensor
        (--sensor NAME, default "recording"); a summary goes to standard error. A recording that cannot
        support a calibration exits with status 65 and the reasons; see calibration/README.md.
        """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        try arguments.requireAtMostOne(of: ["record", "from-file"])
        try arguments.requireAtMostOne(of: ["yes", "output"])
        if let path = arguments.string("from-file") {
            return try calibrateFromFile(arguments, path: path)
        }
        if arguments.string("unit") != nil || arguments.flag("force") {
            throw UsageError.conflict("--unit and --force only apply to --from-file")
        }
        if let path = arguments.string("record") {
            return try recordRawSamples(arguments, path: path)
        }
        return try runCalibrationWizard(arguments)
    }

    /// `--record FILE`: raw samples until `--duration` or Ctrl-C.
    private static func recordRawSamples(_ arguments: ParsedArguments, path: String) throws -> ExitCode {
        for option in ["output", "yes", "align", "bearing", "accel", "location"]
        where arguments.flag(option) || arguments.string(option) != nil {
            throw UsageError.conflict("--\(option) cannot be used with --record (it only records raw samples)")
        }
        let signals = SignalWatcher()
        let selection = try SensorSelection(arguments)
        let speed = try simulationSpeed(arguments, simulate: selection.simulate)
        let duration = try arguments.double("duration", in: 0.1...86_400)
        let sensor = try CalibrationSensor.open(selection, speed: speed)
        let count = try recordCalibrationSamples(sensor: sensor, path: path, duration: duration, signals: signals)
        StandardOutput.error("lodestone calibrate: recorded \(count) samples from the \(sensor.source.info.chip.displayName)"
                             + (selection.simulate ? " (simulated)" : "") + " to \(path)")
        guard count > 0 else {
            throw RecordError.noSamples(path)
        }
        return .success
    }
}
