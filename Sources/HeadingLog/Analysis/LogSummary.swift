import Platform

/// What `LogAnalyzer` found in a log: times in Unix seconds, durations in seconds, angles in degrees,
/// fields in µT, distances in metres. Optional values are nil when the log has nothing to compute
/// them from; none is ever NaN.
public struct LogSummary: Sendable, Equatable {
    public var path: String
    /// Rows read.
    public var rows = 0
    /// Lines that were not readable rows (reported separately with their line numbers).
    public var malformedRows = 0
    public var firstTime: Double?
    public var lastTime: Double?
    /// Last time − first time.
    public var duration = 0.0
    /// Rows per second over the whole log: (rows − 1) / duration.
    public var rate: Double?
    public var medianInterval: Double?
    /// Intervals above this are gaps: 3 × the median interval.
    public var gapThreshold: Double?
    public var gapCount = 0
    public var longestGap: Double?
    /// Where the longest gap starts (the time of the row before it).
    public var longestGapStart: Double?
    /// Rows whose time is earlier than the row before (a clock stepped back).
    public var timeStepsBack = 0
    /// Logging runs: a new one starts where `monotonic_s` decreases.
    public var runs = 0
    /// The heading column summarised: "heading_true_deg" when any row has one, else "heading_mag_deg"
    /// (the raw magnetic heading stands in for rows without a smoothed one).
    public var headingColumn: String?
    public var headingRows = 0
    public var headingMean: Double?
    /// Circular standard deviation.
    public var headingSpread: Double?
    public var fieldMin: Double?
    public var fieldMax: Double?
    public var fieldMean: Double?
    public var disturbedRows = 0
    /// Disturbed rows × the median interval.
    public var disturbedTime = 0.0
    /// Rows with a position.
    public var fixRows = 0
    /// Positions that differ from the one before.
    public var distinctFixes = 0
    /// The distance travelled, metres: the logged `fix_distance_m` summed (movement, not jitter),
    /// or for logs without it the geodesics between consecutive distinct positions; never across a
    /// restart of the logger or a long gap.
    public var distance = 0.0

    public init(path: String) { self.path = path }

    /// A short report for people, one fact per line.
    public var text: String { text(distance: Self.metricDistance) }

    /// The summary with distances written by `distance` (e.g. in the user's units).
    public func text(distance distanceText: (Double) -> String) -> String {
        var lines: [(String, String)] = [("file", sanitize(path))]
        lines.append(("rows", "\(rows)" + (malformedRows > 0 ? " (\(malformedRows) malformed lines skipped)" : "")))
        if let first = firstTime, let last = lastTime {
            lines.append(("time", iso(first) + " → " + iso(last) + " (" + durationText(duration) + ")"))
        }
        if let rate, let median = medianInterval {
            lines.append(("rate", fixed(rate, rate < 10 ? 3 : 2) + " rows/s (median interval " + seconds(median) + ")"))
        }
        if let threshold = gapThreshold {
            var gaps = "\(gapCount) longer than " + seconds(threshold)
            if let longest = longestGap, let at = longestGapStart {
                gaps += "; longest " + seconds(longest) + " after " + iso(at)
            }
            lines.append(("gaps", gaps))
        }
        if runs > 1 { lines.append(("runs", "\(runs) (the logger was started \(runs) times)")) }
        if timeStepsBack > 0 { lines.append(("clock", "time stepped back \(timeStepsBack) times")) }
        if let column = headingColumn {
            let kind = column == "heading_true_deg" ? "true" : "magnetic"
            var text = kind + ", \(headingRows) rows: "
            if let mean = headingMean, let spread = headingSpread {
                text += "mean " + fixed(mean, 1) + "°, circular spread " + fixed(spread, 1) + "°"
            } else {
                text += "no mean direction (the headings cancel out)"
            }
            lines.append(("heading", text))
        } else {
            lines.append(("heading", "none in this log"))
        }
        if let lo = fieldMin, let hi = fieldMax, let mean = fieldMean {
            lines.append(("field", "min " + fixed(lo, 2) + " µT, max " + fixed(hi, 2) + " µT, mean " + fixed(mean, 2) + " µT"))
        }
        lines.append(("disturbed", seconds(disturbedTime) + " (\(disturbedRows) rows)"))
        if fixRows > 0 {
            lines.append(("GNSS", "\(fixRows) rows with a fix, \(distinctFixes) distinct positions, "
                          + distanceText(distance) + " travelled"))
        } else {
            lines.append(("GNSS", "no fixes"))
        }
        let width = (lines.map(\.0.count).max() ?? 0) + 2
        return lines.map { $0.0 + String(repeating: " ", count: width - $0.0.count) + $0.1 }.joined(separator: "\n") + "\n"
    }

    private func iso(_ t: Double) -> String { TimeText.string(milliseconds: TimeText.milliseconds(t) ?? 0) }
    private func seconds(_ s: Double) -> String { fixed(s, s < 10 ? 3 : 1) + " s" }

    /// Metres to a tenth below 10 km, else kilometres to two decimals.
    public static func metricDistance(_ m: Double) -> String {
        m >= 10_000 ? fixed(m / 1000, 2) + " km" : fixed(m, 1) + " m"
    }

    private func durationText(_ s: Double) -> String {
        let total = Int(s.rounded(.down))
        let h = total / 3600, m = total / 60 % 60
        let sec = s - Double(h * 3600 + m * 60)
        if h > 0 { return "\(h) h \(m) min " + fixed(sec, 0) + " s" }
        if m > 0 { return "\(m) min " + fixed(sec, 1) + " s" }
        return fixed(sec, 3) + " s"
    }
}
