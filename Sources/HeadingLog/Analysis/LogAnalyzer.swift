import Platform

/// A line of the log that is not a readable row.
public struct MalformedLine: Sendable, Equatable, CustomStringConvertible {
    /// 1-based line number in the file (the header is line 1).
    public var line: Int
    public var problem: RowProblem

    public var description: String { "line \(line): \(problem)" }
}

/// Downsampled data for the SVG plot.
public struct PlotData: Sendable {
    public var title: String
    public var series: PlotSeries
    public var track: TrackSample
    /// Intervals above this are gaps (ms); the plot breaks its lines there.
    public var gapThreshold: Double?
}

/// The result of analysing a log.
public struct LogAnalysis: Sendable {
    public var summary: LogSummary
    /// Present when a plot was asked for.
    public var plot: PlotData?
    /// Track points written to the GPX file, when one was asked for.
    public var gpxPoints: Int?
}

/// Reads a log once, streaming (fixed memory whatever its length), and summarises it; optionally
/// collects downsampled plot data and writes the GNSS track as GPX on the way.
///
/// ```swift
/// let analysis = try LogAnalyzer.analyze(path: "heading.csv", options: .init(plot: true)) { bad in
///     StandardOutput.error(bad.description)
/// }
/// print(analysis.summary.text)
/// ```
public enum LogAnalyzer {
    public struct Options: Sendable {
        public var plot: Bool
        /// Width of the plot in pixel columns: the downsampling target.
        public var plotColumns: Int
        /// Where to write the GNSS track as GPX 1.1, if anywhere.
        public var gpxPath: String?

        public init(plot: Bool = false, plotColumns: Int = SVGPlot.plotWidth, gpxPath: String? = nil) {
            self.plot = plot
            self.plotColumns = plotColumns
            self.gpxPath = gpxPath
        }
    }

    /// Analyses the log at `path`. Malformed lines are passed to `malformed` and counted; the log is
    /// rejected only when it is not a Lodestone log or has no readable row.
    public static func analyze(path: String, options: Options = Options(),
                               malformed: (MalformedLine) -> Void = { _ in }) throws(LogError) -> LogAnalysis {
        var lines: ChunkedLines
        do throws(FileError) {
            lines = try ChunkedLines(path: path)
        } catch {
            throw .file(error)
        }
        var lineNumber = 0
        var header: LogSchema.HeaderMatch?
        var firstLine = ""
        var state: RowAccumulator?
        var malformedCount = 0
        var gpx: GPXWriter?
        var setupError: LogError?
        do throws(FileError) {
            try lines.forEach { line, ending in
                lineNumber += 1
                guard state != nil else {
                    // The header line decides whether this is a log at all.
                    let match = ending == .tooLong ? .other : LogSchema.match(header: line)
                    header = match
                    firstLine = LogSchema.describe(firstLine: line, tooLong: ending == .tooLong)
                    let count: Int
                    switch match {
                    case .exact: count = LogSchema.fieldCount
                    case .extended(_, let n): count = n
                    case .other: return false
                    }
                    if let gpxPath = options.gpxPath {
                        do throws(FileError) {
                            gpx = try GPXWriter(path: gpxPath, name: Files.baseName(of: path))
                        } catch {
                            setupError = .file(error)
                            return false
                        }
                    }
                    state = RowAccumulator(
                        fieldCount: count, plot: options.plot ? PlotSeries(columns: options.plotColumns) : nil,
                        track: options.plot ? TrackSample() : nil, gpx: gpx)
                    return true
                }
                if ending == .tooLong {
                    malformedCount += 1
                    malformed(MalformedLine(line: lineNumber, problem: .tooLong))
                    return true
                }
                if line.isEmpty { return true }
                do throws(RowProblem) {
                    try state?.consume(line)  // mutated in place: no copy of its tables
                } catch {
                    malformedCount += 1
                    malformed(MalformedLine(line: lineNumber, problem: ending == .endOfFile ? .incompleteLastLine : error))
                }
                return true
            }
        } catch {
            throw .file(error)
        }
        if let setupError { throw setupError }
        guard case .some(let match) = header, match != .other, let accumulator = state else {
            throw .notALog(path: path, found: lineNumber == 0 ? "the file is empty" : firstLine)
        }
        guard accumulator.rows > 0 else { throw .nothingReadable(path: path, malformed: malformedCount) }
        var summary = summarize(accumulator, path: path)
        summary.malformedRows = malformedCount
        if let gpx {
            do throws(FileError) { try gpx.finish() } catch { throw .file(error) }
        }
        var plot: PlotData?
        if options.plot, let series = accumulator.plot, let track = accumulator.track {
            plot = PlotData(title: Files.baseName(of: path), series: series, track: track,
                            gapThreshold: summary.gapThreshold.map { $0 * 1000 })
        }
        return LogAnalysis(summary: summary, plot: plot, gpxPoints: gpx?.pointCount)
    }

    private static func summarize(_ a: RowAccumulator, path: String) -> LogSummary {
        var s = LogSummary(path: path)
        s.rows = a.rows
        s.firstTime = Double(a.minTime) / 1000
        s.lastTime = Double(a.maxTime) / 1000
        s.duration = Double(a.maxTime - a.minTime) / 1000
        if s.duration > 0 && a.rows > 1 { s.rate = Double(a.rows - 1) / s.duration }
        if let median = a.intervals.median {
            s.medianInterval = median / 1000
            let threshold = 3 * max(median, 1)
            s.gapThreshold = threshold / 1000
            let gaps = a.intervals.gaps(above: threshold)
            s.gapCount = gaps.count
            if gaps.count > 0, let longest = a.intervals.longest {
                s.longestGap = Double(longest.length) / 1000
                s.longestGapStart = Double(longest.start) / 1000
            }
            s.disturbedTime = Double(a.disturbedRows) * median / 1000
        }
        s.timeStepsBack = a.timeStepsBack
        s.runs = a.runs
        let useTrue = a.trueHeadings.count > 0
        let headings = useTrue ? a.trueHeadings : a.magneticHeadings
        if headings.count > 0 {
            s.headingColumn = useTrue ? "heading_true_deg" : "heading_mag_deg"
            s.headingRows = headings.count
            s.headingMean = headings.mean
            s.headingSpread = headings.standardDeviation
        }
        if a.fieldCount_ > 0 {
            s.fieldMin = a.fieldMin
            s.fieldMax = a.fieldMax
            s.fieldMean = a.fieldSum / Double(a.fieldCount_)
        }
        s.disturbedRows = a.disturbedRows
        s.fixRows = a.fixRows
        s.distinctFixes = a.distinctFixes
        s.distance = a.distance
        return s
    }
}

extension Files {
    /// The last path component ("heading.csv" for "/var/lib/lodestone/heading.csv").
    static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
