import Geodesy
import GNSS
import Heading
import Linear
import Navigation
import Places

/// The vehicle's motion along and across its ground track, from two consecutive fixes: what the
/// gyro-aided attitude subtracts from the accelerometer (`HeadingPipeline.observeGroundTrack`).
public struct GroundTrackMotion: Sendable, Equatable {
    /// Speed over ground, m/s.
    public var speed: Double
    /// Its rate of change, m/s².
    public var speedRate: Double
    /// The course's rate of change, degrees per second.
    public var courseRate: Double
    /// When the fix arrived (monotonic seconds).
    public var monotonic: Double
}

/// What one fix means for a live session, as a value: the position for the declination, the
/// movement report (or why there is none), the region events, the ground-track motion, and the
/// course observation for the deviation learner. `LiveSession` applies it to its pipeline.
public struct FixOutcome: Sendable {
    /// The fix it came from.
    public var received: ReceivedFix
    /// The position the declination is taken at (nil: the fix has none).
    public var position: (latitude: Double, longitude: Double)?
    /// The movement tracker's verdict on the fix.
    public var movement: TrackOutcome
    /// Region events (`--region`) with their region's name, in order.
    public var regionEvents: [(event: RegionEvent, name: String)] = []
    /// The vehicle's acceleration over the ground (nil: not moving, or the previous fix too old).
    public var groundTrack: GroundTrackMotion?
    /// A course observation for the deviation learner (nil unless learning is asked for and the fix has a course and speed).
    public var course: CourseObservation?

    /// The movement report the fix made, if any.
    public var report: MovementReport? { if case .report(let r) = movement { return r } else { return nil } }
}

/// The per-fix stage of a live session: one fix in, one `FixOutcome` out. It owns the movement
/// tracker, the region monitor and the previous ground-track point; it knows nothing of the
/// pipeline, the sinks or the screen.
///
/// ```swift
/// var stage = FixStage(distanceFilter: 5, learnsDeviation: false)
/// let outcome = stage.process(ReceivedFix(fix: fix, receivedAt: now))
/// if let p = outcome.position { pipeline.updateFix(latitude: p.latitude, longitude: p.longitude) }
/// ```
public struct FixStage: Sendable {
    public private(set) var tracker: MovementTracker
    public var regionMonitor: RegionMonitor?
    public let learnsDeviation: Bool
    /// The last fix with a speed and course, for the rates of change.
    private var lastGroundTrack: (time: Double, speed: Double, course: Double)?

    public init(distanceFilter: Double, learnsDeviation: Bool, regions: [Region] = []) {
        tracker = MovementTracker(gate: QualityGate(), distanceFilter: distanceFilter)
        self.learnsDeviation = learnsDeviation
        regionMonitor = regions.isEmpty ? nil : RegionMonitor(regions: regions)
    }

    /// Everything one fix means. A fix without a position changes nothing but the ground track.
    public mutating func process(_ received: ReceivedFix) -> FixOutcome {
        let fix = received.fix
        guard fix.hasPosition, let lat = fix.lat, let lon = fix.lon else {
            return FixOutcome(received: received, position: nil, movement: .rejected(.noPosition))
        }
        var outcome = FixOutcome(received: received, position: (lat, lon), movement: tracker.process(fix))
        if regionMonitor != nil, let point = try? GeoPoint(latitude: lat, longitude: lon),
           let events = regionMonitor?.update(at: point, horizontalError: fix.horizontalError, time: received.receivedAt) {
            outcome.regionEvents = events.map { ($0, regionMonitor?.regions[$0.region].name ?? "") }
        }
        outcome.groundTrack = groundTrack(fix, receivedAt: received.receivedAt)
        if learnsDeviation, let course = fix.course, let speed = fix.speed {
            outcome.course = CourseObservation(monotonic: received.receivedAt, course: course, courseError: fix.epd, speed: speed)
        }
        return outcome
    }

    /// Forgets the movement track (the dashboard's r key).
    public mutating func resetTrack() { tracker.reset() }

    /// Speed and course from consecutive fixes give the vehicle's acceleration along and across its
    /// track. Only while moving (below 1 m/s a course is noise) and for fixes at most 5 s apart.
    private mutating func groundTrack(_ fix: Fix, receivedAt: Double) -> GroundTrackMotion? {
        guard let time = fix.time, let speed = fix.speed, let course = fix.course, speed.isFinite, course.isFinite else {
            lastGroundTrack = nil
            return nil
        }
        defer { lastGroundTrack = (time, speed, course) }
        guard let previous = lastGroundTrack, speed >= 1, previous.speed >= 1 else { return nil }
        let dt = time - previous.time
        guard dt > 0, dt <= 5 else { return nil }
        return GroundTrackMotion(speed: speed, speedRate: (speed - previous.speed) / dt,
                                 courseRate: angleDifference(course, previous.course) / dt, monotonic: receivedAt)
    }
}
