import Geodesy
import GNSS
import JSON
import Navigation
import Outputs
import Platform

/// How `lodestone track` writes its reports: one line each, as text, CSV or JSON.
public struct TrackOutput: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case text, csv, json
    }

    var format: Format
    var style: BearingStyle
    var language: Language
    /// The units of the text format (CSV and JSON stay in SI units).
    var units: UnitSystem = .metric

    /// The CSV header (nil for other formats): the movement report's keys, as in JSON.
    var header: String? {
        format == .csv ? ReportCSV.header(ReportJSON.movementKeys) : nil
    }

    /// One report as a line, with its newline.
    func line(_ report: MovementReport) -> String {
        switch format {
        case .text: return textLine(report)
        case .csv: return ReportCSV.row(record(report))
        case .json: return record(report).serialized() + "\n"
        }
    }

    /// The report in the one vocabulary (`ReportJSON.movement`).
    func record(_ report: MovementReport) -> JSONValue {
        ReportJSON.movement(MovementRecord(report, wall: report.fix.time ?? .nan, direction: direction))
    }

    /// The direction text for a leg (Navigation's rule: the geodesic bearing of a significant
    /// displacement, else the course over ground while moving), or "stationary" / "静止".
    func direction(_ leg: Leg) -> String {
        formatDirection(leg, style: style, language: language)
    }

    private func textLine(_ report: MovementReport) -> String {
        let fix = report.fix
        var parts: [String] = []
        parts.append(fix.time.map { utcClockTime($0) } ?? "--:--:--")
        if let lat = fix.lat, let lon = fix.lon { parts.append(plain(lat) + ", " + plain(lon)) }
        if let error = fix.horizontalError {
            parts.append("±" + formatDistance(error, language: language, units: units))
        }
        parts.append(formatReportSummary(report, style: style, language: language, units: units))
        return parts.joined(separator: "  ") + "\n"
    }
}

/// "09:53:06Z": the UTC time of day of a Unix time.
func utcClockTime(_ unixSeconds: Double) -> String {
    let iso = ISO8601.format(unixSeconds, fractionDigits: 0)
    guard let t = iso.firstIndex(of: "T") else { return iso }
    return String(iso[iso.index(after: t)...])
}
