/// Whether the deviation card is used.
public enum DeviationMode: String, Sendable, Hashable, CaseIterable {
    /// Neither learned nor applied.
    case off
    /// Applied to the heading, never changed.
    case apply
    /// Learned from GNSS course while travelling straight, and applied.
    case learn
}

/// A GNSS course over ground, for learning the deviation card.
///
/// ```swift
/// let obs = CourseObservation(monotonic: clock, course: fix.track, courseError: fix.epd, speed: fix.speed)
/// let result = filter.observeCourse(obs)
/// ```
public struct CourseObservation: Sendable, Hashable {
    /// Monotonic time of the fix (same clock as the samples), seconds.
    public var monotonic: Double
    /// Course over ground, degrees true.
    public var course: Double
    /// 1σ course error, degrees (gpsd `epd`); nil when unknown, which is never learned from.
    public var courseError: Double?
    /// Ground speed, m/s.
    public var speed: Double

    public init(monotonic: Double, course: Double, courseError: Double?, speed: Double) {
        self.monotonic = monotonic
        self.course = course
        self.courseError = courseError
        self.speed = speed
    }
}

/// The gates a course must pass before it teaches the card.
public struct DeviationLearning: Sendable, Hashable {
    /// Minimum ground speed, m/s (course is noise when slow).
    public var minimumSpeed: Double = 2
    /// Maximum course error, degrees.
    public var maximumCourseError: Double = 5
    /// Maximum turn rate of the compass, degrees/s (steady course only).
    public var maximumTurnRate: Double = 3
    /// Maximum |deviation| accepted, degrees (bigger means reversing, drifting or crabbing).
    public var maximumDeviation: Double = 30
    /// Maximum time between the course and the latest heading, seconds.
    public var maximumAge: Double = 0.5

    public init() {}
}

/// What happened to a course observation.
public enum DeviationLearningResult: Sendable, Hashable {
    /// Learned: the sector and the deviation (degrees) added.
    case learned(sector: Int, deviation: Double)
    /// Not learned, and why.
    case rejected(DeviationRejection)
}

/// Why a course observation was not learned.
public enum DeviationRejection: String, Sendable, Hashable {
    case notLearning, invalid, tooSlow, courseErrorUnknown, courseErrorTooLarge, noHeading, tooOld
    case turning, noDeclination, disturbed, outlier
    /// `--refine`: the calibration is not settled (not yet converged, or a change is being confirmed): the
    /// card would learn the hard-iron error the refinement is about to remove.
    case calibrationUnsettled
}
