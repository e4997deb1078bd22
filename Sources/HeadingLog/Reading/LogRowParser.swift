import Platform
import Linear

/// What is wrong with one line of a log.
public enum RowProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case fieldCount(expected: Int, found: Int)
    case badTime(String)
    case badNumber(column: String, text: String)
    case partialVector(column: String)
    case incompleteLastLine
    case tooLong

    public var description: String {
        switch self {
        case .fieldCount(let expected, let found): return "expected \(expected) fields, found \(found)"
        case .badTime(let text): return "time '\(argumentExcerpt(text))' is not an ISO 8601 UTC time"
        case .badNumber(let column, let text): return "\(column) '\(argumentExcerpt(text))' is not a number"
        case .partialVector(let column): return "\(column): a vector needs all three components or none"
        case .incompleteLastLine: return "incomplete last line (no line end): the logger may still be writing, or was stopped"
        case .tooLong: return "line too long to be a log row"
        }
    }

    /// Shows at most 24 characters of a bad field, control characters removed.
    static func shown(_ b: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: b.prefix(24), as: UTF8.self)
        let clean = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }))
        return b.count > 24 ? clean + "…" : clean
    }
}

/// Turns one CSV line of schema version 1 (or a later version: extra fields are ignored) back into
/// a `LogRow`, column by column from `LogSchema.columns`. The analysis reads only the columns it
/// needs; this reads them all.
///
/// ```swift
/// let row = try LogRowParser(fieldCount: LogSchema.fieldCount).parse(lineBytes)
/// ```
public struct LogRowParser {
    /// Fields per row in the file (from its header).
    public let fieldCount: Int
    private let fields = FieldSplitter()

    /// How many of `LogSchema.columns` the file has (fewer in a file from before the later columns).
    public let knownColumns: Int

    public init(fieldCount: Int = LogSchema.fieldCount, knownColumns: Int = LogSchema.fieldCount) {
        self.fieldCount = fieldCount
        self.knownColumns = min(knownColumns, fieldCount, LogSchema.fieldCount)
    }

    /// Parses a line (without its line end), column by column from `LogSchema.columns`.
    public func parse(_ line: UnsafeBufferPointer<UInt8>) throws(RowProblem) -> LogRow {
        let count = fields.split(line)
        guard count == fieldCount, count <= fields.capacity else {
            throw .fieldCount(expected: fieldCount, found: count)
        }
        func number(_ i: Int) throws(RowProblem) -> Double? {
            let b = fields[i, in: line]
            if b.isEmpty { return nil }
            guard let v = NumberParser.parse(b) else {
                throw .badNumber(column: LogSchema.columns[i].name, text: RowProblem.shown(b))
            }
            return v
        }
        var row = LogRow(time: 0, monotonic: 0)
        var components: [Double?] = [nil, nil, nil]   // of the vector being read
        for (i, column) in LogSchema.columns.prefix(knownColumns).enumerated() {
            let b = fields[i, in: line]
            switch column.field {
            case .time:
                guard let ms = TimeText.parseMilliseconds(b) else { throw .badTime(RowProblem.shown(b)) }
                row.time = Double(ms) / 1000
            case let .requiredNumber(keyPath, _):
                guard let v = try number(i) else { throw .badNumber(column: column.name, text: "") }
                row[keyPath: keyPath] = v
            case let .number(keyPath, _):
                row[keyPath: keyPath] = try number(i)
            case let .angle(keyPath):
                row[keyPath: keyPath] = try number(i)
            case let .vectorComponent(keyPath, axis, _):
                components[axis] = try number(i)
                guard axis == 2 else { continue }
                switch (components[0], components[1], components[2]) {
                case let (x?, y?, z?): row[keyPath: keyPath] = Vector3(x, y, z)
                case (nil, nil, nil): row[keyPath: keyPath] = nil
                default: throw .partialVector(column: LogSchema.columns[i - 2].name)
                }
                components = [nil, nil, nil]
            case let .text(keyPath):
                row[keyPath: keyPath] = b.isEmpty ? nil : String(decoding: b, as: UTF8.self)
            case .flags:
                row.flags = b.isEmpty ? [] : String(decoding: b, as: UTF8.self).split(separator: "|").map(String.init)
            }
        }
        return row
    }

    /// Parses a line given as text (convenience for tests and small tools).
    public func parse(_ line: String) throws(RowProblem) -> LogRow {
        var bytes = Array(line.utf8)
        if bytes.last == 10 { bytes.removeLast() }
        if bytes.last == 13 { bytes.removeLast() }
        do {
            return try bytes.withUnsafeBufferPointer { p throws(RowProblem) in try parse(p) }
        }
    }
}
