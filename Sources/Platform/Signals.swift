import Glibc

/// The signals a long-running command cares about, delivered as polled events rather than handlers.
///
/// `SignalWatcher` blocks SIGINT, SIGTERM, SIGHUP and SIGWINCH for the process and collects them with
/// `sigtimedwait`, so no code ever runs inside a signal handler and no global state is needed. Create it
/// at the start of a command, before any thread is started, so every thread inherits the mask. It has one
/// owner that waits on it (a session's `ControlInbox`): every signal is delivered once.
///
/// ```swift
/// let signals = SignalWatcher()
/// while !signals.wait(seconds: 0.05).contains(.stop) { render() }
/// ```
public final class SignalWatcher: ControlEventSource {
    public typealias Events = ControlEvents

    /// The signals watched: written in `init` only, then passed to the kernel by address at each
    /// wait. Not checked for exclusivity at run time (a check at every update's sleep): it is
    /// private, and no access to it calls back into the watcher.
    @exclusivity(unchecked) private var set = sigset_t()

    public init() {
        sigemptyset(&set)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // A reader that goes away (`lodestone watch | head`) must end the program quietly, not kill it.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit { pthread_sigmask(SIG_UNBLOCK, &set, nil) }

    /// Returns the events received since the last call. Never blocks.
    public func poll() -> Events { collect(timeout: 0) }

    /// Waits up to `seconds` for a signal, then returns what arrived (possibly nothing).
    @discardableResult
    public func wait(seconds: Double) -> Events { collect(timeout: seconds.isFinite ? max(0, seconds) : 0) }

    private func collect(timeout: Double) -> Events {
        var events: Events = []
        var info = siginfo_t()
        var wait = timespec(tv_sec: Int(timeout), tv_nsec: Int((timeout - Double(Int(timeout))) * 1e9))
        while true {
            let signal = sigtimedwait(&set, &info, &wait)
            if signal < 0 { break }
            events.insert(signal == SIGWINCH ? .resize : .stop)
            wait = timespec()   // after the first signal, only drain what is already pending
        }
        return events
    }
}
