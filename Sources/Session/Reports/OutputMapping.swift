import Geomagnetism
import GNSS
import Heading
import JSON
import HeadingLog
import Navigation
import Outputs
import Places
import Platform
import Sensors

// The one mapping of Lodestone's values onto its outputs: the pipeline's estimate, a fix, a
// movement report, a region event, a place and `goto`'s guidance become the output formats'
// records (`HeadingReport`, `FixReport`, `MovementRecord`, `RegionReport`, `PlaceRecord`,
// `GuidanceRecord`), the one-shot answers (the World Magnetic Model's field, a geodesic, a sensor
// scan: `DeclinationRecord`, `GeodesicRecord`, `DetectionRecord`), which `ReportJSON`/`ReportCSV`
// (JSON and CSV of every command), the NMEA and
// Signal K writers and MQTT write, and a fix's fields of the log row. The rules live here once:
// the fix mode's label (`FixMode.label`), the altitude (above mean sea level only, never the
// ellipsoid height in its place), the time (the fix's, else the arrival's).

extension HeadingReport {
    /// The output formats' view of a pipeline estimate.
    public init(_ e: HeadingEstimate) { self.init(e, flagNames: e.flags.names) }

    /// The same, with the names of `e.flags` given (`serve` keeps them from the last update: the
    /// flags seldom change, and making the names is an array of strings each time).
    init(_ e: HeadingEstimate, flagNames: [String]) {
        let card = e.flags.contains(.deviationApplied)
        self.init(wall: e.wall, monotonic: e.monotonic, magneticHeading: e.magneticHeading,
                  compassHeading: card ? e.magneticHeading - e.deviation : nil, deviation: card ? e.deviation : nil,
                  variation: e.declination, variationSource: e.declinationSource.label, trueHeading: e.trueHeading,
                  rateOfTurn: e.flags.contains(.restarted) ? nil : e.turnRate, roll: e.roll, pitch: e.pitch,
                  accuracy: e.isAccuracyAvailable ? e.accuracy : nil, fieldStrength: e.fieldStrength,
                  flags: flagNames, rollAccuracy: e.rollAccuracy, pitchAccuracy: e.pitchAccuracy)
    }
}

extension FixReport {
    /// A fix as the outputs see it; `wall` stands in for a fix without a time (and is read only then).
    public init(_ fix: Fix, wall: @autoclosure () -> Double) {
        self.init(wall: fix.time ?? wall(), mode: fix.mode.label, latitude: fix.lat, longitude: fix.lon,
                  altitude: fix.altMSL, speed: fix.speed, course: fix.course, horizontalError: fix.horizontalError)
    }
}

extension LogRow {
    /// The log row's GNSS columns from a fix with a position, by the same rules as `FixReport`.
    mutating func setFix(_ fix: Fix) {
        let report = FixReport(fix, wall: 0)
        gnssMode = report.mode
        latitude = report.latitude
        longitude = report.longitude
        altitude = report.altitude
        speed = report.speed
        course = report.course
        horizontalError = report.horizontalError
    }
}

extension MovementRecord {
    /// A movement report, its leg's direction said by `direction` ("N30°E", "stationary").
    init(_ r: MovementReport, wall: Double, direction: (Leg) -> String) {
        var fix = FixReport(r.fix, wall: wall)
        fix.speed = r.speed
        fix.course = r.course
        self.init(fix: fix, legDistance: r.leg?.distance, legBearing: r.leg?.direction,
                  legDirection: r.leg.map(direction), total: r.totalDistance, stationary: r.leg?.isStationary)
    }
}

extension RegionReport {
    /// A region event at a fix (its time, else `wall`).
    init(_ event: RegionEvent, region: String, fix: Fix?, wall: Double) {
        self.init(wall: fix?.time ?? wall, region: region, event: event.kind.rawValue,
                  latitude: fix?.lat, longitude: fix?.lon, distance: event.distance)
    }
}

extension PlaceRecord {
    /// A place's placemark (a gazetteer place's population; none for your own).
    init(_ place: Place, gazetteer: Bool = true) {
        func text(_ s: String) -> String? { s.isEmpty ? nil : sanitize(s) }
        self.init(name: sanitize(place.name), chineseName: place.chineseName.map(sanitize), region: text(place.region),
                  country: text(place.country), countryName: text(place.countryName), timeZone: text(place.timeZone),
                  population: gazetteer ? place.population : nil, latitude: place.latitude, longitude: place.longitude)
        if gazetteer { asciiName = text(place.asciiName) }
    }

    /// A place `places find` found, with the name that matched and how.
    init(_ hit: NamedPlace) {
        if let user = hit.userPlace { self.init(user) } else { self.init(hit.place) }
        matchedName = hit.matchedName.map(sanitize)
        match = ["exact", "prefix", "word"][hit.match.rawValue]
    }

    /// A place near a point: its placemark, the distance and direction to the point, and for your
    /// own place its radius.
    init(_ near: NearbyPlace, userPlaces: [UserPlace] = []) {
        if case .user(let i) = near.source {
            self.init(near.place, gazetteer: false)
            radius = i < userPlaces.count ? userPlaces[i].radius : nil
        } else {
            self.init(near.place)
        }
        distance = near.distance
        direction = near.direction
    }

    /// One of your places.
    init(_ user: UserPlace) {
        self.init(name: sanitize(user.name), latitude: user.latitude, longitude: user.longitude, radius: user.radius)
    }
}

