import JSON
import Platform

/// The JSON objects Lodestone publishes (`serve --json`, `watch --json`, MQTT payloads): units in the
/// key names as in the CSV log, unknown values left out, never NaN.
///
/// ```swift
/// ReportJSON.heading(report).serialized()
/// // {"time":"2026-11-18T08:53:20.000Z","monotonic_s":12.5,"heading_mag_deg":123.4,…,"flags":[]}
/// ```
public enum ReportJSON {
    /// A heading update, with the current GNSS fix under "fix" when one is given.
    public static func heading(_ r: HeadingReport, fix: FixReport? = nil) -> JSONValue {
        var o: [(String, JSONValue)] = [("time", .string(ISO8601.format(r.wall))), ("monotonic_s", number(r.monotonic, 6))]
        o.append(("heading_mag_deg", number(wrapDegrees(r.magneticHeading), 3)))
        add(&o, "heading_true_deg", r.trueHeading.map(wrapDegrees), 3)
        add(&o, "heading_compass_deg", r.deviation == nil ? nil : r.compassHeading.map(wrapDegrees), 3)
        add(&o, "deviation_deg", r.deviation, 3)
        add(&o, "declination_deg", r.variation, 3)
        if let s = r.variationSource { o.append(("declination_source", .string(s))) }
        add(&o, "accuracy_deg", r.accuracy, 2)
        add(&o, "roll_accuracy_deg", r.rollAccuracy, 2)
        add(&o, "pitch_accuracy_deg", r.pitchAccuracy, 2)
        add(&o, "rate_of_turn_dps", r.rateOfTurn, 3)
        add(&o, "roll_deg", r.roll, 3)
        add(&o, "pitch_deg", r.pitch, 3)
        add(&o, "field_uT", r.fieldStrength, 3)
        o.append(("flags", .array(r.flags.map(JSONValue.string))))
        if let refinement = r.refinement { o.append(("refine", Self.refinement(refinement))) }
        if let fix { o.append(("fix", Self.fix(fix))) }
        return .object(o)
    }

    /// The background refinement: its state, the offset's change from the profile and its magnitude,
    /// the 1σ (once converged) and the refined offset (with a profile).
    public static func refinement(_ r: RefinementSummary) -> JSONValue {
        var o: [(String, JSONValue)] = [("state", .string(r.state))]
        if r.change.allSatisfy(\.isFinite) { o.append(("change_uT", .array(r.change.map { number($0, 3) }))) }
        add(&o, "change_magnitude_uT", r.changeMagnitude, 3)
        add(&o, "sigma_uT", r.sigma, 3)
        if let offset = r.offset, offset.allSatisfy(\.isFinite) { o.append(("offset_uT", .array(offset.map { number($0, 3) }))) }
        add(&o, "soft_iron_percent", r.softIronPercent, 2)
        return .object(o)
    }

    /// A GNSS fix.
    public static func fix(_ f: FixReport) -> JSONValue {
        var o: [(String, JSONValue)] = [("time", .string(ISO8601.format(f.wall))), ("gnss_mode", .string(f.mode))]
        add(&o, "lat_deg", f.latitude, 8)
        add(&o, "lon_deg", f.longitude, 8)
        add(&o, "alt_m", f.altitude, 3)
        add(&o, "speed_mps", f.speed, 3)
        add(&o, "course_deg", f.course, 3)
        add(&o, "eph_m", f.horizontalError, 3)
        return .object(o)
    }

    /// An event: `{"time":…,"event":"started","message":…}`.
    public static func event(_ name: String, message: String, wall: Double) -> JSONValue {
        .object([("time", .string(ISO8601.format(wall))), ("event", .string(name)), ("message", .string(message))])
    }

    /// A region event, with the same keys as `regions --format json`:
    /// `{"time":…,"region":"home","event":"enter","lat":…,"lon":…,"distance_m":…}` (time null when
    /// the receiver gave none).
    public static func region(_ r: RegionReport) -> JSONValue {
        var o: [(String, JSONValue)] = [("time", r.wall.map { .string(ISO8601.format($0)) } ?? .null),
                                        ("region", .string(r.region)), ("event", .string(r.event))]
        add(&o, "lat", r.latitude, 8)
        add(&o, "lon", r.longitude, 8)
        add(&o, "distance_m", r.distance, 3)
        return .object(o)
    }

    private static func add(_ o: inout [(String, JSONValue)], _ key: String, _ value: Double?, _ decimals: Int) {
        if let v = value, v.isFinite { o.append((key, number(v, decimals))) }
    }

    /// A number rounded to `decimals` places (no "-0"), by the one formatter's rule.
    private static func number(_ v: Double, _ decimals: Int) -> JSONValue {
        .number(roundedToDecimals(v, decimals))
    }
}
