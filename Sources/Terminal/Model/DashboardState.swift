import Geodesy

/// Everything the dashboard shows, as plain values. The command fills it from the heading estimate,
/// the GNSS fix and the movement reports each frame; the renderer never looks anywhere else.
///
/// Names and quadrant text come preformatted from the caller (one formatter for the whole program);
/// the rose needs only the numeric heading. Text from outside (device names, report lines) is
/// passed through `Platform.sanitize` by the renderer.
///
/// ```swift
/// var state = DashboardState()
/// state.magneticHeading = 123.4
/// state.pointName = "SE"
/// state.quadrant = "S 56.6° E"
/// let lines = renderDashboard(state: state, columns: 80, rows: 24)
/// ```
public struct DashboardState: Sendable, Equatable {
    // MARK: Heading
    /// Magnetic heading in degrees [0, 360), or nil before the first sample.
    public var magneticHeading: Double?
    /// True heading in degrees, or nil when the declination is unknown.
    public var trueHeading: Double?
    /// Which heading leads the display and turns the rose (falls back to magnetic when true is nil).
    public var primary: HeadingReference = .magnetic
    /// The 16-point name of the primary heading ("SE", "东南"), preformatted by the caller.
    public var pointName: String = ""
    /// The quadrant form of the primary heading ("S 56.6° E"), preformatted by the caller.
    public var quadrant: String = ""
    /// Estimated heading uncertainty (±degrees), or nil when unknown.
    public var accuracy: Double?
    /// Whether the field looks disturbed (iron nearby, tilt, saturation) and why.
    public var disturbance = Disturbance()

    // MARK: Declination and field
    /// Declination in degrees, east positive, or nil when unknown.
    public var declination: Double?
    /// Where the declination came from ("WMM2025 at GNSS fix", "--declination"), preformatted.
    public var declinationSource: String = ""
    /// Total field strength in µT, or nil.
    public var fieldStrength: Double?
    /// Roll (heel on a boat) and pitch in degrees when an accelerometer is present.
    public var roll: Double?
    public var pitch: Double?
    /// Their accuracy (1σ-like), degrees, or nil when unknown: shown as ±x° beside each.
    public var rollAccuracy: Double?
    public var pitchAccuracy: Double?
    /// Rate of turn, °/s, positive turning to starboard; set when a gyroscope gives it.
    public var rateOfTurn: Double?

    // MARK: Devices
    public var sensor = SensorPanel()
    /// The GNSS panel, or nil when there is no GNSS source at all.
    public var gnss: GNSSPanel?
    /// The bearing to a destination (`watch --goto`) in the reference of the shown heading: a
    /// marker on the rose. nil: none.
    public var targetBearing: Double?
    /// The newest movement report lines, oldest first; the dashboard shows the last ones that fit.
    public var reports: [String] = []
    /// A short transient message for the status line ("calibration requested").
    public var notice: String = ""

    // MARK: Presentation
    public var language: Language = .en
    public var speedUnit: SpeedUnit = .kilometresPerHour
    /// Colour escapes allowed (false under NO_COLOR, TERM=dumb or when not a terminal).
    public var colorEnabled = false
    /// Pure ASCII output (no braille ring, no box drawing, no CJK); Chinese labels fall back to English.
    public var asciiOnly = false
    /// The key help overlay is shown.
    public var helpVisible = false

    public init() {}

    /// The heading that leads the display and turns the rose, with its reference actually used.
    public var shownHeading: (degrees: Double, reference: HeadingReference)? {
        if primary == .true, let t = trueHeading, t.isFinite { return (t, .true) }
        if let m = magneticHeading, m.isFinite { return (m, .magnetic) }
        return nil
    }
}

/// Magnetic or true north.
public enum HeadingReference: String, Sendable, Equatable, CaseIterable {
    case magnetic, `true`

    /// "M" or "T", appended to headings ("123.4°M").
    public var suffix: String { self == .magnetic ? "M" : "T" }
}

/// Whether the measured field looks disturbed.
public struct Disturbance: Sendable, Equatable {
    public enum Level: Int, Sendable, Comparable {
        case none, warning, severe
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }
    public var level: Level
    /// What is wrong, preformatted ("field 71 µT, expected 57 µT").
    public var text: String

    public init(level: Level = .none, text: String = "") {
        self.level = level
        self.text = text
    }
}

/// The magnetometer as the dashboard shows it.
public struct SensorPanel: Sendable, Equatable {
    /// Chip name ("QMC5883L", "QMC5883L (simulated)").
    public var chip: String
    public var bus: Int?
    public var address: Int?
    /// Output data rate in Hz.
    public var rateHz: Double?
    /// Read errors since start.
    public var errorCount: Int
    /// "ok", or the last problem in a few words.
    public var status: String

    public init(chip: String = "", bus: Int? = nil, address: Int? = nil, rateHz: Double? = nil,
                errorCount: Int = 0, status: String = "") {
        self.chip = chip
        self.bus = bus
        self.address = address
        self.rateHz = rateHz
        self.errorCount = errorCount
        self.status = status
    }
}

/// The GNSS receiver as the dashboard shows it.
public struct GNSSPanel: Sendable, Equatable {
    /// Fix mode, preformatted ("3D fix", "no fix").
    public var fixMode: String
    /// Degrees, north and east positive; nil without a position.
    public var latitude: Double?
    public var longitude: Double?
    /// Speed over ground in m/s (shown in the chosen `SpeedUnit`).
    public var speed: Double?
    /// Course over ground in degrees true.
    public var course: Double?
    /// Horizontal position error estimate in metres.
    public var horizontalError: Double?
    /// Seconds since the fix was taken.
    public var ageSeconds: Double?
    /// The fix is too old to trust; shown marked.
    public var stale: Bool
    /// Connection state, preformatted ("gpsd connected", "gpsd not running").
    public var connection: String
    /// Where the fix is from a nearby place, preformatted ("3.35 km NE of Hoorn, NL"); empty when unknown.
    public var place: String = ""

    public init(fixMode: String = "", latitude: Double? = nil, longitude: Double? = nil, speed: Double? = nil,
                course: Double? = nil, horizontalError: Double? = nil, ageSeconds: Double? = nil,
                stale: Bool = false, connection: String = "") {
        self.fixMode = fixMode
        self.latitude = latitude
        self.longitude = longitude
        self.speed = speed
        self.course = course
        self.horizontalError = horizontalError
        self.ageSeconds = ageSeconds
        self.stale = stale
        self.connection = connection
    }
}
