import Glibc

/// The signals a long-running command cares about, delivered as polled events rather than handlers.
///
/// `SignalWatcher` blocks SIGINT, SIGTERM, SIGHUP and SIGWINCH for the process and collects them with
/// `sigtimedwait`, so no code ever runs inside a signal handler and no global state is needed. Create it
/// at the start of a command, before any thread is started, so every thread inherits the mask.
///
/// ```swift
/// let signals = SignalWatcher()
/// while !signals.wait(seconds: 0.05).contains(.stop) { render() }
/// ```
public final class SignalWatcher {
    /// What has arrived since the last poll.
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// SIGINT, SIGTERM or SIGHUP: finish cleanly.
        public static let stop = Events(rawValue: 1)
        /// SIGWINCH: the terminal changed size.
        public static let resize = Events(rawValue: 2)
    }

    private var set = sigset_t()
    private var pendingStop = false

    public init() {
        sigemptyset(&set)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // A reader that goes away (`lodestone watch | head`) must end the program quietly, not kill it.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit { pthread_sigmask(SIG_UNBLOCK, &set, nil) }

    /// Returns (and clears) the events received since the last call. Never blocks.
    public func poll() -> Events { collect(timeout: 0) }

    /// Waits up to `seconds` for a signal, then returns what arrived (possibly nothing).
    @discardableResult
    public func wait(seconds: Double) -> Events { collect(timeout: max(0, seconds)) }

    private func collect(timeout: Double) -> Events {
        var events: Events = pendingStop ? .stop : []
        var info = siginfo_t()
        var wait = timespec(tv_sec: Int(timeout), tv_nsec: Int((timeout - Double(Int(timeout))) * 1e9))
        while true {
            let signal = sigtimedwait(&set, &info, &wait)
            if signal < 0 { break }
            if signal == SIGWINCH { events.insert(.resize) } else { events.insert(.stop); pendingStop = true }
            wait = timespec()   // after the first signal, only drain what is already pending
        }
        return events
    }

    /// True once a stop signal has arrived (sticky).
    public var stopRequested: Bool {
        _ = poll()
        return pendingStop
    }
}
