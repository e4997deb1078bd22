import Options
import Outputs
import Places
import Platform
import Session

/// `lodestone regions`: enter, exit and dwell events for circular regions.
enum RegionsCommand: Command {
    static let format = Option("format", value: "FORMAT", choices: RegionsRequest.Format.self, default: .csv,
                               help: "csv (with a header), text or json (one object per line)")
    static let dwell = Option("dwell", value: "S", range: 0.001...31_536_000, help: "also report dwell after S seconds inside a region")
    static let onEnter = Option("on-enter", value: "CMD", help: "run CMD (with /bin/sh) on each enter; the event is in its environment")
    static let onExit = Option("on-exit", value: "CMD", help: "run CMD (with /bin/sh) on each exit; the event is in its environment")
    static let hookJobs = Option("hook-jobs", value: "N", range: 1...256, default: HookRunner.Limits.defaultJobs,
                                 help: "run at most N hooks at once; later events wait, the newest per region")
    static let hookTimeout = Option("hook-timeout", value: "S", range: 0.1...86_400, default: HookRunner.Limits.defaultTimeout,
                                    help: "stop a hook still running after S seconds: SIGTERM, then SIGKILL 2 s later")

    static let spec = CommandSpec(
        name: "regions",
        abstract: "report entering, leaving and staying in circular regions from gpsd fixes",
        options: GNSSSourceOptions.options + [RegionOptions.region, dwell, onEnter, onExit, hookJobs, hookTimeout, format, GNSSOptions.accuracy,
                                              GNSSOptions.minMode, LanguageOption.lang, GNSSOptions.firstFixTimeout, DurationOption.duration, UnitsOption.units],
        usageGroups: [GNSSSourceOptions.sources],
        discussion: """
        Without --region, your places ('lodestone places list') are the regions, each with its radius.
        Prints \(ReportJSON.regionKeys.joined(separator: ",")); the first fix gives each region's state (inside
        or outside), then enter, exit, and dwell (with --dwell). A region is entered only when the fix is
        inside by more than its horizontal error and left only when outside by more than it, so a fix
        jittering on the boundary does not flap.
          lodestone regions --region home:52.3702,4.8952,100 --dwell 300
          lodestone regions --on-enter 'logger "entered $LODESTONE_REGION"'
        The commands (hooks) run in the background with /bin/sh, each in its own process group with
        the default signal actions and standard input from /dev/null; their standard output goes to
        lodestone's standard error, never into the events. They get lodestone's environment plus
        \(RegionsSession.hookEnvironment.map { $0.0 + " (" + $0.1 + ")" }.joined(separator: ", ")) (the
        event's data is never on their command line). At most --hook-jobs run at once: while they are
        busy, a region's next event waits and a newer one of the same region replaces it (the latest
        state wins; how many were replaced is said on stderr). A hook running longer than
        --hook-timeout gets SIGTERM, then SIGKILL 2 s later, with everything it started; hooks still
        running when lodestone exits are ended the same way.
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        let runtime = context.runtime(spec.name)
        var regions = try RegionOptions.regions(arguments, environment: context.environment)
        if regions.isEmpty {
            let places = try PlacesStore(environment: runtime.environment)?.load() ?? []
            regions = try places.map { p throws -> Region in
                Region(name: p.name, centre: try .init(latitude: p.latitude, longitude: p.longitude), radius: p.radius)
            }
            if regions.isEmpty {
                throw UsageError.missingArgument("a region: --region NAME:LAT,LON,RADIUS_M, or places in your places file",
                                                 command: spec.name)
            }
        }
        let request = RegionsRequest(
            regions: regions, source: try GNSSSourceOptions(arguments).choice,
            format: try arguments.chosen(format, as: RegionsRequest.Format.self),
            language: try LanguageOption.language(arguments),
            dwell: try arguments.number(dwell),
            maximumHorizontalError: try GNSSOptions.maximumError(arguments),
            minimumMode: try GNSSOptions.minimumMode(arguments),
            duration: try DurationOption.seconds(arguments),
            onEnter: arguments.string(onEnter), onExit: arguments.string(onExit),
            units: try UnitsOption.system(arguments),
            hookLimits: HookRunner.Limits(jobs: try arguments.integerValue(hookJobs),
                                          timeout: try arguments.numberValue(hookTimeout)),
            timeout: try GNSSOptions.timeout(arguments))
        return try RegionsSession.run(request, runtime: runtime)
    }
}
