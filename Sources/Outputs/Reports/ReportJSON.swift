import JSON
import Platform

/// The one vocabulary of Lodestone's outputs: every JSON object and CSV column of every command
/// names a quantity as the CSV log does (units in the names: `lat_deg`, `alt_m`, `speed_mps`,
/// `heading_mag_deg`), gives the fix mode as the log does (`gnss_mode`: "2d", "3d", "no_fix"),
/// times under `time` as ISO 8601 UTC, altitude as `alt_m` above mean sea level only, and an
/// unknown value as `null` with its key present, so every object of one kind has the same keys.
/// The JSON Schemas in `schema/` describe each kind; the key lists here are what they check.
///
/// ```swift
/// ReportJSON.heading(report).serialized()
/// // {"time":"2026-11-18T08:53:20.000Z","monotonic_s":12.5,"heading_mag_deg":123.4,…,"fix":null}
/// ```
public enum ReportJSON {
    /// A heading update (`watch --json`, `serve --json`, MQTT `heading`), with the current fix under
    /// "fix" (null without one).
    public static func heading(_ r: HeadingReport, fix: FixReport? = nil) -> JSONValue {
        var o = Fields()
        headingFields(r, fix: fix, &o)
        return o.json
    }

    /// Appends `heading(r, fix:).serialized()` (the same bytes) to `out`, written straight into
    /// the buffer: what `serve` and `watch --json` send at every update.
    public static func appendHeading(_ r: HeadingReport, fix: FixReport? = nil, to out: inout [UInt8]) {
        var o = ObjectBytes(taking: &out)
        headingFields(r, fix: fix, &o)
        o.close(into: &out)
    }

    /// Writes `{` and a heading update's fields before its fix, then `"fix":`, into `out`: the part
    /// of `appendHeading`'s object that does not depend on the fix (`HeadingMessage` writes it once
    /// for every sink; the fix's value (`appendFix`, or `null`) and `}` complete it).
    static func appendHeadingBeforeFix(_ r: HeadingReport, to out: inout [UInt8]) {
        var o = ObjectBytes(taking: &out)
        reportFields(r, &o)
        o.close(beforeValueOf: "fix", into: &out)
    }

    /// Appends a fix's object (`fix(f).serialized()`, the same bytes) to `out`.
    static func appendFix(_ f: FixReport, to out: inout [UInt8]) {
        var o = ObjectBytes(taking: &out)
        fixFields(f, &o)
        o.close(into: &out)
    }

    /// The one list of a heading update's keys and values, for either writer: the report's, then
    /// the fix.
    static func headingFields<W: ObjectWriter>(_ r: HeadingReport, fix: FixReport?, _ o: inout W) {
        reportFields(r, &o)
        if let fix {
            o.object("fix") { fixFields(fix, &$0) }
        } else {
            o.value("fix", nil)
        }
    }

    /// A heading update's keys and values before its "fix", in order.
    private static func reportFields<W: ObjectWriter>(_ r: HeadingReport, _ o: inout W) {
        o.time("time", r.wall)
        o.number("monotonic_s", r.monotonic, 6)
        o.angle("heading_mag_deg", r.magneticHeading, 3)
        o.angle("heading_true_deg", r.trueHeading, 3)
        o.angle("heading_compass_deg", r.deviation == nil ? nil : r.compassHeading, 3)
        o.number("deviation_deg", r.deviation, 3)
        o.number("declination_deg", r.variation, 3)
        o.text("declination_source", r.variationSource)
        o.number("accuracy_deg", r.accuracy, 2)
        o.number("roll_accuracy_deg", r.rollAccuracy, 2)
        o.number("pitch_accuracy_deg", r.pitchAccuracy, 2)
        o.number("rate_of_turn_dps", r.rateOfTurn, 3)
        o.number("roll_deg", r.roll, 3)
        o.number("pitch_deg", r.pitch, 3)
        o.number("field_uT", r.fieldStrength, 3)
        o.strings("flags", r.flags)
        o.value("refine", r.refinement.map(refinement))
    }

