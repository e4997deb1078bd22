import GNSS
import Platform

/// Where a session's fixes meet the system clock (`regions`, `goto`, and the live commands' log):
/// a fix whose time is more than a day from the system clock, or goes backwards
/// (`FixTimeCheck`), is said once on stderr and flagged; rows are stamped with the system's time
/// when the system clock is synchronised, or when the fix's time is not to be trusted, and with
/// the receiver's time only otherwise (a Pi without network or real-time clock).
///
/// ```swift
/// var times = FixTimes(time: runtime.time)
/// let observed = times.observe(fix, receivedAt: receivedAt, say: runtime.say)
/// row.time = observed.stamp
/// ```
struct FixTimes {
    private var check = FixTimeCheck()
    private var said: Set<String> = []
    let time: any TimeSource

    init(time: any TimeSource) { self.time = time }

    /// The time to stamp `fix`'s rows with (nil when there is none), and what is wrong with its time.
    mutating func observe(_ fix: Fix, receivedAt: Double, say: (String) -> Void) -> (stamp: Double?, problem: FixTimeCheck.Problem?) {
        let wallNow = time.wall()
        let receivedWall = wallNow - max(0, time.monotonic() - receivedAt)
        let problem = check.check(fixTime: fix.time, systemWall: receivedWall)
        if let problem, said.insert(problem.flag).inserted { say(problem.description) }
        if problem != nil || time.wallIsSynchronised == true { return (fix.time == nil ? nil : receivedWall, problem) }
        return (fix.time, nil)
    }
}

/// Has a live session (`log`, `serve`, piped `watch`) say on stderr when a receiver's time cannot
/// be trusted: once for a time more than a day from the system clock, once for one going backwards.
func sayFixTimeProblems(_ live: LiveSession, runtime: Runtime) {
    live.onFixTimeProblem { runtime.say($0) }
}
