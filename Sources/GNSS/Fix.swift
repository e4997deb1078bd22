/// What kind of position a receiver has: gpsd's `mode` (0 and 1 both mean no position).
///
/// ```swift
/// if fix.mode >= .twoD { use(fix) }
/// ```
public enum FixMode: Int, Sendable, Comparable, CustomStringConvertible {
    /// No position (gpsd mode 0 "unknown" or 1 "no fix").
    case noFix = 1
    /// Latitude and longitude, no altitude.
    case twoD = 2
    /// Latitude, longitude and altitude.
    case threeD = 3

    /// The mode for gpsd's number; anything but 2 or 3 is `.noFix`.
    public init(gpsdMode: Int) {
        switch gpsdMode {
        case 2: self = .twoD
        case 3: self = .threeD
        default: self = .noFix
        }
    }

    /// Parses "2d"/"3d" (as given to `--min-mode`), case-insensitively; also "none".
    public init?(name: String) {
        switch name.lowercased() {
        case "2d", "2": self = .twoD
        case "3d", "3": self = .threeD
        case "none", "nofix", "no-fix", "1": self = .noFix
        default: return nil
        }
    }

    public static func < (a: FixMode, b: FixMode) -> Bool { a.rawValue < b.rawValue }

    /// The one machine-readable form of a fix mode, for every output (the log's `gnss_mode`, the
    /// JSON's, the CSVs'): "no_fix", "2d" or "3d".
    public var label: String {
        switch self {
        case .noFix: return "no_fix"
        case .twoD: return "2d"
        case .threeD: return "3d"
        }
    }

    /// "no fix", "2D" or "3D".
    public var description: String {
        switch self {
        case .noFix: return "no fix"
        case .twoD: return "2D"
        case .threeD: return "3D"
        }
    }
}

/// One position report from a receiver, as gpsd describes it in a TPV message.
///
/// Every measured field is optional: a field gpsd did not send is `nil`, never NaN. Angles are in
/// degrees, distances in metres, speeds in m/s, time in Unix seconds (UTC).
///
/// ```swift
/// let fix = Fix(time: 1_700_000_000, mode: .threeD, lat: -33.8694, lon: 151.199, eph: 3)
/// if fix.hasPosition, let error = fix.horizontalError { print(fix.lat!, fix.lon!, "±\(error) m") }
/// ```
public struct Fix: Sendable, Equatable {
    /// Time of the fix (Unix seconds, UTC), from gpsd's ISO 8601 `time`.
    public var time: Double?
    public var mode: FixMode
    /// Latitude in degrees, north positive, in [−90, 90].
    public var lat: Double?
    /// Longitude in degrees, east positive, in [−180, 180].
    public var lon: Double?
    /// Height above the WGS84 ellipsoid, metres.
    public var altHAE: Double?
    /// Height above mean sea level, metres.
    public var altMSL: Double?
    /// Course over ground (gpsd's `track`), degrees clockwise from true north, in [0, 360).
    public var course: Double?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// Vertical speed, m/s, up positive.
    public var climb: Double?
    /// Estimated horizontal position error, metres.
    public var eph: Double?
    /// Estimated longitude (east–west) error, metres.
    public var epx: Double?
    /// Estimated latitude (north–south) error, metres.
    public var epy: Double?
    /// Estimated vertical error, metres.
    public var epv: Double?
    /// Estimated speed error, m/s.
    public var eps: Double?
    /// Estimated course error, degrees.
    public var epd: Double?
    /// The receiver's device path as gpsd names it, control characters removed.
    public var device: String?

    public init(time: Double? = nil, mode: FixMode = .noFix, lat: Double? = nil, lon: Double? = nil,
                altHAE: Double? = nil, altMSL: Double? = nil, course: Double? = nil, speed: Double? = nil,
                climb: Double? = nil, eph: Double? = nil, epx: Double? = nil, epy: Double? = nil,
                epv: Double? = nil, eps: Double? = nil, epd: Double? = nil, device: String? = nil) {
        self.time = time
        self.mode = mode
        self.lat = lat
        self.lon = lon
        self.altHAE = altHAE
        self.altMSL = altMSL
        self.course = course
        self.speed = speed
        self.climb = climb
        self.eph = eph
        self.epx = epx
        self.epy = epy
        self.epv = epv
        self.eps = eps
        self.epd = epd
        self.device = device
    }

    /// True for a 2D or 3D fix that carries both latitude and longitude.
    public var hasPosition: Bool { mode >= .twoD && lat != nil && lon != nil }

    /// The horizontal error estimate: `eph`, else the larger of `epx` and `epy`, else nil.
    public var horizontalError: Double? {
        if let eph { return eph }
        switch (epx, epy) {
        case let (x?, y?): return max(x, y)
        case let (x?, nil): return x
        case let (nil, y?): return y
        case (nil, nil): return nil
        }
    }

    /// This fix with every field that `newer` carries taken from `newer` (for several TPVs that
    /// describe the same epoch). The mode is the newer report's.
    public func merged(with newer: Fix) -> Fix {
        Fix(time: newer.time ?? time, mode: newer.mode, lat: newer.lat ?? lat, lon: newer.lon ?? lon,
            altHAE: newer.altHAE ?? altHAE, altMSL: newer.altMSL ?? altMSL,
            course: newer.course ?? course, speed: newer.speed ?? speed, climb: newer.climb ?? climb,
            eph: newer.eph ?? eph, epx: newer.epx ?? epx, epy: newer.epy ?? epy, epv: newer.epv ?? epv,
            eps: newer.eps ?? eps, epd: newer.epd ?? epd, device: newer.device ?? device)
    }
}