    /// The background refinement: its state, the offset's change from the profile and its magnitude,
    /// the 1σ (once converged) and the refined offset (with a profile).
    public static func refinement(_ r: RefinementSummary) -> JSONValue {
        var o = Fields()
        o.text("state", r.state)
        o.value("change_uT", r.change.allSatisfy(\.isFinite) ? .array(r.change.map { number($0, 3) }) : nil)
        o.number("change_magnitude_uT", r.changeMagnitude, 3)
        o.number("sigma_uT", r.sigma, 3)
        o.value("offset_uT", r.offset.flatMap { v in v.allSatisfy(\.isFinite) ? .array(v.map { number($0, 3) }) : nil })
        o.number("soft_iron_percent", r.softIronPercent, 2)
        return o.json
    }

    /// The keys of a fix, in order: the log's GNSS columns.
    public static let fixKeys = ["time", "gnss_mode", "lat_deg", "lon_deg", "alt_m", "speed_mps", "course_deg", "eph_m"]

    /// A GNSS fix (MQTT `fix`, the heading update's "fix", `where`'s "fix").
    public static func fix(_ f: FixReport) -> JSONValue {
        var o = Fields()
        fixFields(f, &o)
        return o.json
    }

    private static func fixFields<W: ObjectWriter>(_ f: FixReport, _ o: inout W) {
        o.time("time", f.wall)
        o.text("gnss_mode", f.mode)
        o.number("lat_deg", f.latitude, 8)
        o.number("lon_deg", f.longitude, 8)
        o.number("alt_m", f.altitude, 3)
        o.number("speed_mps", f.speed, 3)
        o.angle("course_deg", f.course, 3)
        o.number("eph_m", f.horizontalError, 3)
    }

    /// An event: `{"time":…,"event":"started","message":…}`.
    public static func event(_ name: String, message: String, wall: Double) -> JSONValue {
        var o = Fields()
        o.time("time", wall)
        o.text("event", name)
        o.text("message", message)
        return o.json
    }

    /// The keys of a region event, in order (also `regions --format csv`'s columns).
    public static let regionKeys = ["time", "region", "event", "lat_deg", "lon_deg", "distance_m"]

    /// A region event (`regions --format json`, `serve`'s region events).
    public static func region(_ r: RegionReport) -> JSONValue {
        var o = Fields()
        o.time("time", r.wall)
        o.text("region", r.region)
        o.text("event", r.event)
        o.number("lat_deg", r.latitude, 8)
        o.number("lon_deg", r.longitude, 8)
        o.number("distance_m", r.distance, 3)
        return o.json
    }

    /// The keys of a movement report, in order (also `track --format csv`'s columns).
    public static let movementKeys = fixKeys + ["fix_distance_m", "fix_bearing_deg", "fix_direction", "total_m", "stationary"]

    /// A movement report (`track --format json`): the fix's keys, then the leg's and the total.
    public static func movement(_ m: MovementRecord) -> JSONValue {
        var o = Fields()
        fixFields(m.fix, &o)
        o.number("fix_distance_m", m.legDistance, 3)
        o.angle("fix_bearing_deg", m.legBearing, 3)
        o.text("fix_direction", m.legDirection)
        o.number("total_m", m.total, 3)
        o.value("stationary", m.stationary.map(JSONValue.bool))
        return o.json
    }

    /// The keys of a place, in order.
    public static let placeKeys = ["name", "ascii_name", "name_zh", "region", "country", "country_name", "time_zone",
                                   "population", "lat_deg", "lon_deg", "radius_m", "distance_m", "direction_deg",
                                   "matched_name", "match"]

