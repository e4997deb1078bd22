import Glibc
import HeadingLog
import Options
import Platform
import Session

/// `lodestone watch`: the live compass.
enum WatchCommand: Command {
    static let rate = Option("rate", value: "HZ", range: 1...50.0,
        absent: "\(plain(WatchSession.streamRate)) piped, \(plain(WatchSession.dashboardRate)) on a terminal",
        help: "updates per second; on a terminal kept within \(plain(WatchSession.dashboardRates.lowerBound))–\(plain(WatchSession.dashboardRates.upperBound))")
    static let once = Option("once", help: "print one reading and exit (with a GNSS source, once the true heading is known)")
    static let timeout = Option("timeout", value: "S", range: 0...3600, default: WatchSession.fixTimeout,
        help: "with --once: how long to wait for the GNSS fix that gives the true heading; then the reading is printed without it")
    static let log = Option("log", value: "FILE", help: "also log to this CSV file (append-safe; see 'lodestone log')")
    static let json = Option("json", help: "one JSON object per line instead of the plain line or the dashboard (keys as in 'serve --json')")
    static let goto = Option("goto", value: "TARGET", help: "on the dashboard, mark LAT,LON or a place on the rose and show the way to it")
    static let ascii = Option("ascii", help: "draw the dashboard in plain ASCII (automatic when the locale is not UTF-8)")

    static let spec = CommandSpec(
        name: "watch",
        abstract: "show the live heading: magnetic and true, with accuracy (sensor or simulator)",
        options: SensorOptions.options + [CalibrationFileOption.calibration] + HeadingOptions.options
            + LiveGNSSOptions.options + [rate, DurationOption.duration, once, timeout, log, json, ascii, LanguageOption.lang, UnitsOption.units,
                                         RegionOptions.region, goto],
        usageGroups: [LiveGNSSOptions.sources, HeadingOptions.declinationSources],
        discussion: """
        On a terminal it shows a full-screen dashboard with a compass rose (keys: q quit, t true/mag,
        u units, l language, c calibrate, r reset track, ? help). Piped, or with --once, it prints one
        plain line per update: the magnetic heading and its 16-point name, then the true heading,
        the accuracy and where the declination came from:
          123.4° SE  true 136.2°  ±1.1°  declination +12.8° (wmm)
        With --json, one JSON object per line instead (on a terminal too), e.g.
          {"time":"2026-…Z","monotonic_s":1.2,"heading_mag_deg":123.4,"heading_true_deg":136.2,…,"flags":[]}
        True heading needs a declination: from the GNSS fix (gpsd, or the simulated receiver with
        --simulate), --location, or --declination. The calibration profile is loaded automatically.
        With --goto TARGET (LAT,LON or a place, as for 'lodestone goto') the dashboard marks the target on
        the rose (◆) and shows its distance, bearing and the turn to it.
        With --region NAME:LAT,LON,RADIUS_M, entering and leaving the region are shown on the dashboard
        (on stderr when piped), as 'lodestone regions' reports them.
        Ctrl-C or SIGTERM stops it cleanly (exit 0).
          lodestone watch --simulate | head
          lodestone watch --location -33.87,151.21 --once
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        let requestedRate = try arguments.number(rate)
        let language = try LanguageOption.language(arguments)
        let heading = try HeadingOptions(arguments)
        var live = LiveRequest(sensors: try SensorOptions(arguments).selection,
                               calibrationPath: arguments.string(CalibrationFileOption.calibration),
                               heading: heading.settings, gnss: try LiveGNSSOptions(arguments).choice, distanceFilter: 5)
        live.regions = try RegionOptions.regions(arguments, environment: context.environment)
        if heading.showDeviation {
            return try WatchSession.showDeviationCard(live, runtime: context.runtime(spec.name, signals: false))
        }
        let logFile = arguments.string(log).map { LogSession.Options(path: $0) }
        if logFile?.path.isEmpty == true {
            throw UsageError.invalidValue(option: log.name, value: "", expected: "a file name")
        }
        // A file-size limit must end in a write error (exit 74), not kill the process.
        signal(SIGXFSZ, SIG_IGN)
        if arguments.isPresent(timeout) && !arguments.flag(once) {
            throw UsageError.conflict("--timeout only applies with --once")
        }
        var request = WatchRequest(live: live, rate: requestedRate, once: arguments.flag(once),
                                   onceTimeout: try arguments.numberValue(timeout),
                                   log: logFile, ascii: arguments.flag(ascii), language: language,
                                   units: try UnitsOption.system(arguments), json: arguments.flag(json))
        request.duration = try DurationOption.seconds(arguments)
        let runtime = context.runtime(spec.name)
        if let target = arguments.string(goto) {
            let userPlaces = try PlacesStore(environment: runtime.environment)?.load() ?? []
            request.destination = try DestinationLookup.resolve(target, radius: nil, userPlaces: userPlaces).0
        }
        return try WatchSession.run(request, runtime: runtime)
    }
}
