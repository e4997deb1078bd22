import HeadingLog
import JSON

/// The summary of `lodestone analyze --json`: one object, times as ISO 8601 text, durations in
/// seconds, angles in degrees, fields in µT, distances in metres; null where nothing was measured.
///
/// ```swift
/// out.write(analysisJSON(summary, svg: nil, gpx: nil).serialized() + "\n")
/// ```
func analysisJSON(_ s: LogSummary, svg: String?, gpx: String?) -> JSONValue {
    func number(_ v: Double?) -> JSONValue { v.map { $0.isFinite ? .number($0) : .null } ?? .null }
    func count(_ v: Int) -> JSONValue { .number(Double(v)) }
    func time(_ t: Double?) -> JSONValue {
        guard let t, let ms = TimeText.milliseconds(t) else { return .null }
        return .string(TimeText.string(milliseconds: ms))
    }
    return .object([
        ("file", .string(s.path)),
        ("rows", count(s.rows)),
        ("malformed_rows", count(s.malformedRows)),
        ("first_time", time(s.firstTime)),
        ("last_time", time(s.lastTime)),
        ("duration_s", number(s.duration)),
        ("rate_hz", number(s.rate)),
        ("median_interval_s", number(s.medianInterval)),
        ("gap_threshold_s", number(s.gapThreshold)),
        ("gaps", count(s.gapCount)),
        ("longest_gap_s", number(s.longestGap)),
        ("longest_gap_after", time(s.longestGapStart)),
        ("runs", count(s.runs)),
        ("time_steps_back", count(s.timeStepsBack)),
        ("heading_column", s.headingColumn.map { .string($0) } ?? .null),
        ("heading_rows", count(s.headingRows)),
        ("heading_mean_deg", number(s.headingMean)),
        ("heading_spread_deg", number(s.headingSpread)),
        ("field_min_uT", number(s.fieldMin)),
        ("field_max_uT", number(s.fieldMax)),
        ("field_mean_uT", number(s.fieldMean)),
        ("disturbed_rows", count(s.disturbedRows)),
        ("disturbed_s", number(s.disturbedTime)),
        ("gnss_fix_rows", count(s.fixRows)),
        ("gnss_positions", count(s.distinctFixes)),
        ("distance_m", number(s.distance)),
        ("svg", svg.map { .string($0) } ?? .null),
        ("gpx", gpx.map { .string($0) } ?? .null),
    ])
}
