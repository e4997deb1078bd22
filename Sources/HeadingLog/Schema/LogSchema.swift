import Linear

/// The CSV log format, version 1: the exact header is the contract.
///
/// Every file starts with one header line naming the columns below in this order, units in the names.
/// A later version may only add columns at the end, so a reader of version 1 reads the first
/// `LogSchema.columns.count` fields of any later file and ignores the rest.
///
/// `columns` is the one table of the format: each column's name, unit, meaning and `Field` (which
/// `LogRow` property it holds and how). The header, `LogRowFormat` (the writer) and `LogRowParser`
/// (the reader) are all derived from it, so adding a column is one new line at the end of the table.
///
/// ```swift
/// LogSchema.header            // "time,monotonic_s,raw_x_uT,…,fix_bearing_deg"
/// LogSchema.index(of: "field_uT")   // 8
/// ```
public enum LogSchema {
    /// Which `LogRow` property a column holds, and so how it is written and read.
    public enum Field: Sendable {
        /// `LogRow.time`: ISO 8601 UTC with milliseconds; required.
        case time
        /// A number that every row has, at `decimals` places.
        case requiredNumber(any WritableKeyPath<LogRow, Double> & Sendable, decimals: Int)
        /// A number at `decimals` places; empty when absent or not finite.
        case number(any WritableKeyPath<LogRow, Double?> & Sendable, decimals: Int)
        /// An angle wrapped into [0, 360), three decimals (360 after rounding is written as 0).
        case angle(any WritableKeyPath<LogRow, Double?> & Sendable)
        /// Component `axis` (0 x, 1 y, 2 z) of a vector at `decimals` places. A vector's three
        /// components are consecutive columns, x first, and a row has all three or none.
        case vectorComponent(any WritableKeyPath<LogRow, Vector3?> & Sendable, axis: Int, decimals: Int)
        /// Text: printable ASCII without commas or quotes (others are written as "_").
        case text(any WritableKeyPath<LogRow, String?> & Sendable)
        /// `LogRow.flags` joined by "|".
        case flags
    }

    /// What a column holds, for documentation, formatting and parsing.
    public struct Column: Sendable, Equatable {
        public var name: String
        public var unit: String
        public var meaning: String
        /// The `LogRow` property behind the column and how it is written.
        public var field: Field

        init(_ name: String, _ unit: String, _ field: Field, _ meaning: String) {
            self.name = name
            self.unit = unit
            self.field = field
            self.meaning = meaning
        }

        /// Decimal places written (the column's resolution); nil for text columns.
        public var decimals: Int? {
            switch field {
            case .time, .text, .flags: return nil
            case .requiredNumber(_, let d), .number(_, let d), .vectorComponent(_, _, let d): return d
            case .angle: return LogSchema.angleDecimals
            }
        }

        /// True for angles written wrapped into [0, 360).
        public var isWrappedAngle: Bool {
            if case .angle = field { return true }
            return false
        }

        public static func == (a: Column, b: Column) -> Bool {
            a.name == b.name && a.unit == b.unit && a.meaning == b.meaning && a.decimals == b.decimals
        }
    }

    /// The version this code writes.
    public static let version = 1

    /// Decimal places of `Field.angle` columns.
    public static let angleDecimals = 3

