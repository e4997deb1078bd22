import Glibc
import HeadingLog
import JSON
import Options
import Platform

/// `lodestone analyze`: a first look at a CSV log — summary, SVG plot, GPX track.
enum AnalyzeCommand: Command {
    static let spec = CommandSpec(
        name: "analyze",
        abstract: "summarise a CSV log; plot it as SVG and export its GNSS track as GPX",
        usage: "FILE.csv [--svg PLOT.svg] [--gpx TRACK.gpx] [--json]",
        options: [
            Option("svg", value: "FILE", help: "write a plot: heading and field over time, and the GNSS track"),
            Option("gpx", value: "FILE", help: "write the GNSS track as GPX 1.1 for map tools"),
            Option("json", help: "print the summary as one JSON object"),
        ],
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

    static let listedProblems = 10

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        guard let path = arguments.positionals.first else {
            throw UsageError.missingArgument("the log file to analyse (FILE.csv)", command: spec.name)
        }
        guard arguments.positionals.count == 1 else {
            throw UsageError.unexpectedArgument(arguments.positionals[1], command: spec.name)
        }
        let svgPath = arguments.string("svg"), gpxPath = arguments.string("gpx")
        for (option, output) in [("svg", svgPath), ("gpx", gpxPath)] {
            if let output, sameFile(output, path) {
                throw UsageError.conflict("--\(option) \(output) would overwrite the log being analysed; choose another file")
            }
        }
        var problems = 0
        let analysis = try LogAnalyzer.analyze(
            path: path, options: LogAnalyzer.Options(plot: svgPath != nil, gpxPath: gpxPath)
        ) { bad in
            problems += 1
            if problems <= listedProblems { StandardOutput.error("lodestone analyze: \(bad)") }
        }
        if problems > listedProblems {
            StandardOutput.error("lodestone analyze: … and \(problems - listedProblems) more malformed lines "
                                 + "(\(problems) in all, skipped)")
        }
        if let svgPath, let plot = analysis.plot {
            let svg = SVGPlot.render(plot)
            try Files.writeAtomically(svgPath, contents: svg)
            StandardOutput.error("lodestone analyze: wrote \(svgPath) (\(svg.utf8.count / 1024 + 1) KiB)")
        }
        if let gpxPath, let points = analysis.gpxPoints {
            StandardOutput.error("lodestone analyze: wrote \(gpxPath) (\(points) track points)")
        }
        let out = StandardOutput()
        if arguments.flag("json") {
            out.write(analysisJSON(analysis.summary, svg: svgPath, gpx: gpxPath).serialized() + "\n")
        } else {
            out.write(analysis.summary.text)
        }
        return .success
    }
}

/// True when both paths name the same existing file (same device and inode), or are the same text.
private func sameFile(_ a: String, _ b: String) -> Bool {
    if a == b { return true }
    var sa = stat(), sb = stat()
    guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
}
