import Linear
import Platform

/// Turns a `LogRow` into one CSV line of schema version 1, column by column from `LogSchema.columns`.
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
    /// Appends the row's line (with its "\n") to `out`: one field per `LogSchema.columns` entry, or
    /// per one of the first `columns` (to append to a file written before the later columns).
    public static func append(_ row: LogRow, to out: inout [UInt8], columns: Int = LogSchema.fieldCount) {
        let table = LogSchema.columns
        let offsets = Self.offsets
        withUnsafeBytes(of: row) { raw in
            for i in 0..<min(columns, table.count) {
                if i > 0 { out.append(44) }
                if let offset = offsets[i] {
                    append(table[i].field, at: offset, in: raw, to: &out)
                } else {
                    append(table[i].field, of: row, to: &out)
                }
            }
        }
        out.append(10)
    }

    /// Where each column's value is stored in a `LogRow` (byte offsets, from the schema's key paths,
    /// worked out once); nil for a column read otherwise. At 100 rows a second, reading some 30 values
    /// a row through their key paths cost more than writing their digits.
    private static let offsets: [Int?] = LogSchema.columns.map { column in
        switch column.field {
        case .time, .flags: return nil
        case .requiredNumber(let path, _): return MemoryLayout<LogRow>.offset(of: path as PartialKeyPath<LogRow>)
        case .number(let path, _), .angle(let path): return MemoryLayout<LogRow>.offset(of: path as PartialKeyPath<LogRow>)
        case .vectorComponent(let path, _, _): return MemoryLayout<LogRow>.offset(of: path as PartialKeyPath<LogRow>)
        case .text(let path): return MemoryLayout<LogRow>.offset(of: path as PartialKeyPath<LogRow>)
        }
    }

    /// Appends one field whose value is stored at `offset` in the row's bytes (`offsets`).
    private static func append(_ field: LogSchema.Field, at offset: Int, in raw: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        switch field {
        case .requiredNumber(_, let decimals):
            number(raw.load(fromByteOffset: offset, as: Double.self), decimals, &out)
        case .number(_, let decimals):
            number(raw.load(fromByteOffset: offset, as: Double?.self), decimals, &out)
        case .angle:
            angle(raw.load(fromByteOffset: offset, as: Double?.self), &out)
        case let .vectorComponent(_, axis, decimals):
            number(raw.load(fromByteOffset: offset, as: Vector3?.self)?[axis], decimals, &out)
        case .text:
            text(raw.load(fromByteOffset: offset, as: String?.self), &out)
        case .time, .flags:
            break
        }
    }

    /// The row's line as text (with its "\n").
    public static func line(_ row: LogRow) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        append(row, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends one field (without a separator).
    private static func append(_ field: LogSchema.Field, of row: LogRow, to out: inout [UInt8]) {
        switch field {
        case .time:
            if let ms = TimeText.milliseconds(row.time) { TimeText.append(milliseconds: ms, to: &out) }
        case let .requiredNumber(keyPath, decimals):
            number(row[keyPath: keyPath], decimals, &out)
        case let .number(keyPath, decimals):
            number(row[keyPath: keyPath], decimals, &out)
        case let .angle(keyPath):
            angle(row[keyPath: keyPath], &out)
        case let .vectorComponent(keyPath, axis, decimals):
            number(row[keyPath: keyPath]?[axis], decimals, &out)
        case let .text(keyPath):
            text(row[keyPath: keyPath], &out)
        case .flags:
            flags(row.flags, &out)
        }
    }

    /// Nothing for values that cannot be written as a plain number (absent, not finite, 10¹⁵ or more).
    @inline(__always)
    private static func number(_ value: Double?, _ decimals: Int, _ out: inout [UInt8]) {
        guard let value, value.isFinite, abs(value) < 1e15 else { return }
        appendPlain(value, decimals: decimals, to: &out)
    }

    /// An angle in [0, 360); 360 after rounding becomes 0.
    @inline(__always)
    private static func angle(_ value: Double?, _ out: inout [UInt8]) {
        guard let value, value.isFinite else { return }
        var a = value.truncatingRemainder(dividingBy: 360)
        if a < 0 { a += 360 }
        let start = out.count
        appendPlain(a, decimals: LogSchema.angleDecimals, to: &out)
        if out.count - start == 3, out[start] == UInt8(ascii: "3"), out[start + 1] == UInt8(ascii: "6"),
           out[start + 2] == UInt8(ascii: "0") {
            out.removeLast(3)
            out.append(UInt8(ascii: "0"))
        }
    }

    private static func text(_ value: String?, _ out: inout [UInt8]) {
        guard let value else { return }
        for byte in value.utf8 { out.append(safeTextByte(byte)) }
    }

    private static func flags(_ names: [String], _ out: inout [UInt8]) {
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
