import GNSS

/// The move from one reported fix to the next, measured along the WGS84 geodesic, with what the
/// receiver's velocity says about it.
///
/// Two pieces of evidence decide whether and which way the receiver moved:
/// - the displacement, significant when `distance` is at least `errorRadius` (the radius that holds
///   95 % of the difference of two fixes that did not move; see `errorRadius`);
/// - the velocity at the leg's end (`velocity`), significant when the speed is at least three
///   times its error (see `GroundVelocity`).
///
/// The direction is the geodesic azimuth when the displacement is significant, else the
/// receiver's course while it is moving (its course is trusted only then); the leg is stationary
/// only when neither the displacement nor the velocity is significant.
///
/// ```swift
/// // A boat at 3 m/s between fixes of ±11 m: 3 m of displacement proves nothing, the speed does.
/// let v = GroundVelocity(speed: 3, speedError: 0.2, course: 75)
/// let leg = Leg(distance: 3, azimuth: 81, errorRadius: 15.6, elapsed: 1, velocity: v)
/// leg.isStationary   // false
/// leg.direction      // 75: the course, as the displacement is within the error
/// ```
public struct Leg: Sendable, Equatable {
    /// Geodesic distance from the previous reported fix, metres.
    public var distance: Double
    /// Initial azimuth at the previous fix toward this one, degrees clockwise from true north,
    /// in [0, 360).
    public var azimuth: Double
    /// The two fixes' combined horizontal error, metres: √(e₁² + e₂²). With each `eph` the 95 %
    /// radius of its fix (as gpsd's are), this is the 95 % radius of the difference of two
    /// independent fixes of a receiver at rest.
    public var errorRadius: Double
    /// Seconds between the two fixes, when both carry a time.
    public var elapsed: Double?
    /// The receiver's velocity at the end of the leg, when the fix carried a speed.
    public var velocity: GroundVelocity?

    public init(distance: Double, azimuth: Double, errorRadius: Double, elapsed: Double? = nil,
                velocity: GroundVelocity? = nil) {
        self.distance = distance
        self.azimuth = azimuth
        self.errorRadius = errorRadius
        self.elapsed = elapsed
        self.velocity = velocity
    }

    /// True when the move is larger than the fixes' combined error (`errorRadius`), so that its
    /// azimuth means something.
    public var isDisplacementSignificant: Bool { distance > 0 && distance >= errorRadius }

    /// True when the receiver's velocity says it is moving (false without a velocity).
    public var isMovingBySpeed: Bool { velocity?.isMoving ?? false }

    /// The direction of travel to show, degrees true: the geodesic azimuth when the displacement is
    /// significant, else the receiver's course while it is moving; nil when neither is known.
    public var direction: Double? {
        if isDisplacementSignificant { return azimuth }
        return velocity?.trustedCourse
    }

    /// Where `direction` came from, nil when there is none.
    public var directionSource: DirectionSource? {
        if isDisplacementSignificant { return .displacement }
        return velocity?.trustedCourse == nil ? nil : .course
    }

    /// True when neither the displacement nor the velocity shows movement: the receiver may well not
    /// have moved, and no direction is given.
    public var isStationary: Bool { !isDisplacementSignificant && !isMovingBySpeed }
}

/// Where a leg's direction came from.
public enum DirectionSource: Sendable, Equatable {
    /// The geodesic azimuth between the two fixes (the move exceeds their error).
    case displacement
    /// The receiver's course over ground (moving, but the move is within the fixes' error).
    case course
}

/// One reported fix: where, how far and which way from the previous report, and the distance
/// travelled so far.
///
/// ```swift
/// if case .report(let r) = tracker.process(fix), let leg = r.leg {
///     print(formatMovement(leg, style: .quadrant(decimals: 0), language: .en))   // "N30°E, moved 12 m"
/// }
/// ```
public struct MovementReport: Sendable, Equatable {
    /// The fix reported.
    public var fix: Fix
    /// 1 for the first report, then 2, 3, …
    public var sequence: Int
    /// The move from the previous report; nil for the first.
    public var leg: Leg?
    /// Distance travelled so far by the tracker's odometer, metres (see `Odometer`): movement,
    /// not position jitter, so it is not always the sum of the legs.
    public var totalDistance: Double
    /// Speed over ground, m/s: the receiver's, else the leg's distance over its time when the leg is
    /// longer than the fixes' error (a shorter one's speed would be the jitter's).
    public var speed: Double?
    /// Course over ground, degrees true: the receiver's while it is moving (below three times the
    /// speed's error a course is noise and left out), else the leg's azimuth when the displacement
    /// is significant, else nil.
    public var course: Double?

    public init(fix: Fix, sequence: Int, leg: Leg?, totalDistance: Double, speed: Double?, course: Double?) {
        self.fix = fix
        self.sequence = sequence
        self.leg = leg
        self.totalDistance = totalDistance
        self.speed = speed
        self.course = course
    }

    /// True when this report shows no movement (false for the first): see `Leg.isStationary`.
    public var isStationary: Bool { leg?.isStationary ?? false }

    /// The direction of travel of the leg, degrees true (see `Leg.direction`); nil for the first.
    public var direction: Double? { leg?.direction }
}

/// What the tracker made of one fix.
public enum TrackOutcome: Sendable, Equatable {
    /// The fix is reported.
    case report(MovementReport)
    /// The fix failed the quality gate.
    case rejected(GateRejection)
    /// The fix is good but lies closer than the distance filter to the last report (metres away).
    case filtered(distance: Double)

    /// The report, when there is one.
    public var report: MovementReport? {
        if case .report(let r) = self { return r }
        return nil
    }
}
