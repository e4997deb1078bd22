import Linear
import Platform

/// Turns a `LogRow` into one CSV line of schema version 1.
///
/// Numbers are rounded to their column's resolution (`LogSchema.Column.decimals`) and written in the
/// shortest text that reads back as the same value, never in exponent notation; absent, NaN or
/// infinite values (and magnitudes of 10¹⁵ or more) leave the field empty. Text fields never contain
/// commas, quotes or line breaks: such characters become "_".
///
/// ```swift
/// var bytes: [UInt8] = []
/// LogRowFormat.append(row, to: &bytes)     // one line, ending in "\n"
/// ```
public enum LogRowFormat {
    /// Appends the row's line (with its "\n") to `out`.
    public static func append(_ row: LogRow, to out: inout [UInt8]) {
        if let ms = TimeText.milliseconds(row.time) { TimeText.append(milliseconds: ms, to: &out) }
        number(row.monotonic, 6, &out)
        vector(row.rawField, &out)
        vector(row.calibratedField, &out)
        number(row.fieldStrength, 3, &out)
        number(row.roll, 3, &out)
        number(row.pitch, 3, &out)
        angle(row.rawMagneticHeading, &out)
        angle(row.magneticHeading, &out)
        number(row.declination, 3, &out)
        text(row.declinationSource, &out)
        angle(row.trueHeading, &out)
        number(row.accuracy, 2, &out)
        flags(row.flags, &out)
        text(row.gnssMode, &out)
        number(row.latitude, 8, &out)
        number(row.longitude, 8, &out)
        number(row.altitude, 3, &out)
        number(row.speed, 3, &out)
        angle(row.course, &out)
        number(row.horizontalError, 3, &out)
        number(row.fixDistance, 3, &out)
        angle(row.fixBearing, &out)
        out.append(10)
    }

    /// The row's line as text (with its "\n").
    public static func line(_ row: LogRow) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        append(row, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` rounded to `decimals` places, or nil when it cannot be written as a plain number.
    public static func rounded(_ value: Double, _ decimals: Int) -> Double? {
        guard value.isFinite, abs(value) < 1e15 else { return nil }
        return roundedToDecimals(value, decimals)
    }

    @inline(__always)
    private static func number(_ value: Double?, _ decimals: Int, _ out: inout [UInt8]) {
        out.append(44)
        guard let value, let r = rounded(value, decimals) else { return }
        out.append(contentsOf: plain(r).utf8)
    }

    /// An angle in [0, 360), three decimals; 360 after rounding becomes 0.
    @inline(__always)
    private static func angle(_ value: Double?, _ out: inout [UInt8]) {
        out.append(44)
        guard let value, value.isFinite else { return }
        var a = value.truncatingRemainder(dividingBy: 360)
        if a < 0 { a += 360 }
        guard var r = rounded(a, 3) else { return }
        if r >= 360 { r = 0 }
        out.append(contentsOf: plain(r).utf8)
    }

    private static func vector(_ v: Vector3?, _ out: inout [UInt8]) {
        number(v?.x, 3, &out)
        number(v?.y, 3, &out)
        number(v?.z, 3, &out)
    }

    private static func text(_ value: String?, _ out: inout [UInt8]) {
        out.append(44)
        guard let value else { return }
        for byte in value.utf8 { out.append(safeTextByte(byte)) }
    }

    private static func flags(_ names: [String], _ out: inout [UInt8]) {
        out.append(44)
        var first = true
        for name in names where !name.isEmpty {
            if !first { out.append(124) }
            first = false
            for byte in name.utf8 { out.append(byte == 124 ? 95 : safeTextByte(byte)) }
        }
    }

    /// Printable ASCII except comma and double quote; anything else becomes "_".
    @inline(__always)
    static func safeTextByte(_ b: UInt8) -> UInt8 {
        (b >= 0x20 && b < 0x7F && b != 44 && b != 34) ? b : 95
    }
}
