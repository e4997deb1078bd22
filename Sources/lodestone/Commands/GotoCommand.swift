import Options
import Outputs
import Places
import Platform
import Session

/// `lodestone goto`: distance, bearing, speed made good, ETA and cross-track error to a destination.
enum GotoCommand: Command {
    static let format = Option("format", value: "FORMAT", choices: GotoRequest.Format.self, default: .text,
                               help: "text, csv (with a header) or json (one object per line)")
    static let radius = Option("radius", value: "M", range: 0.001...UserPlace.maximumRadius,
                               absent: "the place's own radius, \(plain(DestinationLookup.pointRadius)) for LAT,LON, "
                                   + "\(plain(DestinationLookup.townRadius)) for a town",
                               help: "arrived within M metres")
    static let count = Option("count", value: "N", range: 1...1_000_000_000, help: "stop after N reports")
    static let stop = Option("stop-on-arrival", help: "stop (exit 0) on arrival")
    static let compass = Option("compass", help: "read the magnetometer too: the turn from its true heading (\"turn right 35°\")")

    static let spec = CommandSpec(
        name: "goto",
        abstract: "steer to a place or a position: distance, bearing, speed made good, ETA, cross-track error",
        options: SensorOptions.options + [GNSSOptions.gpsd, SimulatedLocation.option, compass, CalibrationFileOption.calibration, format, radius, stop,
                                          GNSSOptions.accuracy, GNSSOptions.minMode,
                                              LanguageOption.lang, GNSSOptions.firstFixTimeout, DurationOption.duration, count, UnitsOption.units],
        positionals: ["TARGET"],
        positionalCompletions: [SavedPlaceNames.completion],
        usageGroups: [GNSSSourceOptions.sources],
        discussion: """
        TARGET is LAT,LON or a place name (your places first, then the gazetteer: 'lodestone places find'):
          lodestone goto 52.6425,5.0597 --simulate
          lodestone goto Hoorn --format csv > way.csv
        From each fix: the geodesic distance and bearing to the target, the speed made good towards it
        (smoothed over ~10 s), the ETA from it (empty while not closing), and the cross-track error from
        the geodesic between the first fix and the target (positive: right of it). CSV columns (and
        JSON keys, schema/goto-guidance.schema.json):
          \(ReportJSON.guidanceKeys.joined(separator: ","))
        With --compass the magnetometer is read as by 'watch' (its calibration profile, --sensor, --bus,
        --orientation …) and the relative bearing is the turn from its true heading (positive: right).
        The arrival is said on stderr when within the radius.
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        guard let target = arguments.positionals.first, !Substring(target).trimmingSpaces.isEmpty else {
            throw UsageError.missingArgument("a TARGET: LAT,LON or a place name", command: spec.name)
        }
        let runtime = context.runtime(spec.name)
        let userPlaces = try PlacesStore(environment: runtime.environment)?.load() ?? []
        let (destination, description) = try DestinationLookup.resolve(
            target, radius: try arguments.number(radius), userPlaces: userPlaces)
        var request = GotoRequest(
            destination: destination, source: try GNSSSourceOptions(arguments).choice,
            format: try arguments.chosen(format, as: GotoRequest.Format.self),
            language: try LanguageOption.language(arguments),
            maximumHorizontalError: try GNSSOptions.maximumError(arguments),
            minimumMode: try GNSSOptions.minimumMode(arguments),
            duration: try DurationOption.seconds(arguments),
            count: try arguments.integer(count), stopOnArrival: arguments.flag(stop),
            units: try UnitsOption.system(arguments))
        request.title = description
        request.timeout = try GNSSOptions.timeout(arguments)
        if arguments.flag(compass) {
            let source = request.source
            request.compass = LiveRequest(sensors: try SensorOptions(arguments).selection,
                                          calibrationPath: arguments.string(CalibrationFileOption.calibration),
                                          gnss: { if case .gpsd(let a) = source { return .gpsd(a) } else { return .automatic } }(),
                                          distanceFilter: 0)
        } else {
            for option in SensorOptions.options where option.name != SensorOptions.simulate.name && arguments.isPresent(option) {
                throw UsageError.conflict("--\(option.name) needs --compass\nsee 'lodestone goto --help'")
            }
        }
        return try GotoSession.run(request, runtime: runtime)
    }
}
