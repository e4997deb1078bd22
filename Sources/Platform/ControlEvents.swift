/// What can interrupt a long-running session from outside: a request to stop (SIGINT, SIGTERM,
/// SIGHUP) and a terminal resize (SIGWINCH).
public struct ControlEvents: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Finish cleanly.
    public static let stop = ControlEvents(rawValue: 1)
    /// The terminal changed size: redraw.
    public static let resize = ControlEvents(rawValue: 2)
}

/// A source of control events that a session waits on. Waiting is also how a session lets time
/// pass: `SignalWatcher` blocks in `sigtimedwait`; a test's scripted source advances a manual clock.
/// Each event is delivered once, to the one owner that waits on the source.
///
/// ```swift
/// let events: any ControlEventSource = SignalWatcher()
/// if events.wait(seconds: 0.05).contains(.stop) { finish() }
/// ```
public protocol ControlEventSource: AnyObject {
    /// Waits up to `seconds` (0: not at all) and returns the events that arrived meanwhile.
    func wait(seconds: Double) -> ControlEvents
}

/// Somewhere text goes: standard output, standard error, or a test's buffer.
///
/// ```swift
/// let out: any TextOutput = StandardOutput()
/// guard out.write("123.4° SE\n") else { return }   // false: the reader went away
/// ```
public protocol TextOutput: AnyObject {
    /// Writes the text whole; false when the reader has gone away.
    @discardableResult
    func write(_ text: String) -> Bool
}

/// A terminal a session can draw on and read single keys from.
public protocol KeyboardTerminal: AnyObject {
    /// Columns and rows, or nil when unknown.
    func size() -> (columns: Int, rows: Int)?
    /// Switches to reading single keys without echo.
    func enableKeyInput()
    /// Restores the mode `enableKeyInput` changed.
    func restoreInputMode()
    /// The keys waiting now (never blocks).
    func readKeys() -> [UInt8]
}
