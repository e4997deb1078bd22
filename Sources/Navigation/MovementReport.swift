import GNSS

/// The move from one reported fix to the next, measured along the WGS84 geodesic.
public struct Leg: Sendable, Equatable {
    /// Geodesic distance from the previous reported fix, metres.
    public var distance: Double
    /// Initial azimuth at the previous fix toward this one, degrees clockwise from true north,
    /// in [0, 360).
    public var azimuth: Double
    /// The two fixes' combined horizontal error, metres: √(e₁² + e₂²).
    public var errorRadius: Double
    /// Seconds between the two fixes, when both carry a time.
    public var elapsed: Double?

    public init(distance: Double, azimuth: Double, errorRadius: Double, elapsed: Double? = nil) {
        self.distance = distance
        self.azimuth = azimuth
        self.errorRadius = errorRadius
        self.elapsed = elapsed
    }

    /// True when the move is smaller than the fixes' combined error: the direction means nothing
    /// and the receiver may well not have moved.
    public var isStationary: Bool { distance < errorRadius }
}

/// One reported fix: where, how far and which way from the previous report, and the total so far.
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
    /// Sum of all legs so far, metres.
    public var totalDistance: Double
    /// Speed over ground, m/s: the receiver's, else the leg's distance over its time.
    public var speed: Double?
    /// Course over ground, degrees true: the receiver's, else the leg's azimuth when it is not
    /// stationary.
    public var course: Double?

    public init(fix: Fix, sequence: Int, leg: Leg?, totalDistance: Double, speed: Double?, course: Double?) {
        self.fix = fix
        self.sequence = sequence
        self.leg = leg
        self.totalDistance = totalDistance
        self.speed = speed
        self.course = course
    }

    /// True when this report moved less than the fixes' combined error (false for the first).
    public var isStationary: Bool { leg?.isStationary ?? false }
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
