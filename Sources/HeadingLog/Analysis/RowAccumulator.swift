import Geodesy

/// The single pass over a log's rows: parses only the columns the analysis needs, straight from the
/// bytes, and folds each row into running statistics, the plot buckets and the GPX track.
struct RowAccumulator {
    static let timeColumn = column("time"), monotonicColumn = column("monotonic_s")
    static let fieldColumn = column("field_uT"), rawHeadingColumn = column("heading_mag_raw_deg")
    static let magneticColumn = column("heading_mag_deg"), trueColumn = column("heading_true_deg")
    static let flagsColumn = column("flags")
    static let latitudeColumn = column("lat_deg"), longitudeColumn = column("lon_deg"), altitudeColumn = column("alt_m")
    static let fixDistanceColumn = column("fix_distance_m")

    /// The position of a version 1 column (the names above are all in `LogSchema.columns`).
    private static func column(_ name: String) -> Int {
        guard let i = LogSchema.index(of: name) else { preconditionFailure("LogSchema has no column \(name)") }
        return i
    }
    /// Fixes further apart in time than this start a new GPX track segment, ms.
    static let segmentBreak: Int64 = 30_000
    /// The largest field strength a row may carry, µT: 0.1 T, twenty times the widest magnetometer
    /// range (AK09916's 4,912 µT). A magnitude below 0 or above it is no reading; the row is malformed.
    static let fieldLimit = 100_000.0

    let fieldCount: Int
    private let fields = FieldSplitter()
    private var dayCache = TimeText.DayCache()
    var plot: PlotSeries?
    var track: TrackSample?
    let gpx: GPXWriter?

    var rows = 0
    var minTime: Int64 = .max, maxTime: Int64 = .min
    private var lastTime: Int64?
    var intervals = IntervalHistogram()
    var timeStepsBack = 0
    var runs = 0
    private var lastMonotonic = -Double.infinity
    var trueHeadings = CircularStatistics()
    var magneticHeadings = CircularStatistics()
    var fieldMin = Double.infinity, fieldMax = -Double.infinity, fieldSum = 0.0, fieldCount_ = 0
    var disturbedRows = 0
    var fixRows = 0, distinctFixes = 0
    /// The distance travelled: the sum of the logged `fix_distance_m` when the log has that column
    /// filled (Lodestone's own movement rules, counted while logging), else of the geodesics between
    /// consecutive distinct positions within a run.
    var distance: Double { loggedDistanceRows > 0 ? loggedDistance : geodesicDistance }
    private var geodesicDistance = 0.0
    private var loggedDistance = 0.0
    private var loggedDistanceRows = 0
    private var lastFix: GeoPoint?
    private var lastFixTime: Int64?
    private var segmentBreakPending = false
    private var runBreakPending = false

    init(fieldCount: Int, plot: PlotSeries?, track: TrackSample?, gpx: GPXWriter?) {
        self.fieldCount = fieldCount
        self.plot = plot
        self.track = track
        self.gpx = gpx
    }

    private enum Value { case empty, value(Double), bad }

    @inline(__always)
    private func value(_ i: Int, _ line: UnsafeBufferPointer<UInt8>) -> Value {
        let b = fields[i, in: line]
        if b.isEmpty { return .empty }
        guard let v = NumberParser.parse(b) else { return .bad }
        return .value(v)
    }

    @inline(__always)
    private func optional(_ i: Int, _ line: UnsafeBufferPointer<UInt8>, angle: Bool = false) throws(RowProblem) -> Double? {
        switch value(i, line) {
        case .empty: return nil
        case .bad: throw .badNumber(column: LogSchema.columns[i].name, text: RowProblem.shown(fields[i, in: line]))
        case .value(var v):
            if angle && (v < 0 || v >= 360) {
                v = v.truncatingRemainder(dividingBy: 360)
                if v < 0 { v += 360 }
                if v >= 360 { v = 0 }
            }
            return v
        }
    }