    /// A place (`places near|find|list --json`, `where`'s near and town).
    public static func place(_ p: PlaceRecord) -> JSONValue {
        var o = Fields()
        o.text("name", p.name)
        o.text("ascii_name", p.asciiName)
        o.text("name_zh", p.chineseName)
        o.text("region", p.region)
        o.text("country", p.country)
        o.text("country_name", p.countryName)
        o.text("time_zone", p.timeZone)
        o.value("population", p.population.map { .number(Double($0)) })
        o.number("lat_deg", p.latitude, 8)
        o.number("lon_deg", p.longitude, 8)
        o.number("radius_m", p.radius, 3)
        o.number("distance_m", p.distance, 3)
        o.angle("direction_deg", p.direction, 6)
        o.text("matched_name", p.matchedName)
        o.text("match", p.match)
        return o.json
    }

    /// The keys of a `goto` report, in order (also `goto --format csv`'s columns).
    public static let guidanceKeys = ["time", "lat_deg", "lon_deg", "distance_m", "bearing_deg", "relative_bearing_deg",
                                      "vmg_mps", "eta_s", "xte_m", "arrived"]

    /// A `goto` report.
    public static func guidance(_ g: GuidanceRecord) -> JSONValue {
        var o = Fields()
        o.time("time", g.wall)
        o.number("lat_deg", g.latitude, 8)
        o.number("lon_deg", g.longitude, 8)
        o.number("distance_m", g.distance, 3)
        o.angle("bearing_deg", g.bearing, 6)
        o.number("relative_bearing_deg", g.relativeBearing, 3)
        o.number("vmg_mps", g.speedMadeGood, 3)
        o.number("eta_s", g.timeToGo, 1)
        o.number("xte_m", g.crossTrackError, 3)
        o.value("arrived", .bool(g.arrived))
        return o.json
    }

    /// `where --json`: the fix, the receiver, the nearest place and the town beside it, and the
    /// local time at the fix (ISO 8601 with the zone's offset; null without the zone's rules).
    public static func position(fix: FixReport, device: String?, near: PlaceRecord?, town: PlaceRecord?,
                                localTime: String?) -> JSONValue {
        var o = Fields()
        o.value("fix", Self.fix(fix))
        o.text("device", device)
        o.value("near", near.map(place))
        o.value("town", town.map(place))
        o.text("local_time", localTime)
        return o.json
    }

    /// The keys of a replayed estimate, in order; `heading --from-file`'s CSV has the same names, without
    /// the roll and pitch accuracy, and `refine` as its `refine_…` columns.
    public static let replayKeys = [
        "monotonic_s", "heading_mag_deg", "heading_true_deg", "accuracy_deg", "roll_accuracy_deg", "pitch_accuracy_deg",
        "heading_mag_raw_deg", "declination_deg", "declination_source", "field_uT", "roll_deg", "pitch_deg", "flags",
        "rate_of_turn_dps", "qw", "qx", "qy", "qz", "refine"]

    /// One estimate of `heading --from-file --format json`, its numbers at the replay CSV's resolution.
    public static func replay(_ r: ReplayRecord) -> JSONValue {
        var o = Fields()
        o.exact("monotonic_s", r.monotonic)
        o.angle("heading_mag_deg", r.magneticHeading, 4)
        o.angle("heading_true_deg", r.trueHeading, 4)
        o.number("accuracy_deg", r.accuracy, 3)
        o.number("roll_accuracy_deg", r.rollAccuracy, 2)
        o.number("pitch_accuracy_deg", r.pitchAccuracy, 2)
        o.angle("heading_mag_raw_deg", r.rawMagneticHeading, 4)
        o.number("declination_deg", r.declination, 4)
        o.text("declination_source", r.declinationSource)
        o.number("field_uT", r.fieldStrength, 3)
        o.number("roll_deg", r.roll, 3)
        o.number("pitch_deg", r.pitch, 3)
        o.value("flags", .array(r.flags.map(JSONValue.string)))
        o.number("rate_of_turn_dps", r.rateOfTurn, 3)
        let quaternionKeys: [StaticString] = ["qw", "qx", "qy", "qz"]
        for (index, key) in quaternionKeys.enumerated() {
            o.number(key, r.quaternion.flatMap { index < $0.count ? $0[index] : nil }, 6)
        }
        o.value("refine", r.refinement.map(refinement))
        return o.json
    }