    /// Every column of version 1, in file order.
    public static let columns: [Column] = [
        Column("time", "ISO 8601 UTC", .time, "wall-clock time of the sample, milliseconds, e.g. 2025-06-01T12:00:00.125Z"),
        Column("monotonic_s", "s", .requiredNumber(\.monotonic, decimals: 6), "monotonic seconds since this logging run started (restarts at 0 with each run)"),
        Column("raw_x_uT", "µT", .vectorComponent(\.rawField, axis: 0, decimals: 3), "measured field, body x (forward), before calibration"),
        Column("raw_y_uT", "µT", .vectorComponent(\.rawField, axis: 1, decimals: 3), "measured field, body y (right), before calibration"),
        Column("raw_z_uT", "µT", .vectorComponent(\.rawField, axis: 2, decimals: 3), "measured field, body z (down), before calibration"),
        Column("cal_x_uT", "µT", .vectorComponent(\.calibratedField, axis: 0, decimals: 3), "calibrated field, body x; empty without a calibration"),
        Column("cal_y_uT", "µT", .vectorComponent(\.calibratedField, axis: 1, decimals: 3), "calibrated field, body y; empty without a calibration"),
        Column("cal_z_uT", "µT", .vectorComponent(\.calibratedField, axis: 2, decimals: 3), "calibrated field, body z; empty without a calibration"),
        Column("field_uT", "µT", .number(\.fieldStrength, decimals: 3), "field strength |B| (calibrated when available, else raw)"),
        Column("roll_deg", "°", .number(\.roll, decimals: 3), "roll, right side down positive; empty without an accelerometer"),
        Column("pitch_deg", "°", .number(\.pitch, decimals: 3), "pitch, nose up positive; empty without an accelerometer"),
        Column("heading_mag_raw_deg", "°", .angle(\.rawMagneticHeading), "magnetic heading of this sample, unsmoothed, [0, 360)"),
        Column("heading_mag_deg", "°", .angle(\.magneticHeading), "magnetic heading, smoothed, [0, 360)"),
        Column("declination_deg", "°", .number(\.declination, decimals: 3), "declination used, east positive; empty when none"),
        Column("declination_source", "text", .text(\.declinationSource), "where the declination comes from: wmm, location, manual or none"),
        Column("heading_true_deg", "°", .angle(\.trueHeading), "true heading (magnetic + declination), [0, 360); empty without declination"),
        Column("accuracy_deg", "°", .number(\.accuracy, decimals: 2), "estimated heading accuracy (1σ-like); empty when unknown"),
        Column("flags", "text", .flags, "conditions joined by '|', e.g. disturbed|tiltHeld, gnssTimeOff (the fix's time is a day or more from the system clock), gnssTimeBackwards; empty when none"),
        Column("gnss_mode", "text", .text(\.gnssMode), "GNSS fix mode: 2d or 3d (no_fix when a receiver reports none); empty without GNSS"),
        Column("lat_deg", "°", .number(\.latitude, decimals: 8), "latitude, north positive"),
        Column("lon_deg", "°", .number(\.longitude, decimals: 8), "longitude, east positive"),
        Column("alt_m", "m", .number(\.altitude, decimals: 3), "altitude above mean sea level (the receiver's MSL altitude only, never the ellipsoid height)"),
        Column("speed_mps", "m/s", .number(\.speed, decimals: 3), "speed over ground"),
        Column("course_deg", "°", .angle(\.course), "course over ground, from true north, [0, 360)"),
        Column("eph_m", "m", .number(\.horizontalError, decimals: 3), "estimated horizontal position error"),
        Column("fix_distance_m", "m", .number(\.fixDistance, decimals: 3), "distance travelled since the previous logged fix (movement, not jitter)"),
        Column("fix_bearing_deg", "°", .angle(\.fixBearing), "direction of that movement, from true north, [0, 360); empty while stationary"),
        // Appended after the first release: the raw inertial sensors, so a logged trip can be processed again.
        Column("acc_x_g", "g", .vectorComponent(\.acceleration, axis: 0, decimals: 5), "specific force, body x, before calibration; empty without an accelerometer"),
        Column("acc_y_g", "g", .vectorComponent(\.acceleration, axis: 1, decimals: 5), "specific force, body y, before calibration"),
        Column("acc_z_g", "g", .vectorComponent(\.acceleration, axis: 2, decimals: 5), "specific force, body z (−1 g when level and still)"),
        Column("gyro_x_dps", "°/s", .vectorComponent(\.rotationRate, axis: 0, decimals: 4), "rotation rate about body x, bias not removed; empty without a gyroscope"),
        Column("gyro_y_dps", "°/s", .vectorComponent(\.rotationRate, axis: 1, decimals: 4), "rotation rate about body y, bias not removed"),
        Column("gyro_z_dps", "°/s", .vectorComponent(\.rotationRate, axis: 2, decimals: 4), "rotation rate about body z (positive turning to starboard), bias not removed"),
        // Appended later still: the attitude's accuracy beside the heading's (accuracy_deg).
        Column("roll_accuracy_deg", "°", .number(\.rollAccuracy, decimals: 2), "estimated roll accuracy (1σ-like); empty when unknown"),
        Column("pitch_accuracy_deg", "°", .number(\.pitchAccuracy, decimals: 2), "estimated pitch accuracy (1σ-like); empty when unknown"),
    ]

