/// The CSV log format, version 1: the exact header is the contract.
///
/// Every file starts with one header line naming the columns below in this order, units in the names.
/// A later version may only add columns at the end, so a reader of version 1 reads the first
/// `LogSchema.columns.count` fields of any later file and ignores the rest.
///
/// ```swift
/// LogSchema.header            // "time,monotonic_s,raw_x_uT,…,fix_bearing_deg"
/// LogSchema.index(of: "field_uT")   // 8
/// ```
public enum LogSchema {
    /// What a column holds, for documentation and formatting.
    public struct Column: Sendable, Equatable {
        public var name: String
        public var unit: String
        public var meaning: String
        /// Decimal places written (the column's resolution); nil for text columns.
        public var decimals: Int?

        init(_ name: String, _ unit: String, _ decimals: Int?, _ meaning: String) {
            self.name = name
            self.unit = unit
            self.decimals = decimals
            self.meaning = meaning
        }
    }

    /// The version this code writes.
    public static let version = 1

    /// Every column of version 1, in file order.
    public static let columns: [Column] = [
        Column("time", "ISO 8601 UTC", nil, "wall-clock time of the sample, milliseconds, e.g. 2025-06-01T12:00:00.125Z"),
        Column("monotonic_s", "s", 6, "monotonic seconds since this logging run started (restarts at 0 with each run)"),
        Column("raw_x_uT", "µT", 3, "measured field, body x (forward), before calibration"),
        Column("raw_y_uT", "µT", 3, "measured field, body y (right), before calibration"),
        Column("raw_z_uT", "µT", 3, "measured field, body z (down), before calibration"),
        Column("cal_x_uT", "µT", 3, "calibrated field, body x; empty without a calibration"),
        Column("cal_y_uT", "µT", 3, "calibrated field, body y; empty without a calibration"),
        Column("cal_z_uT", "µT", 3, "calibrated field, body z; empty without a calibration"),
        Column("field_uT", "µT", 3, "field strength |B| (calibrated when available, else raw)"),
        Column("roll_deg", "°", 3, "roll, right side down positive; empty without an accelerometer"),
        Column("pitch_deg", "°", 3, "pitch, nose up positive; empty without an accelerometer"),
        Column("heading_mag_raw_deg", "°", 3, "magnetic heading of this sample, unsmoothed, [0, 360)"),
        Column("heading_mag_deg", "°", 3, "magnetic heading, smoothed, [0, 360)"),
        Column("declination_deg", "°", 3, "declination used, east positive; empty when none"),
        Column("declination_source", "text", nil, "where the declination comes from: wmm, location, manual or none"),
        Column("heading_true_deg", "°", 3, "true heading (magnetic + declination), [0, 360); empty without declination"),
        Column("accuracy_deg", "°", 2, "estimated heading accuracy (1σ-like); empty when unknown"),
        Column("flags", "text", nil, "conditions joined by '|', e.g. disturbed|tiltHeld; empty when none"),
        Column("gnss_mode", "text", nil, "GNSS fix mode: 2d or 3d (no_fix when a receiver reports none); empty without GNSS"),
        Column("lat_deg", "°", 8, "latitude, north positive"),
        Column("lon_deg", "°", 8, "longitude, east positive"),
        Column("alt_m", "m", 3, "altitude"),
        Column("speed_mps", "m/s", 3, "speed over ground"),
        Column("course_deg", "°", 3, "course over ground, from true north, [0, 360)"),
        Column("eph_m", "m", 3, "estimated horizontal position error"),
        Column("fix_distance_m", "m", 3, "geodesic distance from the previous fix"),
        Column("fix_bearing_deg", "°", 3, "initial bearing from the previous fix, from true north, [0, 360)"),
    ]

    /// The header line without its line end.
    public static let header: String = columns.map(\.name).joined(separator: ",")

    /// The header line's bytes with "\n".
    public static let headerLine: [UInt8] = Array((header + "\n").utf8)

    /// The number of columns (fields per row) in version 1.
    public static let fieldCount = columns.count

    /// The position of a column, or nil when version 1 has no such column.
    public static func index(of name: String) -> Int? { columns.firstIndex { $0.name == name } }

    /// Columns whose values are angles in [0, 360) (360 after rounding is written as 0).
    static let wrappedColumns: Set<String> = [
        "heading_mag_raw_deg", "heading_mag_deg", "heading_true_deg", "course_deg", "fix_bearing_deg",
    ]

    /// How a header line relates to version 1.
    public enum HeaderMatch: Sendable, Equatable {
        /// Exactly the version 1 header.
        case exact
        /// Version 1's columns followed by more (a later version): `fieldCount` fields per row.
        case extended(fieldCount: Int)
        /// Something else: not a Lodestone log of a version this code understands.
        case other
    }

    /// Compares a header line (without its line end) to version 1.
    public static func match(header line: some Collection<UInt8>) -> HeaderMatch {
        var bytes = Array(line)
        if bytes.last == 13 { bytes.removeLast() }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }   // a UTF-8 BOM from a spreadsheet
        let own = Array(header.utf8)
        if bytes == own { return .exact }
        guard bytes.count > own.count, bytes.starts(with: own), bytes[own.count] == 44 else { return .other }
        let extra = bytes[(own.count + 1)...].split(separator: 44, omittingEmptySubsequences: false).count
        return .extended(fieldCount: fieldCount + extra)
    }
}