    /// The keys of `declination --json`, in order.
    public static let declinationKeys = [
        "decimal_year", "lat_deg", "lon_deg", "height_km", "declination_deg", "declination_uncertainty_deg",
        "declination_change_deg_per_year", "inclination_deg", "inclination_change_deg_per_year", "total_nT",
        "horizontal_nT", "north_nT", "east_nT", "down_nT", "total_change_nT_per_year", "grid_variation_deg", "zone",
        "extrapolated"]

    /// The World Magnetic Model at one place and date (`declination --json`), at the model's full precision.
    public static func declination(_ d: DeclinationRecord) -> JSONValue {
        var o = Fields()
        for (key, value) in zip(declinationKeys, [d.decimalYear, d.latitude, d.longitude, d.heightKm, d.declination,
                                                  d.declinationUncertainty, d.declinationChange, d.inclination,
                                                  d.inclinationChange, d.total, d.horizontal, d.north, d.east, d.down,
                                                  d.totalChange, d.gridVariation]) {
            o.exact(key, value)
        }
        o.text("zone", d.zone)
        o.value("extrapolated", .bool(d.extrapolated))
        return o.json
    }

    /// The keys (and `geod --csv`'s columns) of a geodesic problem, in order: what was given, then
    /// what was found. A point's latitude and longitude are named as a fix's, with the point's number.
    public static func geodesicKeys(inverse: Bool) -> [String] {
        inverse ? ["lat1_deg", "lon1_deg", "lat2_deg", "lon2_deg", "distance_m", "azimuth1_deg", "azimuth2_deg"]
            : ["lat1_deg", "lon1_deg", "azimuth1_deg", "distance_m", "lat2_deg", "lon2_deg", "azimuth2_deg"]
    }

    /// A geodesic problem and its answer (`geod --json`), at full precision (nanometres).
    public static func geodesic(_ g: GeodesicRecord) -> JSONValue {
        let values: [String: Double] = ["lat1_deg": g.latitude1, "lon1_deg": g.longitude1, "lat2_deg": g.latitude2,
                                        "lon2_deg": g.longitude2, "distance_m": g.distance, "azimuth1_deg": g.azimuth1,
                                        "azimuth2_deg": g.azimuth2]
        var o = Fields()
        for key in geodesicKeys(inverse: g.inverse) { o.exact(key, values[key]) }
        return o.json
    }

    /// Which sensors answer (`detect --json`): every device, the ones the commands will use, and the
    /// buses that could not be opened.
    public static func detection(_ d: DetectionRecord) -> JSONValue {
        func choice(_ c: DetectionRecord.Choice?) -> JSONValue? {
            c.map { c in
                var o = Fields()
                o.text("name", c.name)
                o.integer("bus", c.bus)
                o.text("address_hex", c.addressHex)
                return o.json
            }
        }
        var o = Fields()
        o.value("simulated", .bool(d.simulated))
        o.value("buses", .array(d.buses.map { .number(Double($0)) }))
        o.value("devices", .array(d.devices.map { device in
            var f = Fields()
            f.integer("bus", device.bus)
            f.integer("address", device.address)
            f.text("address_hex", device.addressHex)
            f.text("chip", device.chip)
            f.text("category", device.category)
            f.text("option_name", device.optionName)
            f.text("confidence", device.confidence)
            f.text("evidence", device.evidence)
            return f.json
        }))
        o.value("boards", .array(d.boards.map(JSONValue.string)))
        o.value("magnetometer", choice(d.magnetometer))
        o.value("accelerometer", choice(d.accelerometer))
        o.value("unopened", .array(d.unopened.map { item in
            var f = Fields()
            f.integer("bus", item.bus)
            f.text("error", item.error)
            return f.json
        }))
        return o.json
    }

