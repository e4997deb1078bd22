import Linear

/// One heading update as the output formats see it: plain values in degrees, with the unknowns as
/// nil. Session maps the pipeline's `HeadingEstimate` onto it; tests and tools build it by hand.
///
/// ```swift
/// var r = HeadingReport(wall: 1_795_000_000, monotonic: 12.5, magneticHeading: 123.4)
/// r.variation = 12.8          // declination, east positive
/// r.trueHeading = 136.2
/// NMEAFormatter(talker: .compass).sentences(for: r)   // HDG, HDM, HDT
/// ```
public struct HeadingReport: Sendable, Equatable {
    /// Wall-clock time of the sample, Unix seconds.
    public var wall: Double
    /// Monotonic time of the sample, seconds.
    public var monotonic: Double
    /// Magnetic heading (after the deviation card), degrees in [0, 360).
    public var magneticHeading: Double
    /// The magnetic sensor's own heading before the deviation card, degrees; nil when no card applies.
    public var compassHeading: Double?
    /// Deviation the card added to the compass heading, degrees east positive; nil when no card applies.
    public var deviation: Double?
    /// Magnetic variation (declination), degrees east positive; nil when unknown.
    public var variation: Double?
    /// Where the variation comes from ("wmm", "location", "manual", "none").
    public var variationSource: String?
    /// True heading, degrees in [0, 360); nil without a variation.
    public var trueHeading: Double?
    /// Rate of turn, degrees per second, positive clockwise (bow to starboard); nil when unknown.
    public var rateOfTurn: Double?
    /// Roll, degrees, right side down positive; nil without an accelerometer.
    public var roll: Double?
    /// Pitch, degrees, nose up positive; nil without an accelerometer.
    public var pitch: Double?
    /// Heading accuracy (1σ-like), degrees; nil when unknown.
    public var accuracy: Double?
    /// Roll and pitch accuracy, degrees; nil when unknown.
    public var rollAccuracy: Double?
    public var pitchAccuracy: Double?
    /// Field strength |B|, µT; nil when not measured.
    public var fieldStrength: Double?
    /// Condition names, e.g. ["disturbed", "tiltHeld"].
    public var flags: [String]
    /// With `--refine`: the background refinement of the calibration.
    public var refinement: RefinementSummary?

    public init(wall: Double, monotonic: Double, magneticHeading: Double, compassHeading: Double? = nil,
                deviation: Double? = nil, variation: Double? = nil, variationSource: String? = nil,
                trueHeading: Double? = nil, rateOfTurn: Double? = nil, roll: Double? = nil, pitch: Double? = nil,
                accuracy: Double? = nil, fieldStrength: Double? = nil, flags: [String] = [],
                rollAccuracy: Double? = nil, pitchAccuracy: Double? = nil) {
        self.rollAccuracy = rollAccuracy
        self.pitchAccuracy = pitchAccuracy
        self.wall = wall
        self.monotonic = monotonic
        self.magneticHeading = magneticHeading
        self.compassHeading = compassHeading
        self.deviation = deviation
        self.variation = variation
        self.variationSource = variationSource
        self.trueHeading = trueHeading
        self.rateOfTurn = rateOfTurn
        self.roll = roll
        self.pitch = pitch
        self.accuracy = accuracy
        self.fieldStrength = fieldStrength
        self.flags = flags
    }
}

/// The background refinement (`--refine`) as the output formats see it.
///
/// ```swift
/// let r = RefinementSummary(state: "converged", change: [0.4, -0.2, 0.1], sigma: 0.08)
/// ReportJSON.refinement(r).serialized()   // {"state":"converged","change_uT":[0.4,-0.2,0.1],…}
/// ```
public struct RefinementSummary: Sendable, Equatable {
    /// waiting, collecting, converged or change_suspected.
    public var state: String
    /// The offset's change from the profile (µT, the profile's axes).
    public var change: [Double]
    /// The change's 1σ (µT, horizontal), nil until converged.
    public var sigma: Double?
    /// The profile's offset after the refinement (µT), nil without a profile.
    public var offset: [Double]?
    /// The refined soft iron's largest change of the field (percent), nil while it is not refined.
    public var softIronPercent: Double?

    public init(state: String, change: [Double], sigma: Double?, offset: [Double]? = nil, softIronPercent: Double? = nil) {
        self.state = state
        self.change = change
        self.sigma = sigma
        self.offset = offset
        self.softIronPercent = softIronPercent
    }

    /// |change| (µT).
    public var changeMagnitude: Double { change.reduce(0) { $0 + $1 * $1 }.squareRoot() }
}

/// One GNSS fix as the output formats see it.
///
/// ```swift
/// let f = FixReport(wall: 1_795_000_000, mode: "3d", latitude: -33.87, longitude: 151.21)
/// ReportJSON.fix(f).serialized()
/// ```
public struct FixReport: Sendable, Equatable {
    /// Wall-clock time of the fix (the receiver's, else when it arrived), Unix seconds.
    public var wall: Double
    /// "2d", "3d" or "no_fix" (`FixReport.modeLabel`, the log's `gnss_mode`).
    public var mode: String
    public var latitude: Double?
    public var longitude: Double?
    /// Altitude above mean sea level, metres (the one altitude rule: the receiver's MSL altitude
    /// only, never the ellipsoid height in its place, as the log's `alt_m`).
    public var altitude: Double?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// Course over ground, degrees from true north.
    public var course: Double?
    /// Estimated horizontal error, metres.
    public var horizontalError: Double?

    public init(wall: Double, mode: String, latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil,
                speed: Double? = nil, course: Double? = nil, horizontalError: Double? = nil) {
        self.wall = wall
        self.mode = mode
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.horizontalError = horizontalError
    }
}

/// An angle in degrees brought into [0, 360): `Linear.wrap360`.
func wrapDegrees(_ angle: Double) -> Double { wrap360(angle) }

/// A region event (`--region`): entering or leaving a place, as `serve` publishes it and `regions
/// --format json` prints it.
public struct RegionReport: Sendable, Equatable {
    /// Time of the fix that decided it, Unix seconds; nil when the receiver gave none.
    public var wall: Double?
    /// The region's name.
    public var region: String
    /// "inside" or "outside" (the first state), "enter", "exit" or "dwell".
    public var event: String
    /// The fix that decided it, degrees.
    public var latitude: Double?
    public var longitude: Double?
    /// Geodesic distance from the region's centre, metres.
    public var distance: Double

    public init(wall: Double?, region: String, event: String, latitude: Double?, longitude: Double?, distance: Double) {
        self.wall = wall
        self.region = region
        self.event = event
        self.latitude = latitude
        self.longitude = longitude
        self.distance = distance
    }

    /// Where the event leaves the body: "inside" (inside, enter, dwell) or "outside" (outside, exit);
    /// nil for an event it does not know.
    public var state: String? {
        switch event {
        case "inside", "enter", "dwell": return "inside"
        case "outside", "exit": return "outside"
        default: return nil
        }
    }
}
