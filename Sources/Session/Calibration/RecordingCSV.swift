import Linear
import Platform

/// A magnetometer recording read from CSV for `lodestone calibrate --from-file`.
///
/// The first line that is neither empty nor a `#` comment is the header. It must name the
/// magnetometer columns `x,y,z` (or `mx,my,mz`), in any consistent unit; `t` (seconds) and
/// `ax,ay,az` (g) are optional; other columns are ignored. Rows with a missing or non-numeric
/// magnetometer value are skipped and reported by line number.
///
/// ```swift
/// let recording = try Recording.parse(text, path: "raw.csv")
/// print(recording.magnetic.count, recording.badRows.count)
/// ```
struct Recording {
    /// One skipped row: its 1-based line number and why.
    struct BadRow: Equatable {
        var line: Int
        var reason: String
    }

    var magnetic: [Vector3] = []
    /// Accelerometer readings, when the file has `ax,ay,az` (aligned with `magnetic`; nil where a
    /// row has no usable value).
    var acceleration: [Vector3?]?
    /// Rotation rate (°/s, body axes) per magnetic row, when the recording has gx,gy,gz columns.
    var rotationRate: [Vector3?]?
    /// Times, when the file has `t` (aligned with `magnetic`).
    var times: [Double?]?
    /// The `t` column exactly as written (aligned with `magnetic`), for output that copies it.
    var timeTexts: [String]?
    var badRows: [BadRow] = []
    /// Data rows seen (good and bad).
    var rowCount = 0
    /// The magnetometer column names used, e.g. ["mx", "my", "mz"].
    var magneticColumns: [String] = []

    /// The widest full-scale range of any supported chip in `unit` ("uT", "gauss", "counts"),
    /// rounded up; nil for an unknown unit.
    static func widestFullScale(unit: String) -> Double? {
        switch unit {
        case "uT": return 5000
        case "gauss": return 50
        case "counts": return 32768
        default: return nil
        }
    }

    /// More than this fraction of bad rows makes the file unusable.
    static let maximumBadFraction = 0.1

