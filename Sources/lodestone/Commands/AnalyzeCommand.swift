import Options
import Platform
import Session

/// `lodestone analyze`: a first look at a CSV log — summary, SVG plot, GPX track.
enum AnalyzeCommand: Command {
    static let svg = Option("svg", value: "FILE", help: "write a plot: heading and field over time, and the GNSS track")
    static let gpx = Option("gpx", value: "FILE", help: "write the GNSS track as GPX 1.1 for map tools")
    static let json = Option("json", help: "print the summary as one JSON object")

    static let spec = CommandSpec(
        name: "analyze",
        abstract: "summarise a CSV log; plot it as SVG and export its GNSS track as GPX",
        options: [svg, gpx, json, UnitsOption.units],
        positionals: ["FILE.csv"],
        discussion: """
        The summary gives the duration, rows, real rate and gaps (intervals over 3× the median),
        the circular mean and spread of the heading (true if logged, else magnetic), the field's
        range, the time flagged as disturbed, and GNSS fixes and distance travelled.
        Lines that are not readable rows are listed on stderr by line number and skipped.
          lodestone analyze heading.csv --svg heading.svg --gpx heading.gpx
        Exit codes: 65 when the file is not a Lodestone log or has no readable row, 74 when it
        cannot be read or an output cannot be written.
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        guard let path = arguments.positionals.first else {
            throw UsageError.missingArgument("the log file to analyse (FILE.csv)", command: spec.name)
        }
        guard arguments.positionals.count == 1 else {
            throw UsageError.unexpectedArgument(arguments.positionals[1], command: spec.name)
        }
        return try LogAnalysisQuery(path: path, svgPath: arguments.string(svg), gpxPath: arguments.string(gpx),
                                    json: arguments.flag(json), units: try UnitsOption.system(arguments)).run(runtime: context.runtime(spec.name, signals: false))
    }
}
