import JSON
import Platform

/// One line of gpsd's JSON stream, identified by its `"class"` member.
///
/// Only the classes a position client needs are decoded; everything else is `.other`.
///
/// ```swift
/// switch try GpsdReport.parse(#"{"class":"TPV","mode":3,"lat":-33.8694,"lon":151.199}"#) {
/// case .tpv(let fix): print(fix.lat ?? 0)
/// default: break
/// }
/// ```
public enum GpsdReport: Sendable, Equatable {
    /// A time-position-velocity report (with or without a position).
    case tpv(Fix)
    /// The daemon's version banner (`release`).
    case version(String)
    /// The receivers gpsd knows about (device paths, sanitized).
    case devices([String])
    /// An error gpsd reports about our request (message sanitized).
    case error(String)
    /// Any other class (SKY, WATCH, DEVICE, PPS, …) or a line without a class.
    case other(String)

    /// Decodes one JSON line from gpsd. Throws `GNSSError.malformedReport` when the line is not JSON.
    public static func parse(_ line: String) throws(GNSSError) -> GpsdReport {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            throw .malformedReport(excerpt(line, limit: 80), error.message)
        }
        return decode(value)
    }

    /// Decodes an already parsed JSON value.
    public static func decode(_ value: JSONValue) -> GpsdReport {
        guard let kind = value["class"]?.string else { return .other("") }
        switch kind {
        case "TPV":
            return .tpv(decodeFix(value))
        case "VERSION":
            return .version(sanitize(value["release"]?.string ?? "unknown"))
        case "DEVICES":
            let paths = (value["devices"]?.array ?? []).map { device in
                sanitize(device["path"]?.string ?? "?")
            }
            return .devices(paths)
        case "ERROR":
            return .error(sanitize(value["message"]?.string ?? "unspecified error"))
        default:
            return .other(sanitize(kind))
        }
    }

    /// The `Fix` in a TPV object. Members with the wrong type, non-finite numbers and values out of
    /// their physical range are treated as absent. `magtrack` and `magvar` are ignored on purpose:
    /// gpsd 3.22 derives them from a coarse table and gets the sign of east variation wrong.
    static func decodeFix(_ v: JSONValue) -> Fix {
        func number(_ key: String, _ range: ClosedRange<Double>? = nil) -> Double? {
            guard let d = v[key]?.double, d.isFinite else { return nil }
            if let range, !range.contains(d) { return nil }
            return d
        }
        var fix = Fix(mode: FixMode(gpsdMode: v["mode"]?.int ?? 0))
        if let text = v["time"]?.string { fix.time = ISO8601.parse(text) }
        fix.lat = number("lat", -90...90)
        fix.lon = number("lon", -180...180)
        fix.altHAE = number("altHAE")
        // gpsd before 3.20 sent only `alt` (mean sea level).
        fix.altMSL = number("altMSL") ?? number("alt")
        if let track = number("track") {
            let t = track.truncatingRemainder(dividingBy: 360)
            fix.course = t < 0 ? t + 360 : t
        }
        fix.speed = number("speed", 0...Double.greatestFiniteMagnitude)
        fix.climb = number("climb")
        let nonNegative = 0...Double.greatestFiniteMagnitude
        fix.eph = number("eph", nonNegative)
        fix.epx = number("epx", nonNegative)
        fix.epy = number("epy", nonNegative)
        fix.epv = number("epv", nonNegative)
        fix.eps = number("eps", nonNegative)
        fix.epd = number("epd", nonNegative)
        if let device = v["device"]?.string { fix.device = sanitize(device) }
        if fix.lat == nil || fix.lon == nil {
            // A position needs both coordinates; half of one is no position at all.
            fix.lat = nil
            fix.lon = nil
        }
        return fix
    }
}