extension GuidanceRecord {
    /// `goto`'s guidance from a fix.
    init(_ fix: Fix, _ g: Guidance) {
        self.init(wall: fix.time, latitude: fix.lat, longitude: fix.lon, distance: g.distance, bearing: g.bearing,
                  relativeBearing: g.relativeBearing, speedMadeGood: g.speedMadeGood, timeToGo: g.timeToGo,
                  crossTrackError: g.crossTrackError, arrived: g.arrived)
    }
}

extension DeclinationRecord {
    /// The World Magnetic Model's field at a place and date.
    init(_ f: MagneticField, latitude: Double, longitude: Double, heightKm: Double, year: Double) {
        self.init(decimalYear: year, latitude: latitude, longitude: longitude, heightKm: heightKm,
                  declination: f.declination, declinationUncertainty: f.declinationUncertainty,
                  declinationChange: f.secular.declination, inclination: f.inclination,
                  inclinationChange: f.secular.inclination, total: f.total, horizontal: f.horizontal, north: f.north,
                  east: f.east, down: f.down, totalChange: f.secular.total, gridVariation: f.gridVariation,
                  zone: f.zone.name, extrapolated: f.isExtrapolated)
    }
}

extension DetectionRecord {
    /// A scan of the I²C buses: every device, the magnetometer (and the accelerometer beside it) the
    /// commands will use, the buses that could not be opened (the first line of why).
    init(_ report: ScanReport, simulated: Bool) {
        func choice(_ d: DetectedDevice?) -> Choice? {
            guard let d, let name = d.chip.optionName else { return nil }
            return Choice(name: name, bus: d.bus, addressHex: hexAddress(d.address))
        }
        let magnetometer = report.preferredMagnetometer
        self.init(simulated: simulated, buses: report.buses,
                  devices: report.devices.map { d in
                      Device(bus: d.bus, address: Int(d.address), addressHex: hexAddress(d.address), chip: d.chip.name,
                             category: d.chip.category, optionName: d.chip.optionName, confidence: d.confidence.rawValue,
                             evidence: d.evidence)
                  },
                  boards: report.probableBoards, magnetometer: choice(magnetometer),
                  accelerometer: choice(magnetometer.flatMap { report.preferredAccelerometer(onBus: $0.bus) }),
                  unopened: report.unopened.map { Unopened(bus: $0.bus, error: String($0.error.message.split(separator: "\n").first ?? "")) })
    }
}

extension ReplayRecord {
    /// A replayed estimate at the recording's time `monotonic`; the rate of turn and the quaternion
    /// only from the gyro-aided path.
    init(_ e: HeadingEstimate, monotonic: Double, refinement: RefinementReport?) {
        let q = e.attitude
        self.init(monotonic: monotonic, magneticHeading: e.magneticHeading, trueHeading: e.trueHeading,
                  accuracy: e.isAccuracyAvailable ? e.accuracy : nil, rollAccuracy: e.rollAccuracy,
                  pitchAccuracy: e.pitchAccuracy, rawMagneticHeading: e.rawMagneticHeading, declination: e.declination,
                  declinationSource: e.declinationSource.label, fieldStrength: e.fieldStrength, roll: e.roll,
                  pitch: e.pitch, flags: e.flags.names, rateOfTurn: q == nil ? nil : e.turnRate,
                  quaternion: q.map { [$0.w, $0.x, $0.y, $0.z] }, refinement: refinement?.summary)
    }
}

/// The summary of `lodestone analyze --json`, in the one vocabulary's fields (`ReportJSON.Fields`):
/// times as ISO 8601 UTC, durations in seconds, angles in degrees, fields in µT, distances in
/// metres; null where nothing was measured.
///
/// ```swift
/// out.write(analysisJSON(summary, svg: nil, gpx: nil).serialized() + "\n")
/// ```
func analysisJSON(_ s: LogSummary, svg: String?, gpx: String?) -> JSONValue {
    var o = ReportJSON.Fields()
    o.text("file", s.path)
    o.integer("rows", s.rows)
    o.integer("malformed_rows", s.malformedRows)
    o.time("first_time", s.firstTime)
    o.time("last_time", s.lastTime)
    o.exact("duration_s", s.duration)
    o.exact("rate_hz", s.rate)
    o.exact("median_interval_s", s.medianInterval)
    o.exact("gap_threshold_s", s.gapThreshold)
    o.integer("gaps", s.gapCount)
    o.exact("longest_gap_s", s.longestGap)
    o.time("longest_gap_after", s.longestGapStart)
    o.integer("runs", s.runs)
    o.integer("time_steps_back", s.timeStepsBack)
    o.text("heading_column", s.headingColumn)
    o.integer("heading_rows", s.headingRows)
    o.exact("heading_mean_deg", s.headingMean)
    o.exact("heading_spread_deg", s.headingSpread)
    o.exact("field_min_uT", s.fieldMin)
    o.exact("field_max_uT", s.fieldMax)
    o.exact("field_mean_uT", s.fieldMean)
    o.integer("disturbed_rows", s.disturbedRows)
    o.exact("disturbed_s", s.disturbedTime)
    o.integer("gnss_fix_rows", s.fixRows)
    o.integer("gnss_positions", s.distinctFixes)
    o.exact("distance_m", s.distance)
    o.text("svg", svg)
    o.text("gpx", gpx)
    return o.json
}
