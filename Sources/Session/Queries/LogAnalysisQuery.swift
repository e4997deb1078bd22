import Geodesy
import Glibc
import HeadingLog
import JSON
import Navigation
import Platform

/// `lodestone analyze`: a CSV log's summary, and optionally its plot (SVG) and track (GPX).
public struct LogAnalysisQuery: Sendable {
    public var path: String
    public var svgPath: String?
    public var gpxPath: String?
    public var json: Bool
    /// Units of the distance in the text summary; nil: `GPSD_UNITS`, else metric.
    public var units: UnitSystem?
    /// Malformed lines listed one by one on stderr before the rest are counted.
    static let listedProblems = 10

    public init(path: String, svgPath: String? = nil, gpxPath: String? = nil, json: Bool = false, units: UnitSystem? = nil) {
        self.path = path
        self.svgPath = svgPath
        self.gpxPath = gpxPath
        self.json = json
        self.units = units
    }

    /// Analyses the log and writes what was asked for. An output that is the log itself is refused.
    ///
    /// ```swift
    /// try LogAnalysisQuery(path: "heading.csv", svgPath: "heading.svg").run(runtime: runtime)
    /// ```
    public func run(runtime: Runtime) throws -> ExitCode {
        for (option, output) in [("svg", svgPath), ("gpx", gpxPath)] {
            if let output, Files.same(output, path) {
                throw InvalidRequest("--\(option) \(output) would overwrite the log being analysed; choose another file")
            }
        }
        if let svgPath, let gpxPath, Files.same(svgPath, gpxPath) {
            throw InvalidRequest("--svg and --gpx name the same file (\(svgPath)); give each its own")
        }
        var problems = 0
        let analysis = try LogAnalyzer.analyze(
            path: path, options: LogAnalyzer.Options(plot: svgPath != nil, gpxPath: gpxPath)
        ) { bad in
            problems += 1
            if problems <= Self.listedProblems { runtime.say("\(bad)") }
        }
        if problems > Self.listedProblems {
            runtime.say("… and \(problems - Self.listedProblems) more malformed lines (\(problems) in all, skipped)")
        }
        if let svgPath, let plot = analysis.plot {
            let svg = SVGPlot.render(plot)
            try Files.writeAtomically(svgPath, contents: svg)
            runtime.say("wrote \(svgPath) (\(svg.utf8.count / 1024 + 1) KiB)")
        }
        if let gpxPath, let points = analysis.gpxPoints {
            runtime.say("wrote \(gpxPath) (\(points) track points)")
        }
        let out = runtime.output
        if json {
            out.write(analysisJSON(analysis.summary, svg: svgPath, gpx: gpxPath).serialized() + "\n")
        } else {
            let units = self.units ?? runtime.environment.units
            out.write(units == .metric ? analysis.summary.text
                                       : analysis.summary.text(distance: { formatDistance($0, units: units) }))
        }
        return .success
    }
}
