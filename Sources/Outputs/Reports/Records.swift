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

/// The World Magnetic Model at one place and date (`declination --json`): degrees, nanotesla,
/// kilometres, and their changes per year.
public struct DeclinationRecord: Sendable, Equatable {
    /// The date as a decimal year (the model's own time scale, as `--year` and the batch's input).
    public var decimalYear: Double
    public var latitude: Double
    public var longitude: Double
    public var heightKm: Double
    public var declination: Double
    public var declinationUncertainty: Double
    public var declinationChange: Double
    public var inclination: Double
    public var inclinationChange: Double
    public var total: Double
    public var horizontal: Double
    public var north: Double
    public var east: Double
    public var down: Double
    public var totalChange: Double
    /// Grid variation, degrees; nil outside the polar regions.
    public var gridVariation: Double?
    /// "normal", "caution" or "blackout".
    public var zone: String
    public var extrapolated: Bool

    public init(decimalYear: Double, latitude: Double, longitude: Double, heightKm: Double, declination: Double,
                declinationUncertainty: Double, declinationChange: Double, inclination: Double, inclinationChange: Double,
                total: Double, horizontal: Double, north: Double, east: Double, down: Double, totalChange: Double,
                gridVariation: Double?, zone: String, extrapolated: Bool) {
        self.decimalYear = decimalYear
        self.latitude = latitude
        self.longitude = longitude
        self.heightKm = heightKm
        self.declination = declination
        self.declinationUncertainty = declinationUncertainty
        self.declinationChange = declinationChange
        self.inclination = inclination
        self.inclinationChange = inclinationChange
        self.total = total
        self.horizontal = horizontal
        self.north = north
        self.east = east
        self.down = down
        self.totalChange = totalChange
        self.gridVariation = gridVariation
        self.zone = zone
        self.extrapolated = extrapolated
    }
}

/// One geodesic problem and its answer (`geod --json`, `geod --csv`): points in degrees, the
/// distance in metres, azimuths in degrees from true north.
public struct GeodesicRecord: Sendable, Equatable {
    /// Inverse (two points given) or direct (a point, an azimuth and a distance given).
    public var inverse: Bool
    public var latitude1: Double
    public var longitude1: Double
    public var latitude2: Double
    public var longitude2: Double
    public var distance: Double
    public var azimuth1: Double
    public var azimuth2: Double

    public init(inverse: Bool, latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double,
                distance: Double, azimuth1: Double, azimuth2: Double) {
        self.inverse = inverse
        self.latitude1 = latitude1
        self.longitude1 = longitude1
        self.latitude2 = latitude2
        self.longitude2 = longitude2
        self.distance = distance
        self.azimuth1 = azimuth1
        self.azimuth2 = azimuth2
    }
}

/// Which sensors answer on the I²C buses (`detect --json`).
public struct DetectionRecord: Sendable, Equatable {
    /// One identified device.
    public struct Device: Sendable, Equatable {
        public var bus: Int
        public var address: Int
        /// The address as text, "0x0d".
        public var addressHex: String
        public var chip: String
        public var category: String
        /// The name `--sensor`/`--accelerometer` takes; nil when unsupported.
        public var optionName: String?
        /// "high", "medium" or "low".
        public var confidence: String
        public var evidence: String

        public init(bus: Int, address: Int, addressHex: String, chip: String, category: String, optionName: String?,
                    confidence: String, evidence: String) {
            self.bus = bus
            self.address = address
            self.addressHex = addressHex
            self.chip = chip
            self.category = category
            self.optionName = optionName
            self.confidence = confidence
            self.evidence = evidence
        }
    }

    /// A device the commands will use: its option name and where it is.
    public struct Choice: Sendable, Equatable {
        public var name: String
        public var bus: Int
        /// The address as text, "0x0d".
        public var addressHex: String

        public init(name: String, bus: Int, addressHex: String) {
            self.name = name
            self.bus = bus
            self.addressHex = addressHex
        }
    }

    /// A bus that could not be opened, and why (one line).
    public struct Unopened: Sendable, Equatable {
        public var bus: Int
        public var error: String

        public init(bus: Int, error: String) {
            self.bus = bus
            self.error = error
        }
    }

    public var simulated: Bool
    public var buses: [Int]
    public var devices: [Device]
    public var boards: [String]
    public var magnetometer: Choice?
    public var accelerometer: Choice?
    public var unopened: [Unopened]

    public init(simulated: Bool, buses: [Int], devices: [Device], boards: [String], magnetometer: Choice?,
                accelerometer: Choice?, unopened: [Unopened]) {
        self.simulated = simulated
        self.buses = buses
        self.devices = devices
        self.boards = boards
        self.magnetometer = magnetometer
        self.accelerometer = accelerometer
        self.unopened = unopened
    }
}

/// One estimate of a replayed recording (`heading --from-file`): the heading at the recording's own
/// time, before and after smoothing, the attitude and, with a gyro, the rate of turn and the
/// orientation quaternion (body → NED, magnetic north).
public struct ReplayRecord: Sendable, Equatable {
    /// The input's time, seconds on the recording's own clock (`monotonic_s`).
    public var monotonic: Double
    public var magneticHeading: Double
    public var trueHeading: Double?
    public var accuracy: Double?
    public var rollAccuracy: Double?
    public var pitchAccuracy: Double?
    /// The magnetic heading before smoothing, degrees.
    public var rawMagneticHeading: Double?
    public var declination: Double?
    public var declinationSource: String?
    public var fieldStrength: Double?
    public var roll: Double?
    public var pitch: Double?
    public var flags: [String]
    /// With gyroscope columns: degrees per second, positive clockwise.
    public var rateOfTurn: Double?
    /// With gyroscope columns: w, x, y, z.
    public var quaternion: [Double]?
    public var refinement: RefinementSummary?

    public init(monotonic: Double, magneticHeading: Double, trueHeading: Double?, accuracy: Double?, rollAccuracy: Double?,
                pitchAccuracy: Double?, rawMagneticHeading: Double?, declination: Double?, declinationSource: String?,
                fieldStrength: Double?, roll: Double?, pitch: Double?, flags: [String], rateOfTurn: Double?,
                quaternion: [Double]?, refinement: RefinementSummary?) {
        self.monotonic = monotonic
        self.magneticHeading = magneticHeading
        self.trueHeading = trueHeading
        self.accuracy = accuracy
        self.rollAccuracy = rollAccuracy
        self.pitchAccuracy = pitchAccuracy
        self.rawMagneticHeading = rawMagneticHeading
        self.declination = declination
        self.declinationSource = declinationSource
        self.fieldStrength = fieldStrength
        self.roll = roll
        self.pitch = pitch
        self.flags = flags
        self.rateOfTurn = rateOfTurn
        self.quaternion = quaternion
        self.refinement = refinement
    }
}
