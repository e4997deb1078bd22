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
    public var source: String { didSet { sourceJSON = Self.quoted(source) } }
    /// `source` as a JSON string (quoted, escaped), made once for every delta.
    private var sourceJSON: [UInt8]

    public init(source: String = "lodestone.HC") {
        self.source = source
        sourceJSON = Self.quoted(source)
    }

    private static func quoted(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        JSONValue.appendString(text, to: &out)
        return out
    }

    /// One value of a delta: an angle or a rate (radians, radians per second), or the attitude.
    enum Value {
        case number(Double)
        case attitude(roll: Double?, pitch: Double?, yaw: Double?)

        var json: JSONValue {
            switch self {
            case .number(let v): return .number(v)
            case let .attitude(roll, pitch, yaw):
                var fields: [(String, JSONValue)] = []
                if let roll { fields.append(("roll", .number(roll))) }
                if let pitch { fields.append(("pitch", .number(pitch))) }
                if let yaw { fields.append(("yaw", .number(yaw))) }
                return .object(fields)
            }
        }
    }

    /// The one list of a report's paths and values (radians), in order; nothing allocated.
    private func visit(_ r: HeadingReport, _ body: (StaticString, Value) -> Void) {
        func angle(_ path: StaticString, _ degrees: Double?) {
            if let d = degrees, d.isFinite { body(path, .number(radians(d))) }
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
            let yaw = r.trueHeading ?? (r.variation == nil ? nil : r.magneticHeading)
            body("navigation.attitude", .attitude(roll: r.roll.map(radians), pitch: r.pitch.map(radians),
                                                  yaw: yaw.map { radians(wrapDegrees($0)) }))
        }
    }

    /// The path/value pairs of one report, in radians.
    public func values(for r: HeadingReport) -> [(path: String, value: JSONValue)] {
        var out: [(String, JSONValue)] = []
        visit(r) { path, value in out.append((path.description, value.json)) }
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

    /// Appends the delta message (`delta(for:).serialized()`, the same bytes) to `out`, written
    /// straight into the buffer: what `serve` sends at every update.
    public func append(_ r: HeadingReport, to out: inout [UInt8]) {
        appendStatic(#"{"context":"vessels.self","updates":[{"$source":"#, to: &out)
        out.append(contentsOf: sourceJSON)
        appendStatic(#","timestamp":""#, to: &out)
        ISO8601.append(r.wall, to: &out)
        appendStatic(#"","values":["#, to: &out)
        var first = true
        visit(r) { path, value in
            if first { appendStatic(#"{"path":""#, to: &out) } else { appendStatic(#",{"path":""#, to: &out) }
            first = false
            appendStatic(path, to: &out)
            appendStatic(#"","value":"#, to: &out)
            switch value {
            case .number(let v): appendRadians(v, to: &out)
            case let .attitude(roll, pitch, yaw):
                var key = UInt8(ascii: "{")
                func member(_ name: StaticString, _ v: Double?) {
                    guard let v else { return }
                    out.append(key)
                    key = UInt8(ascii: ",")
                    out.append(UInt8(ascii: "\""))
                    appendStatic(name, to: &out)
                    appendStatic(#"":"#, to: &out)
                    appendRadians(v, to: &out)
                }
                member("roll", roll)
                member("pitch", pitch)
                member("yaw", yaw)
                if key == UInt8(ascii: "{") { out.append(key) }
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "}"))
        }
        appendStatic("]}]}", to: &out)
    }

    /// A value of `radians(_:)` as `JSONValue.appendNumber` writes it (its shortest form), made from
    /// its six decimals directly (`appendRounded`: the value is already rounded to them, so the
    /// digits are the same); zero (its sign kept) and non-finite values as `appendNumber` has them.
    private func appendRadians(_ v: Double, to out: inout [UInt8]) {
        if v.isFinite && v != 0 { appendRounded(v, 6, to: &out) } else { JSONValue.appendNumber(v, to: &out) }
    }

    /// Degrees to radians, rounded to 1e-6 rad (0.00006°) to keep messages short.
    func radians(_ degrees: Double) -> Double {
        (degrees * Double.pi / 180 * 1e6).rounded() / 1e6
    }
}
