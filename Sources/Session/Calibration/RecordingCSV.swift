import Glibc
import HeadingLog
import Linear
import Platform

/// A magnetometer recording read from CSV for `lodestone calibrate --from-file` and
/// `lodestone heading --from-file`.
///
/// The first line that is neither empty nor a `#` comment is the header (a UTF-8 byte-order mark
/// before it is ignored). It must name the magnetometer columns `x,y,z` (or `mx,my,mz`, or a
/// Lodestone log's `raw_x_ut,…`), in any consistent unit; `t` (seconds) and `ax,ay,az` (g) are
/// optional unless the reader asks for the time; other columns are ignored. Rows with a missing or
/// non-numeric value are skipped, counted and reported by line number; `BadRowRule` decides when
/// they are too many.
///
/// The file is streamed: memory is what the good rows need plus one line of at most
/// `maximumLineLength` bytes, whatever the input (a line of ten million commas, `/dev/zero`).
///
/// ```swift
/// let recording = try Recording.read(path: "raw.csv")
/// print(recording.magnetic.count, recording.badRowCount)
/// ```
public struct Recording: Sendable {
    /// One skipped row: its 1-based line number and why.
    public struct BadRow: Equatable, Sendable {
        public var line: Int
        public var reason: String
    }

    public var magnetic: [Vector3] = []
    /// Accelerometer readings, when the file has `ax,ay,az` (aligned with `magnetic`; nil where a
    /// row has no usable value).
    public var acceleration: [Vector3?]?
    /// Rotation rate (°/s, body axes) per magnetic row, when the recording has gx,gy,gz columns.
    public var rotationRate: [Vector3?]?
    /// Times, when the file has `t` (aligned with `magnetic`).
    public var times: [Double?]?
    /// The `t` column exactly as written (aligned with `magnetic`), for output that copies it.
    public var timeTexts: [String]?
    /// The first `keptBadRows` skipped rows, as examples.
    public var badRows: [BadRow] = []
    /// All skipped rows.
    public var badRowCount = 0
    /// Data rows seen (good and bad).
    public var rowCount = 0
    /// The magnetometer column names used, e.g. ["mx", "my", "mz"].
    public var magneticColumns: [String] = []

    /// The longest line read; a longer one is a bad row (or, as the header, a bad file).
    public static let maximumLineLength = 1 << 16
    /// The largest file read (1 GiB): beyond it the rows alone would not fit a small computer.
    public static let maximumFileSize = 1 << 30
    /// How many bad rows are kept as examples.
    public static let keptBadRows = 10

    /// The widest full-scale range of any supported chip in `unit` ("uT", "gauss", "counts"),
    /// rounded up; nil for an unknown unit.
    public static func widestFullScale(unit: String) -> Double? {
        switch unit {
        case "uT": return 5000
        case "gauss": return 50
        case "counts": return 32768
        default: return nil
        }
    }

    /// Reads the recording at `path` ("-": standard input, read through `standardInput`, the
    /// session's `Runtime.standardInputPath`), streaming. `requireTime`: the `t` column must exist
    /// and every row needs a time (a row without one is a bad row like any other).
    public static func read(path: String, requireTime: Bool = false, standardInput: String = "/dev/stdin") throws -> Recording {
        var lines = try ChunkedLines(path: path == "-" ? standardInput : path, maximumLineLength: maximumLineLength)
        if let size = lines.regularFileSize, size > maximumFileSize {
            throw RecordingError.tooLarge(path: path, bytes: size)
        }
        var reader = RecordingReader(path: path, requireTime: requireTime)
        reader.fileSize = lines.regularFileSize
        var failure: RecordingError?
        var total = 0
        try lines.forEach { line, ending in
            total += line.count + 1
            if total > maximumFileSize {
                failure = .tooLarge(path: path, bytes: total)
                return false
            }
            do throws(RecordingError) {
                try reader.consume(line, ending: ending)
            } catch {
                failure = error
                return false
            }
            return true
        }
        if let failure { throw failure }
        return try reader.finish()
    }

    /// Parses a whole recording held in memory (tests, fuzzing); the same rules as `read`.
    public static func parse(_ text: String, path: String, requireTime: Bool = false) throws(RecordingError) -> Recording {
        try parse(Array(text.utf8), path: path, requireTime: requireTime)
    }