    /// What builds a report's object: its fields in order, every key present, an unknown (nil or not
    /// finite) value null. `Fields` builds a `JSONValue`; `ObjectBytes` writes the same object's
    /// text straight into bytes. A kind's keys are listed once, for both. Keys are the vocabulary's
    /// own names, written in the source (`StaticString`: plain ASCII, nothing to escape), so
    /// `ObjectBytes` copies each key's bytes as they are.
    public protocol ObjectWriter {
        /// A number rounded to `decimals` places (no "-0"), by the one formatter's rule.
        mutating func number(_ key: StaticString, _ value: Double?, _ decimals: Int)
        mutating func text(_ key: StaticString, _ value: String?)
        /// A Unix time as ISO 8601 UTC with milliseconds.
        mutating func time(_ key: StaticString, _ unixSeconds: Double?)
        /// An array of strings.
        mutating func strings(_ key: StaticString, _ values: [String])
        mutating func value(_ key: StaticString, _ value: JSONValue?)
        /// A nested object, its fields written by `build`.
        mutating func object(_ key: StaticString, _ build: (inout Self) -> Void)
    }

    /// An object's fields in order, every key present: an unknown (nil or not finite) value is null.
    public struct Fields: ObjectWriter {
        public private(set) var fields: [(String, JSONValue)] = []
        public init() {}
        /// A number rounded to `decimals` places (no "-0"), by the one formatter's rule.
        public mutating func number(_ key: StaticString, _ value: Double?, _ decimals: Int) {
            fields.append((key.description, value.flatMap { $0.isFinite ? ReportJSON.number($0, decimals) : nil } ?? .null))
        }
        public mutating func text(_ key: StaticString, _ value: String?) {
            fields.append((key.description, value.map(JSONValue.string) ?? .null))
        }
        /// A number as it is, unrounded (a model's or a geodesic's full precision); null when not finite.
        public mutating func exact(_ key: String, _ value: Double?) {
            fields.append((key, value.flatMap { $0.isFinite ? JSONValue.number($0) : nil } ?? .null))
        }
        /// A whole number (a count, a bus, an address).
        public mutating func integer(_ key: String, _ value: Int?) { fields.append((key, value.map { .number(Double($0)) } ?? .null)) }
        /// A Unix time as ISO 8601 UTC with milliseconds.
        public mutating func time(_ key: StaticString, _ unixSeconds: Double?) {
            fields.append((key.description, unixSeconds.flatMap { $0.isFinite ? .string(ISO8601.format($0)) : nil } ?? .null))
        }
        public mutating func strings(_ key: StaticString, _ values: [String]) {
            fields.append((key.description, .array(values.map(JSONValue.string))))
        }
        public mutating func value(_ key: StaticString, _ value: JSONValue?) { fields.append((key.description, value ?? .null)) }
        public mutating func object(_ key: StaticString, _ build: (inout Fields) -> Void) {
            var inner = Fields()
            build(&inner)
            fields.append((key.description, inner.json))
        }
        public var json: JSONValue { .object(fields) }
    }

    /// An object's compact JSON text written straight into a byte buffer (the bytes
    /// `Fields.json.serialized()` would be), without building the value.
    public struct ObjectBytes: ObjectWriter {
        private var bytes: [UInt8] = []
        private var first = true

        /// Starts an object at the end of `out`, taking the buffer over until `close(into:)`.
        public init(taking out: inout [UInt8]) {
            swap(&bytes, &out)
            bytes.append(UInt8(ascii: "{"))
        }

        /// Ends the object and hands the buffer back.
        public mutating func close(into out: inout [UInt8]) {
            bytes.append(UInt8(ascii: "}"))
            swap(&bytes, &out)
        }

