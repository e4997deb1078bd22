import JSON
import Platform

/// Signal K (specification 1.x) delta messages from a `HeadingReport`: SI units (radians, rad/s),
/// an RFC 3339 timestamp, a `$source`, and only the paths whose values are known:
/// `navigation.headingMagnetic`, `navigation.headingTrue`, `navigation.magneticVariation`,
/// `navigation.headingCompass` and `navigation.magneticDeviation` (when a deviation card applies),
/// `navigation.rateOfTurn` and `navigation.attitude` `{roll, pitch, yaw}`.
///
/// ```swift
/// let sk = SignalKDelta(source: "lodestone.HC")
/// sk.delta(for: report).serialized()
/// // {"context":"vessels.self","updates":[{"$source":"lodestone.HC","timestamp":"2026-…Z","values":[…]}]}
/// ```
public struct SignalKDelta: Sendable {
    /// The `$source` of every update, e.g. "lodestone.HC".
    public var source: String

    public init(source: String = "lodestone.HC") { self.source = source }

    /// The path/value pairs of one report, in radians.
    public func values(for r: HeadingReport) -> [(path: String, value: JSONValue)] {
        var out: [(String, JSONValue)] = []
        func angle(_ path: String, _ degrees: Double?) {
            if let d = degrees, d.isFinite { out.append((path, .number(radians(d)))) }
        }
        if r.deviation != nil {
            angle("navigation.headingCompass", r.compassHeading.map(wrapDegrees))
            angle("navigation.magneticDeviation", r.deviation)
        }
        angle("navigation.headingMagnetic", wrapDegrees(r.magneticHeading))
        angle("navigation.magneticVariation", r.variation)
        angle("navigation.headingTrue", r.trueHeading.map(wrapDegrees))
        angle("navigation.rateOfTurn", r.rateOfTurn)
        if r.roll != nil || r.pitch != nil {
            var attitude: [(String, JSONValue)] = []
            if let roll = r.roll { attitude.append(("roll", .number(radians(roll)))) }
            if let pitch = r.pitch { attitude.append(("pitch", .number(radians(pitch)))) }
            if let yaw = r.trueHeading ?? (r.variation == nil ? nil : r.magneticHeading) {
                attitude.append(("yaw", .number(radians(wrapDegrees(yaw)))))
            }
            out.append(("navigation.attitude", .object(attitude)))
        }
        return out
    }

    /// One delta message for the report.
    public func delta(for r: HeadingReport) -> JSONValue {
        let values = self.values(for: r).map { JSONValue.object([("path", .string($0.path)), ("value", $0.value)]) }
        let update = JSONValue.object([
            ("$source", .string(source)),
            ("timestamp", .string(ISO8601.format(r.wall))),
            ("values", .array(values)),
        ])
        return .object([("context", .string("vessels.self")), ("updates", .array([update]))])
    }

    /// Degrees to radians, rounded to 1e-6 rad (0.00006°) to keep messages short.
    func radians(_ degrees: Double) -> Double {
        (degrees * Double.pi / 180 * 1e6).rounded() / 1e6
    }
}
