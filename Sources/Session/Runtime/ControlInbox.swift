import Platform

/// The one owner of a session's control events. Everything that waits (the sensor reader between
/// samples, the frame pacing, prompts) waits through it, so no signal is lost to a second reader, and
/// reading `stopRequested` never consumes a resize.
///
/// ```swift
/// let inbox = ControlInbox(runtime.events)
/// while !inbox.stopRequested {
///     step()
///     inbox.wait(seconds: 0.05)
///     if inbox.takeResize() { redraw() }
/// }
/// ```
public final class ControlInbox {
    private let source: any ControlEventSource
    // The flags are not checked for exclusivity at run time (the loop reads `stopRequested` at every
    // update): plain values, set only here by code that calls nothing while it sets them.
    /// True once a stop has arrived (sticky).
    @exclusivity(unchecked) public private(set) var stopRequested = false
    @exclusivity(unchecked) private var resizePending = false
    /// True when a wait (or poll) took the events since the last `refresh`.
    @exclusivity(unchecked) private var takenSinceRefresh = false

    public init(_ source: any ControlEventSource) { self.source = source }

    /// Waits up to `seconds` for events and keeps what arrives.
    public func wait(seconds: Double) {
        keep(source.wait(seconds: seconds.isFinite ? max(0, seconds) : 0))
    }

    /// Takes what has arrived without waiting.
    public func poll() { keep(source.wait(seconds: 0)) }

    /// Takes what has arrived without waiting, unless a wait or poll since the last `refresh` already
    /// took it (each takes every event pending when it returns): a loop that waits through the inbox
    /// at every step pays no system call for its regular check. Why: at 50 updates a second, each
    /// redundant `sigtimedwait` cost as much as a small piece of an update's work.
    public func refresh() {
        if !takenSinceRefresh { poll() }
        takenSinceRefresh = false
    }

    /// True (once) when the terminal was resized since the last call.
    public func takeResize() -> Bool {
        defer { resizePending = false }
        return resizePending
    }

    private func keep(_ events: ControlEvents) {
        takenSinceRefresh = true
        if events.contains(.stop) { stopRequested = true }
        if events.contains(.resize) { resizePending = true }
    }
}