        /// Writes the last field's key and hands the buffer back there, its value and the closing
        /// `}` left to the caller.
        public mutating func close(beforeValueOf key: StaticString, into out: inout [UInt8]) {
            self.key(key)
            swap(&bytes, &out)
        }

        /// `"key":`, after a comma unless it is the first. The key's bytes are copied as they are
        /// (the vocabulary's names need no escaping; `ByteWriterTests` compares with `Fields`),
        /// with the punctuation around them, into a small buffer appended at once (an object of
        /// serve's has two dozen keys an update; four appends each were most of a key's cost).
        private mutating func key(_ key: StaticString) {
            let count = key.utf8CodeUnitCount
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 4) { b in
                var i = 0
                if !first { b[0] = UInt8(ascii: ","); i = 1 }
                b[i] = UInt8(ascii: "\"")
                (b.baseAddress! + i + 1).update(from: key.utf8Start, count: count)
                i += count + 1
                b[i] = UInt8(ascii: "\"")
                b[i + 1] = UInt8(ascii: ":")
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: b[..<(i + 2)]))
            }
            first = false
        }

        private mutating func null() { appendStatic("null", to: &bytes) }

        public mutating func number(_ key: StaticString, _ value: Double?, _ decimals: Int) {
            self.key(key)
            if let value, value.isFinite { appendRounded(value, decimals, to: &bytes) } else { null() }
        }

        public mutating func text(_ key: StaticString, _ value: String?) {
            self.key(key)
            if let value { JSONValue.appendString(value, to: &bytes) } else { null() }
        }

        public mutating func time(_ key: StaticString, _ unixSeconds: Double?) {
            self.key(key)
            guard let unixSeconds, unixSeconds.isFinite else { null(); return }
            bytes.append(UInt8(ascii: "\""))
            ISO8601.append(unixSeconds, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }

        public mutating func strings(_ key: StaticString, _ values: [String]) {
            self.key(key)
            bytes.append(UInt8(ascii: "["))
            for (i, v) in values.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONValue.appendString(v, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }

        public mutating func value(_ key: StaticString, _ value: JSONValue?) {
            self.key(key)
            if let value { value.append(to: &bytes) } else { null() }
        }

        public mutating func object(_ key: StaticString, _ build: (inout ObjectBytes) -> Void) {
            self.key(key)
            var inner = ObjectBytes(taking: &bytes)
            build(&inner)
            inner.close(into: &bytes)
        }
    }

    /// A number rounded to `decimals` places (no "-0"), by the one formatter's rule.
    public static func number(_ v: Double, _ decimals: Int) -> JSONValue {
        .number(roundedToDecimals(v, decimals))
    }
}

extension ReportJSON.ObjectWriter {
    /// A direction in [0, 360), rounded to `decimals` places: wrapped before and after rounding, so
    /// 359.9999 at 3 places is 0, never 360.
    public mutating func angle(_ key: StaticString, _ value: Double?, _ decimals: Int) {
        number(key, value.map { v in
            guard v.isFinite else { return v }
            let rounded = roundedToDecimals(wrapDegrees(v), decimals)
            return rounded >= 360 ? 0 : rounded
        }, decimals)
    }
}

/// The CSV forms of the record kinds, with the JSON's key names as the columns: empty fields for
/// unknown values, numbers at the same resolution.
public enum ReportCSV {
    /// The header line (with its newline) of a record kind's keys.
    public static func header(_ keys: [String]) -> String { keys.joined(separator: ",") + "\n" }

    /// One row (with its newline) of a record as JSON: its values in key order.
    public static func row(_ record: JSONValue) -> String {
        guard case .object(let fields) = record else { return "\n" }
        return fields.map { field($0.1) }.joined(separator: ",") + "\n"
    }

    private static func field(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return plain(n)
        case .string(let s):
            guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
            var quoted = "\""
            for c in s { quoted += c == "\"" ? "\"\"" : String(c) }
            return quoted + "\""
        default: return ""
        }
    }
}
