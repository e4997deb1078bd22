import GNSS
import Navigation
import Platform

/// What every command that reads fixes says and remembers while it waits and runs (`where`,
/// `track`, `goto`, `regions`): each change of the source's state, once, on stderr; what it waits
/// for, once the first good fix is late; why fixes are ignored, at most every 10 s; and the one
/// rule for giving up on the first fix:
/// - a source never reached (gpsd refused the connection, closed it, or is not gpsd) ends the
///   command after `refusedGrace` seconds (exit 69), whatever the timeout;
/// - a reached source without a good fix waits up to `timeout` (nil: no limit), then ends with
///   what it saw (no receiver, no fix, fixes too poor; exit 69).
///
/// ```swift
/// var progress = GNSSProgress(gate: gate, timeout: 30)
/// let update = source.take(now: now)
/// let fix = progress.observe(update, now: now, source: source, runtime: runtime)
/// try progress.check(now: now, source: source, runtime: runtime)
/// ```
public struct GNSSProgress {
    /// How long a source that was never reached is retried before the command gives up, seconds.
    public static let refusedGrace = 3.0
    /// How long a reached source without a good fix is waited for before "waiting for a fix …"
    /// is said, seconds.
    static let sayWaitingAfter = 1.5

    /// The longest wait for the first good fix, seconds; nil: no limit.
    var timeout: Double?
    /// Say each state change (the live commands); false: only the wait, with the state then
    /// (`where`, which prints one fix and is quiet when it comes at once).
    var saysStates = true
    /// True once the source has been connected.
    private(set) var everConnected = false
    /// True once a fix has passed the gate.
    private(set) var found = false
    private var search: FixSearch
    private var started: Double?
    private var saidWaiting = false
    private var lastState: GNSSState?
    private var lastRejectionNote = -Double.infinity

    init(gate: QualityGate = QualityGate(), timeout: Double? = nil, saysStates: Bool = true) {
        search = FixSearch(gate: gate)
        self.timeout = timeout
        self.saysStates = saysStates
    }

    /// Says each new state of `update` on stderr, notes a connection and what was seen; returns
    /// the first fix of the update that passes the gate.
    @discardableResult
    mutating func observe(_ update: GNSSUpdate, now: Double, source: any GNSSSource, runtime: Runtime) -> Fix? {
        if started == nil { started = now }
        for state in update.stateChanges where state != lastState {
            lastState = state
            if state.isConnected { everConnected = true }
            // Before the source was ever reached, its error is the failure `check` ends with.
            if case .disconnected = state, !everConnected { continue }
            if !saysStates { continue }
            runtime.say(describe(state, source: source))
        }
        if update.state.isConnected { everConnected = true }
        let fix = search.observe(update)
        if fix != nil { found = true }
        return fix
    }

    /// Ends the wait for the first good fix when it is over (see the type): throws what was seen.
    mutating func check(now: Double, source: any GNSSSource, runtime: Runtime) throws(NoFixFailure) {
        guard !found else { return }
        let start = started ?? now
        if started == nil { started = now }
        let waited = now - start
        if !search.connected, search.lastError != nil, waited >= Self.refusedGrace {
            throw NoFixFailure(search.failure(afterSeconds: waited))
        }
        if let timeout, waited >= timeout {
            throw NoFixFailure(search.failure(afterSeconds: waited))
        }
        if !saidWaiting, waited >= Self.sayWaitingAfter {
            saidWaiting = true
            runtime.say(waitingText(source: source))
        }
    }

    /// "waiting for a 3D fix with a horizontal error of at most 10 m from gpsd at …, up to 30 s (--timeout)".
    func waitingText(source: any GNSSSource) -> String {
        var what = "waiting for a " + (search.gate.minimumMode == .threeD ? "3D fix" : "fix")
        if let limit = search.gate.maximumHorizontalError {
            what += " with a horizontal error of at most " + plain(limit) + " m"
        }
        what += " from " + source.name
        if !saysStates, let lastState, lastState.isConnected { what += " (" + describe(lastState, source: source) + ")" }
        if let timeout { what += ", up to " + plain(timeout) + " s (--timeout)" }
        else { what += " (no time limit; --timeout S sets one)" }
        return what
    }

    /// What was seen, for a wait cut short (a stop signal) at `now`.
    func failure(at now: Double) -> NoFixFailure {
        NoFixFailure(search.failure(afterSeconds: now - (started ?? now)))
    }

    /// Says why fixes are ignored, at most every 10 s (monotonic `now`).
    mutating func ignoring(_ why: some CustomStringConvertible, now: Double, runtime: Runtime) {
        guard now - lastRejectionNote >= 10 else { return }
        lastRejectionNote = now
        runtime.say("ignoring fixes (\(why)); see --accuracy and --min-mode")
    }

    /// At the end of a run: the source's error when it was never reached.
    func failure(of update: GNSSUpdate) -> GNSSError? {
        guard !everConnected, case .disconnected(let error) = update.state else { return nil }
        return error
    }
}

/// No good enough fix in time, or a source never reached: what was seen. Exit 69.
public struct NoFixFailure: UserFacingError {
    public var reason: FixSearchFailure
    public init(_ reason: FixSearchFailure) { self.reason = reason }
    public var message: String { reason.message }
    public var exitCode: ExitCode { .unavailable }
}