    static func parse(_ text: String, path: String) throws(RecordingError) -> Recording {
        var recording = Recording()
        var header: [String]?
        var columns: (x: Int, y: Int, z: Int, t: Int?, accel: (Int, Int, Int)?, gyro: (Int, Int, Int)?)?
        var lineNumber = 0
        // "\r\n" is one Character, so split on every kind of line end.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(Self.clean)
            guard let names = header, let c = columns else {
                header = fields.map { $0.lowercased() }
                columns = try Self.locate(header ?? [], path: path, line: lineNumber, text: String(line))
                recording.magneticColumns = columns.map { c in [c.x, c.y, c.z].map { header?[$0] ?? "" } } ?? []
                if columns?.t != nil { recording.times = []; recording.timeTexts = [] }
                if columns?.accel != nil { recording.acceleration = [] }
                if columns?.gyro != nil { recording.rotationRate = [] }
                continue
            }
            recording.rowCount += 1
            var values: [Double] = []
            var problem: String?
            for index in [c.x, c.y, c.z] {
                guard index < fields.count else {
                    problem = "\(fields.count) values, but the header has \(names.count) columns"
                    break
                }
                guard let v = Double(fields[index]), v.isFinite else {
                    let shown = sanitize(String(fields[index].prefix(20)))
                    problem = "column \(names[index]) is " + (shown.isEmpty ? "empty" : "not a number ('\(shown)')")
                    break
                }
                values.append(v)
            }
            if let problem {
                recording.badRows.append(BadRow(line: lineNumber, reason: problem))
                continue
            }
            recording.magnetic.append(Vector3(values[0], values[1], values[2]))
            // The optional columns never make a row bad: a missing value is just absent.
            func optional(_ index: Int) -> Double? {
                guard index < fields.count, let v = Double(fields[index]), v.isFinite else { return nil }
                return v
            }
            if let t = c.t {
                recording.times?.append(optional(t))
                recording.timeTexts?.append(t < fields.count ? fields[t] : "")
            }
            func vector(_ i: (Int, Int, Int)) -> Vector3? {
                guard let x = optional(i.0), let y = optional(i.1), let z = optional(i.2) else { return nil }
                return Vector3(x, y, z)
            }
            if let a = c.accel { recording.acceleration?.append(vector(a)) }
            if let g = c.gyro { recording.rotationRate?.append(vector(g)) }
        }
        guard header != nil else { throw .empty(path: path) }
        guard recording.rowCount > 0 else { throw .noRows(path: path) }
        let bad = recording.badRows.count
        if recording.magnetic.isEmpty || Double(bad) > maximumBadFraction * Double(recording.rowCount) {
            throw .tooManyBadRows(path: path, bad: bad, rows: recording.rowCount, examples: Array(recording.badRows.prefix(5)))
        }
        return recording
    }

    private static func clean(_ field: Substring) -> String {
        var s = field
        while let c = s.first, c == " " || c == "\t" || c == "\"" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\"" { s.removeLast() }
        return String(s)
    }

    private static func locate(_ names: [String], path: String, line: Int, text: String) throws(RecordingError)
        -> (x: Int, y: Int, z: Int, t: Int?, accel: (Int, Int, Int)?, gyro: (Int, Int, Int)?) {
        if !names.isEmpty, names.allSatisfy({ Double($0) != nil }) {
            throw .noHeader(path: path, line: line, text: sanitize(String(text.prefix(60))))
        }
        func index(_ name: String) -> Int? { names.firstIndex(of: name) }
        let plain = (index("x"), index("y"), index("z"))
        let prefixed = (index("mx"), index("my"), index("mz"))
        // Lodestone's own CSV log: its raw field (µT, body axes, before calibration) and its
        // monotonic time, so a logged trip can be processed again with another calibration.
        let logged = (index("raw_x_ut"), index("raw_y_ut"), index("raw_z_ut"))
        guard let (x, y, z) = Self.all(plain) ?? Self.all(prefixed) ?? Self.all(logged) else {
            throw .missingColumns(path: path, found: names.map { sanitize($0) })
        }
        let time = index("t") ?? (Self.all(logged) != nil ? index("monotonic_s") : nil)
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
enum RecordingError: UserFacingError, Equatable {
    case empty(path: String)
    case noHeader(path: String, line: Int, text: String)
    case missingColumns(path: String, found: [String])
    case noRows(path: String)
    case tooManyBadRows(path: String, bad: Int, rows: Int, examples: [Recording.BadRow])
    case vehicleNeedsAcceleration(path: String)

    var message: String {
        let format = "expected a header line naming the columns x,y,z (or mx,my,mz) and optionally t, ax,ay,az and gx,gy,gz, e.g.\n  t,x,y,z\n  0.000,12.5,-30.1,41.0"
        switch self {
        case .empty(let path):
            return "\(path) is empty: \(format)"
        case .noHeader(let path, let line, let text):
            return "\(path) has no header: line \(line) is data ('\(text)'); \(format)"
        case .missingColumns(let path, let found):
            return "\(path) has no magnetometer columns: the header names " + found.map { "'\($0)'" }.joined(separator: ", ")
                + "; \(format)"
        case .noRows(let path):
            return "\(path) has a header but no data rows: record some samples first ('lodestone calibrate --record FILE')"
        case .tooManyBadRows(let path, let bad, let rows, let examples):
            return "\(path): \(bad) of \(rows) rows are unusable (more than \(Int(Recording.maximumBadFraction * 100)) %), for example:\n"
                + examples.map { "  line \($0.line): \($0.reason)" }.joined(separator: "\n")
                + "\ncheck that every row has numbers in the columns the header names"
        case .vehicleNeedsAcceleration(let path):
            return "\(path) has no accelerometer columns (ax,ay,az), which --vehicle needs to know which way is down: "
                + "record with an accelerometer ('lodestone calibrate --record FILE' writes them when one is found)"
        }
    }

    var exitCode: ExitCode { .dataError }
}
