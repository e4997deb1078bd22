import Geodesy
import GNSS

/// Turns a stream of fixes into movement reports: the quality gate first, then the odometer (every
/// accepted fix), then the distance filter (report only once at least `distanceFilter` metres from
/// the last *reported* fix, as CoreLocation's `distanceFilter`; 0 reports every accepted fix), then
/// the geodesic leg from the last report, judged with the receiver's velocity.
///
/// The rules, with their reasons in `Leg`, `GroundVelocity` and `Odometer`:
/// - **Moving or still** comes from the receiver's Doppler speed when the fix has one: moving when
///   the speed is at least 3 × its error (0.6 m/s without `eps`); the displacement against the
///   fixes' combined error only adds to that (and decides alone for receivers without a speed).
/// - **Direction**: the geodesic azimuth when the displacement exceeds the combined error, else
///   the receiver's course while it is moving; "stationary" only when neither shows movement.
/// - **Total** (`totalDistance`): the odometer, which integrates significant speed between fixes
///   and ignores jitter, so a receiver at rest adds nothing.
///
/// ```swift
/// var tracker = MovementTracker(gate: QualityGate(minimumMode: .threeD), distanceFilter: 5)
/// for fix in fixes {
///     if let report = tracker.process(fix).report { show(report) }
/// }
/// ```
public struct MovementTracker: Sendable {
    /// The fixes accepted.
    public var gate: QualityGate
    /// Minimum distance in metres from the last reported fix before the next is reported; 0
    /// reports every accepted fix.
    public var distanceFilter: Double
    /// The error in metres assumed for a fix that carries no estimate, for the displacement test.
    public var defaultHorizontalError: Double {
        didSet { odometer.defaultHorizontalError = defaultHorizontalError }
    }
    /// The 1σ speed error in m/s assumed for a fix without `eps`, and the most any `eps` is taken
    /// to mean (see `GroundVelocity`).
    public var defaultSpeedError: Double {
        didSet { odometer.defaultSpeedError = defaultSpeedError }
    }

    /// The last reported fix.
    public private(set) var lastReported: Fix?
    /// Reports made so far.
    public private(set) var reportCount = 0
    /// The distance travelled, fed every accepted fix (reported or filtered).
    public private(set) var odometer: Odometer

    /// Distance travelled so far, metres: `odometer.total`.
    public var totalDistance: Double { odometer.total }

    public init(gate: QualityGate = QualityGate(), distanceFilter: Double = 0, defaultHorizontalError: Double = 5,
                defaultSpeedError: Double = GroundVelocity.defaultSpeedError) {
        self.gate = gate
        self.distanceFilter = distanceFilter.isFinite ? max(0, distanceFilter) : 0
        self.defaultHorizontalError = defaultHorizontalError.isFinite ? max(0, defaultHorizontalError) : 5
        self.defaultSpeedError = defaultSpeedError.isFinite && defaultSpeedError > 0
            ? defaultSpeedError : GroundVelocity.defaultSpeedError
        odometer = Odometer(defaultHorizontalError: self.defaultHorizontalError, defaultSpeedError: self.defaultSpeedError)
    }

    /// Gates, counts, filters and measures one fix.
    public mutating func process(_ fix: Fix) -> TrackOutcome {
        if let why = gate.rejection(of: fix) { return .rejected(why) }
        guard point(fix) != nil else { return .rejected(.noPosition) }
        odometer.add(fix)
        guard let previous = lastReported, point(previous) != nil else {
            return record(fix, leg: nil)
        }
        guard let leg = Leg(from: previous, to: fix, defaultHorizontalError: defaultHorizontalError,
                            defaultSpeedError: defaultSpeedError)
        else { return .rejected(.noPosition) }
        if leg.distance < distanceFilter { return .filtered(distance: leg.distance) }
        return record(fix, leg: leg)
    }

    /// Forgets the last report and the total (for example after a long outage).
    public mutating func reset() {
        lastReported = nil
        reportCount = 0
        odometer.reset()
    }

    private mutating func record(_ fix: Fix, leg: Leg?) -> TrackOutcome {
        lastReported = fix
        reportCount += 1
        var speed = fix.speed
        if speed == nil, let leg, leg.isDisplacementSignificant, let dt = leg.elapsed, dt > 0 { speed = leg.distance / dt }
        var course = GroundVelocity(fix: fix, defaultSpeedError: defaultSpeedError)?.trustedCourse
        if course == nil, let leg, leg.isDisplacementSignificant { course = leg.azimuth }
        return .report(MovementReport(fix: fix, sequence: reportCount, leg: leg,
                                      totalDistance: totalDistance, speed: speed, course: course))
    }
}

extension Leg {
    /// The leg from one fix to the next: the geodesic between them, the two fixes' combined error,
    /// the time between them, and the later fix's velocity (so `direction` and `isStationary`
    /// follow the movement rules). nil when either has no position.
    ///
    /// ```swift
    /// if let leg = Leg(from: previous, to: fix) { print(formatMovement(leg)) }
    /// ```
    public init?(from previous: Fix, to fix: Fix, defaultHorizontalError: Double = 5,
                 defaultSpeedError: Double = GroundVelocity.defaultSpeedError) {
        guard let there = point(previous), let here = point(fix) else { return nil }
        let path = Geodesic.inverse(there, here)
        guard path.distance.isFinite else { return nil }
        var elapsed: Double?
        if let t1 = previous.time, let t2 = fix.time { elapsed = t2 - t1 }
        self.init(distance: path.distance, azimuth: path.azimuth1,
                  errorRadius: combinedError(previous, fix, default: defaultHorizontalError), elapsed: elapsed,
                  velocity: GroundVelocity(fix: fix, defaultSpeedError: defaultSpeedError))
    }
}
