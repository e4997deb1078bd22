import Platform

/// Control events on a manual clock: waiting advances the clock (to the next scheduled event, or by
/// the time asked for) and delivers the events that are due, so a whole session runs in simulated
/// time without sleeping.
///
/// ```swift
/// let clock = ManualClock()
/// let events = ScriptedEvents(clock: clock)
/// events.schedule(.stop, at: 3)   // SIGTERM three simulated seconds in
/// ```
public final class ScriptedEvents: ControlEventSource {
    public let clock: ManualClock
    private var script: [(time: Double, events: ControlEvents)] = []
    /// How many times the session waited, and the longest single wait asked for.
    public private(set) var waits = 0
    public private(set) var longestWait = 0.0
    /// A stop delivered after this much simulated time even when none is scheduled, so a session
    /// that never ends on its own cannot hang a test.
    public var deadline: Double

    /// While set, a wait first waits in real time for it to hold (see `hold(until:)`).
    private var held: (condition: () -> Bool, timeout: Double)?

    public init(clock: ManualClock, deadline: Double = 3600) {
        self.clock = clock
        self.deadline = deadline
    }

    /// Keeps the clock where it is until `condition` holds (waiting in real time, at most `timeout`
    /// seconds), then lets it run as before. For a session whose source is a real thread (the gpsd
    /// client on a socket): the manual clock then cannot run ahead of what that thread delivers.
    public func hold(until condition: @escaping () -> Bool, timeout: Double = 30) {
        held = (condition, timeout)
    }

    /// Delivers `events` when the clock reaches `time`.
    public func schedule(_ events: ControlEvents, at time: Double) {
        script.append((time, events))
        script.sort { $0.time < $1.time }
    }

    public func wait(seconds: Double) -> ControlEvents {
        if let (condition, timeout) = held {
            let end = Clock.monotonic() + timeout
            while !condition() && Clock.monotonic() < end { Clock.sleep(seconds: 0.001) }
            held = nil
        }
        waits += 1
        let asked = seconds.isFinite ? max(0, seconds) : 0
        longestWait = max(longestWait, asked)
        let now = clock.now()
        var target = now + asked
        if let next = script.first?.time, next < target { target = max(now, next) }
        clock.advance(to: target)
        var due: ControlEvents = []
        while let first = script.first, first.time <= clock.now() {
            due.formUnion(first.events)
            script.removeFirst()
        }
        if clock.now() >= deadline { due.insert(.stop) }
        return due
    }
}

/// Text written by a session, kept for the test to read.
///
/// ```swift
/// let out = CapturedOutput()
/// out.write("hello\n")
/// out.lines   // ["hello"]
/// ```
public final class CapturedOutput: TextOutput {
    public private(set) var text = ""
    /// After this many writes the reader "goes away": writes fail (as a closed pipe).
    public var closesAfterWrites: Int?
    public private(set) var writes = 0

    public init(closesAfterWrites: Int? = nil) { self.closesAfterWrites = closesAfterWrites }

    @discardableResult
    public func write(_ text: String) -> Bool {
        if let limit = closesAfterWrites, writes >= limit { return false }
        writes += 1
        self.text += text
        return true
    }

    /// The complete lines written so far.
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// A terminal for dashboard tests: a fixed size and scripted keys, delivered on the manual clock.
public final class FakeTerminal: KeyboardTerminal {
    public var columns: Int
    public var rows: Int
    private let clock: ManualClock
    private var keys: [(time: Double, bytes: [UInt8])] = []
    public private(set) var keyInputEnabled = false
    public private(set) var restored = false

    public init(columns: Int = 80, rows: Int = 24, clock: ManualClock) {
        self.columns = columns
        self.rows = rows
        self.clock = clock
    }

    /// Types `text` when the clock reaches `time`.
    public func type(_ text: String, at time: Double) {
        keys.append((time, Array(text.utf8)))
        keys.sort { $0.time < $1.time }
    }

    public func size() -> (columns: Int, rows: Int)? { (columns, rows) }
    public func enableKeyInput() { keyInputEnabled = true }
    public func restoreInputMode() { restored = true }

    public func readKeys() -> [UInt8] {
        var out: [UInt8] = []
        while let first = keys.first, first.time <= clock.now() {
            out += first.bytes
            keys.removeFirst()
        }
        return out
    }
}
