import Glibc
import Options
import Platform
import Session

/// `lodestone log`: headless logging to a CSV file that survives kills and power cuts.
enum LogCommand: Command {
    static let rate = Option("rate", value: "HZ", range: 0.01...1000, default: LogRequest.defaultRate,
                             help: "rows per second; a row needs a new sample")

    static let spec = CommandSpec(
        name: "log",
        abstract: "log the heading to a CSV file, headless; the file survives kills and power cuts",
        options: [LogFileOptions.output, rate, DurationOption.duration] + LogFileOptions.options.dropFirst()
            + LiveGNSSOptions.options + SensorOptions.options + [CalibrationFileOption.calibration] + HeadingOptions.options
            + [RegionOptions.region],
        usageGroups: [.required(LogFileOptions.output), LogFileOptions.rotations, LiveGNSSOptions.sources,
                      HeadingOptions.declinationSources],
        discussion: """
        The file stays one valid CSV: samples become rows a tenth of a second at a time, rows are
        written whole at least every 0.4 s and synced to disk every --fsync-interval seconds, so
        SIGKILL loses at most the last half second and a
        power cut about the last --fsync-interval. An incomplete last row left by a kill or a power
        cut is removed before the next run appends. A file with another header is never appended to (exit 65).
        Columns and units: see "Log format" in the README.
          lodestone log --simulate --output heading.csv --duration 60
          lodestone log --output /var/lib/lodestone/heading.csv --rotate daily
        With --region NAME:LAT,LON,RADIUS_M (repeatable), entering and leaving it are said on stderr.
        Ctrl-C or SIGTERM flushes, syncs and stops (exit 0). Disk full or an I/O error: exit 74, and
        the rows already written stay valid.
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        guard let file = try LogFileOptions(arguments).file else {
            throw UsageError.missingArgument("--output FILE.csv", command: spec.name)
        }
        let heading = try HeadingOptions(arguments)
        if heading.showDeviation {
            throw UsageError.conflict("--deviation show only applies to 'lodestone watch'")
        }
        var live = LiveRequest(sensors: try SensorOptions(arguments).selection,
                               calibrationPath: arguments.string(CalibrationFileOption.calibration),
                               heading: heading.settings, gnss: try LiveGNSSOptions(arguments).choice, distanceFilter: 0)
        live.regions = try RegionOptions.regions(arguments, environment: context.environment)
        let request = LogRequest(
            live: live,
            file: file, rate: try arguments.numberValue(rate),
            duration: try DurationOption.seconds(arguments))
        // A file-size limit must end in a write error (exit 74), not kill the process.
        signal(SIGXFSZ, SIG_IGN)
        return try LogRecording.run(request, runtime: context.runtime(spec.name))
    }
}