    /// Parses a whole recording held in memory as bytes; lines end at "\n" (a "\r" before it is removed).
    public static func parse(_ bytes: [UInt8], path: String, requireTime: Bool = false) throws(RecordingError) -> Recording {
        var reader = RecordingReader(path: path, requireTime: requireTime)
        try bytes.withUnsafeBufferPointer { (all) throws(RecordingError) in
            var start = 0
            while start < all.count {
                var end = start
                while end < all.count && all[end] != 10 { end += 1 }
                let atEnd = end == all.count
                var stop = end
                if !atEnd, stop > start, all[stop - 1] == 13 { stop -= 1 }
                let line = UnsafeBufferPointer(rebasing: all[start..<stop])
                if line.count > maximumLineLength {
                    try reader.consume(UnsafeBufferPointer(rebasing: all[start..<start + maximumLineLength]), ending: .tooLong)
                } else {
                    try reader.consume(line, ending: atEnd ? .endOfFile : .newline)
                }
                start = end + 1
            }
        }
        return try reader.finish()
    }
}

/// Reads a recording line by line (the bytes of each line only during the call).
struct RecordingReader {
    private typealias Columns = (x: Int, y: Int, z: Int, t: Int?, accel: (Int, Int, Int)?, gyro: (Int, Int, Int)?)
    let path: String
    let requireTime: Bool
    private var recording = Recording()
    private var header: [String]?
    private var columns: Columns?
    /// The highest column index a row needs.
    private var lastNeeded = 0
    private var lineNumber = 0
    /// The file's size when it is a regular file: the first row's length then tells about how many
    /// rows to make room for, so the columns are not copied again and again as they grow.
    var fileSize: Int?
    private var reserved = false
    static let reservedRows = 1 << 18
    /// Start and end of each field a row needs (reused: no allocation per row).
    private var starts: [Int] = []
    private var ends: [Int] = []

    init(path: String, requireTime: Bool) {
        self.path = path
        self.requireTime = requireTime
    }

    mutating func consume(_ raw: UnsafeBufferPointer<UInt8>, ending: LineEnding) throws(RecordingError) {
        lineNumber += 1
        let line = lineNumber == 1 ? ByteOrderMark.dropped(from: raw) : raw
        if let base = line.baseAddress, memchr(base, 0, line.count) != nil {
            throw .notText(path: path, line: lineNumber)
        }
        if ending == .tooLong {
            guard header != nil else {
                throw .lineTooLong(path: path, line: lineNumber, limit: Recording.maximumLineLength)
            }
            recording.rowCount += 1
            bad("longer than \(Recording.maximumLineLength) bytes")
            return
        }
        var first = 0
        while first < line.count && (line[first] == 32 || line[first] == 9) { first += 1 }
        if first == line.count || line[first] == 35 { return }   // empty, or a # comment
        guard let names = header, let c = columns else {
            guard let text = String(validating: line, as: UTF8.self) else { throw .notText(path: path, line: lineNumber) }
            try readHeader(text)
            return
        }
        recording.rowCount += 1
        if !reserved { reserve(rowBytes: raw.count + 1) }
        let count = split(line)
        var values = (0.0, 0.0, 0.0)
        for k in 0..<3 {
            let index = k == 0 ? c.x : (k == 1 ? c.y : c.z)   // (no array of the three per row)
            guard index < count else {
                bad("\(count) values, but the header has \(names.count) columns")
                return
            }
            let field = self.field(index, line)
            guard let v = NumberParser.parse(field) else {
                let shown = sanitize(String(decoding: UnsafeBufferPointer(rebasing: field.prefix(20)), as: UTF8.self))
                bad("column \(names[index]) is " + (shown.isEmpty ? "empty" : "not a number ('\(shown)')"))
                return
            }
            switch k {
            case 0: values.0 = v
            case 1: values.1 = v
            default: values.2 = v
            }
        }
        // The optional columns never make a row bad (but the time does, when it is required).
        func optional(_ index: Int) -> Double? {
            index < count ? NumberParser.parse(field(index, line)) : nil
        }
        var time: Double?
        if let t = c.t {
            time = optional(t)
            if requireTime && time == nil {
                bad("column \(names[t]) (the time) is " + (t < count && field(t, line).count > 0 ? "not a number" : "empty"))
                return
            }
        }
        recording.magnetic.append(Vector3(values.0, values.1, values.2))
        if let t = c.t {
            recording.times?.append(time)
            let text = t < count ? String(decoding: field(t, line), as: UTF8.self) : ""
            recording.timeTexts?.append(text)
        }
        func vector(_ i: (Int, Int, Int)) -> Vector3? {
            guard let x = optional(i.0), let y = optional(i.1), let z = optional(i.2) else { return nil }
            return Vector3(x, y, z)
        }
        if let a = c.accel {
            let v = vector(a)
            recording.acceleration?.append(v)
        }
        if let g = c.gyro {
            let v = vector(g)
            recording.rotationRate?.append(v)
        }
    }

