/// Whether a fix's time can be trusted beside the system clock: a receiver (or a gpsd) whose time
/// is more than a day from the system's (a week-number rollover gives 19.6 years, a hostile gpsd
/// anything), or whose time goes backwards, is flagged rather than believed.
///
/// ```swift
/// var check = FixTimeCheck()
/// if let problem = check.check(fixTime: fix.time, systemWall: time.wall()) { say(problem.description) }
/// ```
public struct FixTimeCheck: Sendable {
    /// How far a fix's time may be from the system clock: a day (a Pi without a real-time clock
    /// and without a network keeps its last shutdown time, which can be hours off; years off is
    /// a receiver's fault).
    public static let maximumOffset = 86_400.0

    public enum Problem: Sendable, Equatable, CustomStringConvertible {
        /// The fix's time is this many seconds from the system clock (positive: ahead).
        case farFromClock(offset: Double)
        /// The fix's time is this many seconds before the previous fix's.
        case backwards(by: Double)

        /// The log's flag for a row carrying such a fix.
        public var flag: String {
            switch self {
            case .farFromClock: return "gnssTimeOff"
            case .backwards: return "gnssTimeBackwards"
            }
        }

        /// What is wrong, in a few words (the dashboard's line).
        public var summary: String {
            switch self {
            case .farFromClock(let offset):
                let days = abs(offset) / 86_400
                let amount = days >= 365 ? "\(Int((days / 365.25).rounded())) years" : "\(Int(days.rounded())) days"
                return "the receiver's time is \(amount) \(offset > 0 ? "ahead of" : "behind") the system clock"
            case .backwards(let by):
                return "the receiver's time went back \(by < 1 ? "less than a second" : "\(Int(by.rounded())) s")"
            }
        }

        public var description: String {
            switch self {
            case .farFromClock:
                return summary + ": rows keep the system's time (check the receiver, or the system clock if it has never been set)"
            case .backwards:
                return summary + ": rows keep the system's time"
            }
        }
    }

    private var lastTime: Double?

    public init() {}

    /// Checks a fix's time (nil: nothing to check) against the system's wall clock.
    public mutating func check(fixTime: Double?, systemWall: Double) -> Problem? {
        guard let fixTime, fixTime.isFinite else { return nil }
        defer { if let lastTime { self.lastTime = max(lastTime, fixTime) } else { lastTime = fixTime } }
        // Far from the clock says more than "backwards" when a time is both.
        let offset = fixTime - systemWall
        if abs(offset) > Self.maximumOffset { return .farFromClock(offset: offset) }
        if let lastTime, fixTime < lastTime { return .backwards(by: lastTime - fixTime) }
        return nil
    }
}