    /// Folds one row in, or says why it cannot be read (then nothing is changed).
    mutating func consume(_ line: UnsafeBufferPointer<UInt8>) throws(RowProblem) {
        let n = fields.split(line)
        guard n == fieldCount, n <= fields.capacity else { throw .fieldCount(expected: fieldCount, found: n) }
        let timeField = fields[Self.timeColumn, in: line]
        guard let t = TimeText.parseMilliseconds(timeField, cache: &dayCache) else {
            throw .badTime(RowProblem.shown(timeField))
        }
        guard let monotonic = try optional(Self.monotonicColumn, line) else {
            throw .badNumber(column: "monotonic_s", text: "")
        }
        let field = try optional(Self.fieldColumn, line)
        if let field, !(0...Self.fieldLimit).contains(field) {
            throw .badNumber(column: "field_uT", text: RowProblem.shown(fields[Self.fieldColumn, in: line]))
        }
        let rawHeading = try optional(Self.rawHeadingColumn, line, angle: true)
        let magnetic = try optional(Self.magneticColumn, line, angle: true) ?? rawHeading
        let trueHeading = try optional(Self.trueColumn, line, angle: true)
        let latitude = try optional(Self.latitudeColumn, line)
        let longitude = try optional(Self.longitudeColumn, line)
        let altitude = try optional(Self.altitudeColumn, line)
        let loggedLeg = try optional(Self.fixDistanceColumn, line)
        if let latitude, abs(latitude) > 90 {
            throw .badNumber(column: "lat_deg", text: RowProblem.shown(fields[Self.latitudeColumn, in: line]))
        }
        // Longitudes are accepted to ±540° (they are normalised); beyond that a row is bad as a
        // latitude beyond ±90° is.
        if let longitude, abs(longitude) > 540 {
            throw .badNumber(column: "lon_deg", text: RowProblem.shown(fields[Self.longitudeColumn, in: line]))
        }
        let disturbed = Self.hasDisturbedFlag(fields[Self.flagsColumn, in: line])

        rows += 1
        if t < minTime { minTime = t }
        if t > maxTime { maxTime = t }
        if let previous = lastTime {
            if t < previous { timeStepsBack += 1 } else { intervals.add(milliseconds: t - previous, start: previous) }
        }
        lastTime = t
        if monotonic < lastMonotonic || runs == 0 {
            // A new run of the logger: its first fix is not joined to the last run's.
            if runs > 0 { runBreakPending = true }
            runs += 1
        }
        lastMonotonic = monotonic
        if let trueHeading { trueHeadings.add(trueHeading) }
        if let magnetic { magneticHeadings.add(magnetic) }
        if let field, field.isFinite {
            if field < fieldMin { fieldMin = field }
            if field > fieldMax { fieldMax = field }
            fieldSum += field
            fieldCount_ += 1
        }
        if disturbed { disturbedRows += 1 }
        plot?.add(at: t, trueHeading: trueHeading, magneticHeading: magnetic, field: field)
        if let latitude, let longitude { addFix(latitude, longitude, altitude, t) }
        if let loggedLeg, loggedLeg.isFinite, loggedLeg >= 0 {
            loggedDistance += loggedLeg
            loggedDistanceRows += 1
        }
    }

    private mutating func addFix(_ latitude: Double, _ longitude: Double, _ altitude: Double?, _ t: Int64) {
        fixRows += 1
        // A restart of the logger or a long gap breaks the track: no distance and no line across it.
        if runBreakPending || lastFixTime.map({ t - $0 > Self.segmentBreak || t < $0 }) == true {
            segmentBreakPending = true
            lastFix = nil
        }
        runBreakPending = false
        lastFixTime = t
        guard let point = try? GeoPoint(latitude: latitude, longitude: longitude) else { return }
        if let previous = lastFix {
            guard previous != point else { return }
            geodesicDistance += Geodesic.inverse(previous, point).distance
        }
        lastFix = point
        distinctFixes += 1
        track?.add(latitude: latitude, longitude: longitude, newSegment: segmentBreakPending)
        gpx?.add(latitude: latitude, longitude: longitude, altitude: altitude, milliseconds: t,
                 newSegment: segmentBreakPending)
        segmentBreakPending = false
    }

    private static let disturbedWord: [UInt8] = Array("disturbed".utf8)

    /// True when the '|'-separated flags contain "disturbed".
    @inline(__always)
    static func hasDisturbedFlag(_ flags: UnsafeBufferPointer<UInt8>) -> Bool {
        guard flags.count >= 9 else { return false }
        var start = 0
        for i in 0...flags.count {
            if i == flags.count || flags[i] == 124 {
                if i - start == 9 && flags[start..<i].elementsEqual(disturbedWord) { return true }
                start = i + 1
            }
        }
        return false
    }
}