    consuming func finish() throws(RecordingError) -> Recording {
        guard header != nil else { throw .empty(path: path) }
        guard recording.rowCount > 0 else { throw .noRows(path: path) }
        if recording.magnetic.isEmpty || BadRowRule.rejects(bad: recording.badRowCount, rows: recording.rowCount) {
            throw .tooManyBadRows(path: path, bad: recording.badRowCount, rows: recording.rowCount,
                                  examples: Array(recording.badRows.prefix(5)))
        }
        return recording
    }

    /// Room for the rows a file of `fileSize` bytes holds if its rows are as long as the first, up
    /// to `reservedRows` (an hour at 100 Hz is 360 000: beyond it the columns grow as they fill, so
    /// a file of bad rows behind one good one never claims more than that).
    private mutating func reserve(rowBytes: Int) {
        reserved = true
        guard let size = fileSize, size > 0 else { return }
        let rows = min(size / max(rowBytes, 16), Self.reservedRows)
        guard rows > 1 else { return }
        recording.magnetic.reserveCapacity(rows)
        recording.times?.reserveCapacity(rows)
        recording.timeTexts?.reserveCapacity(rows)
        recording.acceleration?.reserveCapacity(rows)
        recording.rotationRate?.reserveCapacity(rows)
    }

    private mutating func bad(_ reason: String) {
        recording.badRowCount += 1
        if recording.badRows.count < Recording.keptBadRows {
            recording.badRows.append(Recording.BadRow(line: lineNumber, reason: reason))
        }
    }

    private mutating func readHeader(_ text: String) throws(RecordingError) {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { Self.clean($0).lowercased() }
        let c = try locate(names, text: text)
        header = names
        columns = c
        lastNeeded = [c.x, c.y, c.z, c.t ?? 0, c.accel?.2 ?? 0, c.gyro?.2 ?? 0, c.accel?.0 ?? 0, c.gyro?.0 ?? 0,
                      c.accel?.1 ?? 0, c.gyro?.1 ?? 0].max() ?? 0
        starts = Array(repeating: 0, count: lastNeeded + 1)
        ends = Array(repeating: 0, count: lastNeeded + 1)
        recording.magneticColumns = [c.x, c.y, c.z].map { names[$0] }
        if c.t != nil { recording.times = []; recording.timeTexts = [] }
        if c.accel != nil { recording.acceleration = [] }
        if c.gyro != nil { recording.rotationRate = [] }
    }

    /// Finds the fields up to `lastNeeded` and returns how many fields the line has.
    private mutating func split(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var start = 0
        var i = 0
        while i <= line.count {
            if i == line.count || line[i] == 44 {
                if count <= lastNeeded {
                    starts[count] = start
                    ends[count] = i
                }
                count += 1
                start = i + 1
                // The count past the last needed field only matters for the message.
                if count > lastNeeded, let base = line.baseAddress, i < line.count {
                    var rest = i + 1
                    while rest < line.count, let hit = memchr(base + rest, 44, line.count - rest) {
                        count += 1
                        rest = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base + 1
                    }
                    return count + 1
                }
            }
            i += 1
        }
        return count
    }

    /// Field `index` (found by `split`) without surrounding blanks and quotes.
    private func field(_ index: Int, _ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var a = starts[index], b = ends[index]
        func blank(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 34 }
        while a < b && blank(line[a]) { a += 1 }
        while b > a && blank(line[b - 1]) { b -= 1 }
        return UnsafeBufferPointer(rebasing: line[a..<b])
    }

    private static func clean(_ field: Substring) -> String {
        var s = field
        while let c = s.first, c == " " || c == "\t" || c == "\"" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\"" { s.removeLast() }
        return String(s)
    }

