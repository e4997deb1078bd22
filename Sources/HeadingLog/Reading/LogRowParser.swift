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
        case .badTime(let text): return "time '\(text)' is not an ISO 8601 UTC time"
        case .badNumber(let column, let text): return "\(column) '\(text)' is not a number"
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
/// a `LogRow`. The analysis reads only the columns it needs; this reads them all.
///
/// ```swift
/// let row = try LogRowParser(fieldCount: LogSchema.fieldCount).parse(lineBytes)
/// ```
public struct LogRowParser {
    /// Fields per row in the file (from its header).
    public let fieldCount: Int
    private let fields = FieldSplitter()

    public init(fieldCount: Int = LogSchema.fieldCount) { self.fieldCount = fieldCount }

    /// Parses a line (without its line end).
    public func parse(_ line: UnsafeBufferPointer<UInt8>) throws(RowProblem) -> LogRow {
        let count = fields.split(line)
        guard count == fieldCount, count <= fields.capacity else {
            throw .fieldCount(expected: fieldCount, found: count)
        }
        func field(_ i: Int) -> UnsafeBufferPointer<UInt8> { fields[i, in: line] }
        func number(_ i: Int) throws(RowProblem) -> Double? {
            let b = field(i)
            if b.isEmpty { return nil }
            guard let v = NumberParser.parse(b) else {
                throw .badNumber(column: LogSchema.columns[i].name, text: RowProblem.shown(b))
            }
            return v
        }
        func vector(_ i: Int) throws(RowProblem) -> Vector3? {
            let x = try number(i), y = try number(i + 1), z = try number(i + 2)
            switch (x, y, z) {
            case let (x?, y?, z?): return Vector3(x, y, z)
            case (nil, nil, nil): return nil
            default: throw .partialVector(column: LogSchema.columns[i].name)
            }
        }
        func text(_ i: Int) -> String? {
            let b = field(i)
            return b.isEmpty ? nil : String(decoding: b, as: UTF8.self)
        }
        guard let ms = TimeText.parseMilliseconds(field(0)) else { throw .badTime(RowProblem.shown(field(0))) }
        guard let monotonic = try number(1) else { throw .badNumber(column: "monotonic_s", text: "") }
        let flags = text(17).map { $0.split(separator: "|").map(String.init) } ?? []
        return LogRow(
            time: Double(ms) / 1000, monotonic: monotonic,
            rawField: try vector(2), calibratedField: try vector(5), fieldStrength: try number(8),
            roll: try number(9), pitch: try number(10), rawMagneticHeading: try number(11),
            magneticHeading: try number(12), declination: try number(13), declinationSource: text(14),
            trueHeading: try number(15), accuracy: try number(16), flags: flags, gnssMode: text(18),
            latitude: try number(19), longitude: try number(20), altitude: try number(21),
            speed: try number(22), course: try number(23), horizontalError: try number(24),
            fixDistance: try number(25), fixBearing: try number(26))
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
