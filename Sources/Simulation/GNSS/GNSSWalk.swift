import Geodesy
import Glibc
import GNSS
import Linear

/// How the simulated receiver moves and errs.
///
/// ```swift
/// var settings = GNSSWalkSettings(motion: .drive)
/// settings.horizontalError = 5
/// ```
public struct GNSSWalkSettings: Sendable, Equatable {
    /// On foot or in a car.
    public enum Motion: Sendable, Equatable {
        /// About 1.4 m/s, wandering within ~300 m.
        case walk
        /// About 12 m/s, wandering within ~3 km.
        case drive
    }

    /// The default place: Sydney, −33.8694, 151.1990.
    public static let defaultOrigin = (latitude: -33.8694, longitude: 151.1990)

    public var originLatitude = GNSSWalkSettings.defaultOrigin.latitude
    public var originLongitude = GNSSWalkSettings.defaultOrigin.longitude
    public var motion: Motion
    /// Unix time of the first fix.
    public var startTime: Double
    /// Typical reported `eph`, metres; the simulated position error is scaled to match it.
    public var horizontalError = 3.0
    /// Correlation time of the position error, seconds (GNSS errors drift slowly).
    public var errorCorrelationSeconds = 30.0
    /// Chance per second of stopping for a while (traffic lights, a look around).
    public var pauseChancePerSecond = 1.0 / 90
    /// Length of a pause, seconds.
    public var pauseSeconds: ClosedRange<Double> = 5...20
    /// Seconds between fixes.
    public var interval = 1.0

    public init(motion: Motion = .walk, startTime: Double = 1_767_225_600) {
        self.motion = motion
        self.startTime = startTime
    }

    var cruiseSpeed: Double { motion == .walk ? 1.4 : 12 }
    var roamRadius: Double { motion == .walk ? 300 : 3000 }
    var headingWander: Double { motion == .walk ? 8 : 3 }
}

/// A simulated receiver's track: a walk or drive around the origin with a slowly drifting,
/// correlated position error, 1 Hz fixes and occasional pauses. Deterministic for a seed, so tests
/// replay it exactly; `SimulatedGNSSSource` paces it in real time.
///
/// ```swift
/// var walk = GNSSWalk(settings: GNSSWalkSettings(), seed: 7)
/// let first = walk.next()            // Fix at startTime
/// let minute = walk.next(count: 60)  // the following minute
/// ```
public struct GNSSWalk: Sendable {
    public let settings: GNSSWalkSettings
    /// The true latitude (without error) of the last fix produced, degrees.
    public internal(set) var trueLatitude: Double
    /// The true longitude (without error) of the last fix produced, degrees.
    public internal(set) var trueLongitude: Double
    /// The true speed (m/s) of the last fix produced.
    public internal(set) var trueSpeed = 0.0
    /// Fixes produced so far.
    public internal(set) var count = 0

    var rng: SplitMix64
    var heading: Double
    var pauseLeft = 0.0
    var errorNorth = 0.0
    var errorEast = 0.0
    var errorUp = 0.0
    var ephDrift = 0.0
    let homeLatitude: Double
    let homeLongitude: Double
    /// When set, the true motion follows it (time since the first fix → course and speed) instead of
    /// wandering: the receiver then moves with a simulated vehicle.
    let steering: (@Sendable (Double) -> GroundTrack)?

    public init(settings: GNSSWalkSettings = GNSSWalkSettings(), seed: UInt64 = 1,
                steering: (@Sendable (Double) -> GroundTrack)? = nil) {
        self.settings = settings
        self.steering = steering
        rng = SplitMix64(seed: seed)
        let lat = settings.originLatitude.isFinite ? min(89, max(-89, settings.originLatitude)) : -33.8694
        let lon = settings.originLongitude.isFinite ? settings.originLongitude : 151.1990
        trueLatitude = lat
        trueLongitude = lon
        homeLatitude = lat
        homeLongitude = lon
        heading = rng.nextUnit() * 360
        // Start the error process in its steady state rather than at zero.
        let sigma = positionSigma
        errorNorth = rng.nextGaussian() * sigma
        errorEast = rng.nextGaussian() * sigma
        errorUp = rng.nextGaussian() * sigma * 1.5
    }

    /// Standard deviation of each horizontal error component, metres (≈95 % of fixes lie within eph).
    var positionSigma: Double { max(0.1, settings.horizontalError) / 2.45 }

    /// The next `count` fixes.
    public mutating func next(count: Int) -> [Fix] {
        (0..<max(0, count)).map { _ in next() }
    }

    /// The next fix (the first one is at `settings.startTime`).
    public mutating func next() -> Fix {
        let dt = settings.interval > 0 && settings.interval.isFinite ? settings.interval : 1
        if count > 0 { advance(dt) }
        updateError(dt)
        let fix = makeFix(time: settings.startTime + Double(count) * dt)
        count += 1
        return fix
    }
}
