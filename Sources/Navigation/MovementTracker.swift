import Geodesy
import GNSS

/// Turns a stream of fixes into movement reports: the quality gate first, then the distance
/// filter (report only after moving at least `distanceFilter` metres from the last report), then
/// the geodesic leg from the previous report and the running total.
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
    /// The error in metres assumed for a fix that carries no estimate, for the stationary test.
    public var defaultHorizontalError: Double

    /// The last reported fix.
    public private(set) var lastReported: Fix?
    /// Reports made so far.
    public private(set) var reportCount = 0
    /// Sum of the reported legs, metres.
    public private(set) var totalDistance = 0.0

    public init(gate: QualityGate = QualityGate(), distanceFilter: Double = 0, defaultHorizontalError: Double = 5) {
        self.gate = gate
        self.distanceFilter = distanceFilter.isFinite ? max(0, distanceFilter) : 0
        self.defaultHorizontalError = defaultHorizontalError.isFinite ? max(0, defaultHorizontalError) : 5
    }

    /// Gates, filters and measures one fix.
    public mutating func process(_ fix: Fix) -> TrackOutcome {
        if let why = gate.rejection(of: fix) { return .rejected(why) }
        guard let here = point(of: fix) else { return .rejected(.noPosition) }
        guard let previous = lastReported, let there = point(of: previous) else {
            return record(fix, leg: nil)
        }
        let path = Geodesic.inverse(there, here)
        guard path.distance.isFinite else { return .rejected(.noPosition) }
        if path.distance < distanceFilter { return .filtered(distance: path.distance) }
        let e1 = previous.horizontalError ?? defaultHorizontalError
        let e2 = fix.horizontalError ?? defaultHorizontalError
        var elapsed: Double?
        if let t1 = previous.time, let t2 = fix.time { elapsed = t2 - t1 }
        let leg = Leg(distance: path.distance, azimuth: path.azimuth1,
                      errorRadius: (e1 * e1 + e2 * e2).squareRoot(), elapsed: elapsed)
        return record(fix, leg: leg)
    }

    /// Forgets the last report and the total (for example after a long outage).
    public mutating func reset() {
        lastReported = nil
        reportCount = 0
        totalDistance = 0
    }

    private mutating func record(_ fix: Fix, leg: Leg?) -> TrackOutcome {
        lastReported = fix
        reportCount += 1
        if let leg { totalDistance += leg.distance }
        var speed = fix.speed
        if speed == nil, let leg, let dt = leg.elapsed, dt > 0 { speed = leg.distance / dt }
        var course = fix.course
        if course == nil, let leg, !leg.isStationary { course = leg.azimuth }
        return .report(MovementReport(fix: fix, sequence: reportCount, leg: leg,
                                      totalDistance: totalDistance, speed: speed, course: course))
    }

    private func point(of fix: Fix) -> GeoPoint? {
        guard let lat = fix.lat, let lon = fix.lon else { return nil }
        return try? GeoPoint(latitude: lat, longitude: lon)
    }
}