    private func locate(_ names: [String], text: String) throws(RecordingError) -> Columns {
        if !names.isEmpty, names.allSatisfy({ Double($0) != nil }) {
            throw .noHeader(path: path, line: lineNumber)
        }
        func index(_ name: String) -> Int? { names.firstIndex(of: name) }
        let plain = (index("x"), index("y"), index("z"))
        let prefixed = (index("mx"), index("my"), index("mz"))
        // Lodestone's own CSV log: its raw field (µT, body axes, before calibration) and its
        // monotonic time, so a logged trip can be processed again with another calibration.
        let logged = (index("raw_x_ut"), index("raw_y_ut"), index("raw_z_ut"))
        // Messages describe the header (its line, how many fields), never quote it: the file may
        // be anyone's, and its first line a secret.
        guard let (x, y, z) = Self.all(plain) ?? Self.all(prefixed) ?? Self.all(logged) else {
            throw .missingColumns(path: path, line: lineNumber, fields: names.count)
        }
        let time = index("t") ?? (Self.all(logged) != nil ? index("monotonic_s") : nil)
        if requireTime && time == nil { throw .missingTime(path: path, line: lineNumber) }
        // The log's raw accelerometer (g) and gyroscope (°/s) columns, in body axes like its field.
        return (x, y, z, time,
                Self.all((index("ax"), index("ay"), index("az"))) ?? Self.all((index("acc_x_g"), index("acc_y_g"), index("acc_z_g"))),
                Self.all((index("gx"), index("gy"), index("gz")))
                    ?? Self.all((index("gyro_x_dps"), index("gyro_y_dps"), index("gyro_z_dps"))))
    }

    private static func all(_ t: (Int?, Int?, Int?)) -> (Int, Int, Int)? {
        guard let a = t.0, let b = t.1, let c = t.2 else { return nil }
        return (a, b, c)
    }
}

/// Why a recording cannot be used; each message names the file and the fix. Exit 65.
public enum RecordingError: UserFacingError, Equatable {
    case empty(path: String)
    case noHeader(path: String, line: Int)
    case missingColumns(path: String, line: Int, fields: Int)
    case missingTime(path: String, line: Int)
    case noRows(path: String)
    case tooManyBadRows(path: String, bad: Int, rows: Int, examples: [Recording.BadRow])
    case vehicleNeedsAcceleration(path: String)
    case notText(path: String, line: Int)
    case lineTooLong(path: String, line: Int, limit: Int)
    case tooLarge(path: String, bytes: Int)

    public var message: String {
        let format = "expected a header line naming the columns x,y,z (or mx,my,mz) and optionally t, ax,ay,az and gx,gy,gz, e.g.\n  t,x,y,z\n  0.000,12.5,-30.1,41.0"
        switch self {
        case .empty(let path):
            return "\(path) is empty: \(format)"
        case .noHeader(let path, let line):
            return "\(path) has no header: line \(line) is numbers, not column names; \(format)"
        case .missingColumns(let path, let line, let fields):
            return "\(path) has no magnetometer columns: line \(line), the header, has \(fields) field\(fields == 1 ? "" : "s") "
                + "and none of them is x,y,z, mx,my,mz or a log's raw_x_ut,raw_y_ut,raw_z_ut; \(format)"
        case .missingTime(let path, let line):
            return "\(path) has no t column (the sample time in seconds), which this needs: the header on line \(line) "
                + "names the field's columns but no time; add a t column, e.g.\n  t,x,y,z\n  0.000,12.5,-30.1,41.0"
        case .noRows(let path):
            return "\(path) has a header but no data rows: record some samples first ('lodestone calibrate --record FILE')"
        case .tooManyBadRows(let path, let bad, let rows, let examples):
            return "\(path): \(bad) of \(rows) rows are unusable (more than \(BadRowRule.maximumPercent)), for example:\n"
                + examples.map { "  line \($0.line): \($0.reason)" }.joined(separator: "\n")
                + "\ncheck that every row has numbers in the columns the header names"
        case .vehicleNeedsAcceleration(let path):
            return "\(path) has no accelerometer columns (ax,ay,az), which --vehicle needs to know which way is down: "
                + "record with an accelerometer ('lodestone calibrate --record FILE' writes them when one is found)"
        case .notText(let path, let line):
            return "\(path) is not a text file (line \(line) holds bytes that are not text): expected a CSV recording"
        case .lineTooLong(let path, let line, let limit):
            return "\(path): line \(line) is longer than \(limit) bytes, so it is not a recording's header; \(format)"
        case .tooLarge(let path, let bytes):
            return "\(path) is larger than a recording can be (\(bytes / (1 << 20)) MiB, at most "
                + "\(Recording.maximumFileSize / (1 << 20)) MiB): split it into shorter recordings"
        }
    }

    public var exitCode: ExitCode { .dataError }
}
