import Geodesy
import GNSS
import JSON
import Navigation
import Platform

/// How `lodestone track` writes its reports: one line each, as text, CSV or JSON.
public struct TrackOutput: Sendable {
    public enum Format: String, Sendable {
        case text, csv, json
    }

    var format: Format
    var style: BearingStyle
    var language: Language
    /// The units of the text format (CSV and JSON stay in SI units).
    var units: UnitSystem = .metric

    /// The CSV header (nil for other formats).
    var header: String? {
        format == .csv
            ? "time,lat,lon,distance_m,bearing_deg,bearing,total_m,speed_mps,course_deg,stationary,eph_m,mode\n"
            : nil
    }

    /// One report as a line, with its newline.
    func line(_ report: MovementReport) -> String {
        switch format {
        case .text: return textLine(report)
        case .csv: return csvLine(report)
        case .json: return jsonValue(report).serialized() + "\n"
        }
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

    private func csvLine(_ report: MovementReport) -> String {
        let fix = report.fix
        var fields: [String] = []
        fields.append(fix.time.map { ISO8601.format($0) } ?? "")
        fields.append(fix.lat.map(plain) ?? "")
        fields.append(fix.lon.map(plain) ?? "")
        fields.append(report.leg.map { plain($0.distance, decimals: 3) } ?? "")
        fields.append(report.leg.flatMap { $0.distance > 0 ? plain($0.azimuth, decimals: 3) : nil } ?? "")
        fields.append(report.leg.map { trackCSVField(direction($0)) } ?? "")
        fields.append(plain(report.totalDistance, decimals: 3))
        fields.append(report.speed.map { plain($0, decimals: 3) } ?? "")
        fields.append(report.course.map { plain($0, decimals: 4) } ?? "")
        fields.append(report.leg.map { $0.isStationary ? "true" : "false" } ?? "")
        fields.append(fix.horizontalError.map(plain) ?? "")
        fields.append(String(fix.mode.rawValue))
        return fields.joined(separator: ",") + "\n"
    }

    private func jsonValue(_ report: MovementReport) -> JSONValue {
        let fix = report.fix
        func number(_ v: Double?) -> JSONValue { v.map { .number($0) } ?? .null }
        func roundedNumber(_ v: Double?, _ decimals: Int) -> JSONValue {
            v.map { .number(roundedToDecimals($0, decimals)) } ?? .null
        }
        let leg = report.leg
        return .object([
            ("time", fix.time.map { .string(ISO8601.format($0)) } ?? .null),
            ("lat", number(fix.lat)),
            ("lon", number(fix.lon)),
            ("distance_m", roundedNumber(leg?.distance, 3)),
            ("bearing_deg", leg.flatMap { $0.distance > 0 ? roundedNumber($0.azimuth, 3) : nil } ?? .null),
            ("bearing", leg.map { .string(direction($0)) } ?? .null),
            ("total_m", roundedNumber(report.totalDistance, 3)),
            ("speed_mps", roundedNumber(report.speed, 3)),
            ("course_deg", roundedNumber(report.course, 4)),
            ("stationary", leg.map { .bool($0.isStationary) } ?? .null),
            ("eph_m", number(fix.horizontalError)),
            ("mode", .number(Double(fix.mode.rawValue))),
        ])
    }
}

/// "09:53:06Z": the UTC time of day of a Unix time.
func utcClockTime(_ unixSeconds: Double) -> String {
    let iso = ISO8601.format(unixSeconds, fractionDigits: 0)
    guard let t = iso.firstIndex(of: "T") else { return iso }
    return String(iso[iso.index(after: t)...])
}

/// A CSV field, quoted when it holds a comma, quote or line break.
func trackCSVField(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    var quoted = "\""
    for c in text { quoted += c == "\"" ? "\"\"" : String(c) }
    return quoted + "\""
}
