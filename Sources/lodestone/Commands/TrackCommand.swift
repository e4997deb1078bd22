import Geodesy
import Options
import Platform
import Session

/// `lodestone track`: movement reports from gpsd (or the simulator), one line per reported fix.
enum TrackCommand: Command {
    static let format = Option("format", value: "FORMAT", choices: TrackOutput.Format.self, default: .text,
                               help: "text, csv (with a header) or json (one object per line)")
    static let distanceFilter = Option("distance-filter", value: "M", range: 0...1_000_000.0,
        absent: "\(plain(TrackRequest.defaultDistanceFilter(.text))) for text, \(plain(TrackRequest.defaultDistanceFilter(.json))) for csv and json",
        help: "report only after moving at least M metres")
    static let style = Option("style", value: "STYLE", choices: DirectionStyle.self, default: .quadrant,
                              help: "directions as degrees, points (16-point) or quadrant (N30°E)")

    /// The words of `--style`: how a report writes its direction of travel.
    enum DirectionStyle: String, CaseIterable {
        case degrees, points, quadrant

        var bearingStyle: BearingStyle {
            switch self {
            case .degrees: return .degrees(decimals: 0)
            case .points: return .points16
            case .quadrant: return .quadrant(decimals: 0)
            }
        }
    }
    static let count = Option("count", value: "N", range: 1...1_000_000_000, help: "stop after N reports")

    static let spec = CommandSpec(
        name: "track",
        abstract: "report movement from gpsd fixes: distance, direction, total, speed",
        options: GNSSSourceOptions.options + [format, distanceFilter, GNSSOptions.accuracy, GNSSOptions.minMode,
                                              LanguageOption.lang, style, GNSSOptions.firstFixTimeout, DurationOption.duration, count, UnitsOption.units],
        usageGroups: [GNSSSourceOptions.sources],
        discussion: """
        Each report gives the geodesic distance and direction from the previous report, the total so far,
        and speed and course. A move smaller than the two fixes' combined error is reported as
        "stationary" (静止 with --lang zh), without a direction.
          lodestone track --simulate --lang zh
          lodestone track --format csv --distance-filter 0 > walk.csv
        Connection changes are reported on stderr; the client reconnects by itself when gpsd restarts.
        Ctrl-C or SIGTERM stops it cleanly (exit 0).
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        let outputFormat = try arguments.chosen(format, as: TrackOutput.Format.self)
        let bearingStyle = try arguments.chosen(style, as: DirectionStyle.self).bearingStyle
        let request = TrackRequest(
            source: try GNSSSourceOptions(arguments).choice, format: outputFormat, style: bearingStyle,
            language: try LanguageOption.language(arguments),
            distanceFilter: try arguments.number(distanceFilter),
            maximumHorizontalError: try GNSSOptions.maximumError(arguments),
            minimumMode: try GNSSOptions.minimumMode(arguments),
            duration: try DurationOption.seconds(arguments),
            count: try arguments.integer(count), units: try UnitsOption.system(arguments),
            timeout: try GNSSOptions.timeout(arguments))
        return try TrackSession.run(request, runtime: context.runtime(spec.name))
    }
}
