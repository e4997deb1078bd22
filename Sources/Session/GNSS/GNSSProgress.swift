import GNSS

/// What every loop that reads fixes says and remembers along the way (`track`, `goto`, `regions`):
/// each change of the source's state, once, on stderr; whether the source was ever reached (a run
/// that ends without ever reaching it fails with the source's own error); and why fixes are being
/// ignored, at most every 10 s.
///
/// ```swift
/// var progress = GNSSProgress()
/// let update = source.take(now: now)
/// progress.observe(update, source: source, runtime: runtime)
/// if let why = gate.rejection(of: fix) { progress.ignoring(why, now: now, runtime: runtime) }
/// ```
struct GNSSProgress {
    /// True once the source has been connected.
    private(set) var everConnected = false
    private var lastState: GNSSState?
    private var lastRejectionNote = -Double.infinity

    /// Says each new state of `update` on stderr and notes a connection.
    mutating func observe(_ update: GNSSUpdate, source: any GNSSSource, runtime: Runtime) {
        for state in update.stateChanges where state != lastState {
            lastState = state
            if state.isConnected { everConnected = true }
            runtime.say(describe(state, source: source))
        }
        if update.state.isConnected { everConnected = true }
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
