/// The record kinds besides the heading update and the fix (`HeadingReport`, `FixReport`), as the
/// output formats see them: plain values in SI units and degrees, unknowns as nil. Session maps its
/// own types onto them in one place (`OutputMapping`); `ReportJSON` and `ReportCSV` write them.

/// One movement report (`track`): the fix, the leg from the previous report, the total.
public struct MovementRecord: Sendable, Equatable {
    public var fix: FixReport
    /// The leg's length, metres (the log's `fix_distance_m`); nil for the first report.
    public var legDistance: Double?
    /// The leg's direction from true north, degrees (the log's `fix_bearing_deg`); nil while stationary.
    public var legBearing: Double?
    /// The leg's direction as words ("N30°E", "stationary"); nil for the first report.
    public var legDirection: String?
    /// Distance travelled so far, metres.
    public var total: Double
    /// True when the leg is within the fixes' error; nil for the first report.
    public var stationary: Bool?

    public init(fix: FixReport, legDistance: Double?, legBearing: Double?, legDirection: String?, total: Double,
                stationary: Bool?) {
        self.fix = fix
        self.legDistance = legDistance
        self.legBearing = legBearing
        self.legDirection = legDirection
        self.total = total
        self.stationary = stationary
    }
}

/// One place (`places near|find|list`, `where`'s near and town): a placemark, and where it is
/// from a point when there is one.
public struct PlaceRecord: Sendable, Equatable {
    public var name: String
    public var chineseName: String?
    /// First-level administrative area, country code and name, IANA time zone; nil when unknown.
    public var region: String?
    public var country: String?
    public var countryName: String?
    public var timeZone: String?
    /// People; nil for your own places.
    public var population: Int?
    public var latitude: Double
    public var longitude: Double
    /// Your place's radius, metres; nil for a gazetteer place.
    public var radius: Double?
    /// Geodesic distance from the place to the point, metres; nil without a point.
    public var distance: Double?
    /// Direction from the place to the point, degrees from true north; nil without a point (or at it).
    public var direction: Double?
    /// The name in plain ASCII (a gazetteer place's); nil for your own.
    public var asciiName: String?
    /// `places find`: the name that matched (an alternate one), and how ("exact", "prefix", "word").
    public var matchedName: String?
    public var match: String?

    public init(name: String, chineseName: String? = nil, region: String? = nil, country: String? = nil,
                countryName: String? = nil, timeZone: String? = nil, population: Int? = nil,
                latitude: Double, longitude: Double, radius: Double? = nil, distance: Double? = nil, direction: Double? = nil) {
        self.name = name
        self.chineseName = chineseName
        self.region = region
        self.country = country
        self.countryName = countryName
        self.timeZone = timeZone
        self.population = population
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.distance = distance
        self.direction = direction
    }
}

/// One `goto` report: the way from a fix to the destination.
public struct GuidanceRecord: Sendable, Equatable {
    /// Time of the fix, Unix seconds; nil when the receiver gave none.
    public var wall: Double?
    public var latitude: Double?
    public var longitude: Double?
    /// Geodesic distance to the destination, metres.
    public var distance: Double
    /// Bearing to it, degrees from true north; nil when there.
    public var bearing: Double?
    /// The turn from the heading (or course) to it, degrees, positive to the right; nil when unknown.
    public var relativeBearing: Double?
    /// Speed made good towards it, m/s; nil until known.
    public var speedMadeGood: Double?
    /// Time to go, seconds; nil while not closing.
    public var timeToGo: Double?
    /// Cross-track error, metres, positive right of the track; nil until known.
    public var crossTrackError: Double?
    public var arrived: Bool

    public init(wall: Double?, latitude: Double?, longitude: Double?, distance: Double, bearing: Double?,
                relativeBearing: Double?, speedMadeGood: Double?, timeToGo: Double?, crossTrackError: Double?, arrived: Bool) {
        self.wall = wall
        self.latitude = latitude
        self.longitude = longitude
        self.distance = distance
        self.bearing = bearing
        self.relativeBearing = relativeBearing
        self.speedMadeGood = speedMadeGood
        self.timeToGo = timeToGo
        self.crossTrackError = crossTrackError
        self.arrived = arrived
    }
}