    /// Columns in files written before the inertial columns were appended: such files are still
    /// read, and appended to in their own layout.
    public static let firstReleaseColumnCount = 27

    /// Columns in files written before the attitude's accuracy was appended (the inertial ones
    /// included): read, and appended to in their own layout, as the first release's.
    public static let inertialReleaseColumnCount = 33

    /// Every earlier layout still read and appended to, newest first.
    public static let earlierColumnCounts = [inertialReleaseColumnCount, firstReleaseColumnCount]

    /// The header line of the first `count` columns (without its line end).
    public static func header(columns count: Int) -> String {
        columns.prefix(count).map(\.name).joined(separator: ",")
    }

    /// The header line without its line end.
    public static let header: String = columns.map(\.name).joined(separator: ",")

    /// The header line's bytes with "\n".
    public static let headerLine: [UInt8] = Array((header + "\n").utf8)

    /// The number of columns (fields per row) in version 1.
    public static let fieldCount = columns.count

    /// The position of a column, or nil when version 1 has no such column.
    public static func index(of name: String) -> Int? { columns.firstIndex { $0.name == name } }

    /// How a header line relates to version 1.
    public enum HeaderMatch: Sendable, Equatable {
        /// Exactly the version 1 header.
        case exact
        /// The first `knownColumns` of version 1's columns (all of them, or those of a file written
        /// before the later ones were appended, at least `firstReleaseColumnCount`), followed by
        /// more when a later version wrote it: `fieldCount` fields per row.
        case extended(knownColumns: Int, fieldCount: Int)
        /// Something else: not a Lodestone log of a version this code understands.
        case other
    }

    /// The first columns of the header, as messages show what a log starts with.
    public static var headerStart: String { columns.prefix(4).map(\.name).joined(separator: ",") + ",…" }

    /// What a first line that is not this header is, in words, without quoting it (the file may
    /// be anyone's: a message must not print a password hash from it): its line number, how many
    /// comma-separated fields it has, and whether it is text at all.
    public static func describe(firstLine line: some Collection<UInt8>, tooLong: Bool = false) -> String {
        if line.isEmpty { return "line 1 is empty" }
        if tooLong { return "line 1 is longer than a header can be" }
        if line.contains(0) || String(validating: Array(line), as: UTF8.self) == nil {
            return "line 1 is not text"
        }
        let fields = line.reduce(1) { $1 == 44 ? $0 + 1 : $0 }
        return "line 1 is not a Lodestone log header (it has \(fields) field\(fields == 1 ? "" : "s"), "
            + "the header has \(fieldCount))"
    }

    /// Compares a header line (without its line end) to version 1.
    public static func match(header line: some Collection<UInt8>) -> HeaderMatch {
        var bytes = Array(line)
        if bytes.last == 13 { bytes.removeLast() }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }   // a UTF-8 BOM from a spreadsheet
        let own = Array(header.utf8)
        if bytes == own { return .exact }
        for known in [columns.count] + earlierColumnCounts {
            let prefix = known == columns.count ? own : Array(header(columns: known).utf8)
            guard bytes.starts(with: prefix) else { continue }
            if bytes.count == prefix.count { return .extended(knownColumns: known, fieldCount: known) }
            // Only a later version's columns may follow all of ours.
            guard known == columns.count, bytes[prefix.count] == 44 else { continue }
            let extra = bytes[(prefix.count + 1)...].split(separator: 44, omittingEmptySubsequences: false).count
            return .extended(knownColumns: known, fieldCount: known + extra)
        }
        return .other
    }
}
