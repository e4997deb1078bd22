import CPosix
import Synchronization

/// Where time comes from: the monotonic clock paces loops and stamps samples for the filters, the wall
/// clock labels logs. Sessions take one as a value, so a test runs a whole session on a `ManualClock`.
///
/// ```swift
/// let time: any TimeSource = SystemTime()
/// let started = time.monotonic()
/// ```
public protocol TimeSource: Sendable {
    /// Seconds on a clock that never jumps (NTP, the user).
    func monotonic() -> Double
    /// Unix time in seconds (UTC).
    func wall() -> Double
    /// Whether the wall clock is kept synchronised (NTP, chrony, timesyncd): then it, not a GNSS
    /// receiver's time, stamps rows. Nil when it cannot be told.
    var wallIsSynchronised: Bool? { get }
    /// Waits until the monotonic clock reads `deadline`, or until `cancelled()` (asked at least every
    /// 20 ms of real time) is true: how a thread of its own (the gpsd client's) lets this clock's
    /// time pass. On a manual clock the wait ends when the test advances the clock.
    func wait(until deadline: Double, unless cancelled: () -> Bool)
}

extension TimeSource {
    public var wallIsSynchronised: Bool? { nil }

    public func wait(until deadline: Double, unless cancelled: () -> Bool) {
        while !cancelled() {
            let left = deadline - monotonic()
            guard left > 0 else { return }
            Clock.sleep(seconds: min(0.02, max(0.001, left)))
        }
    }
}

/// The system's clocks (`CLOCK_MONOTONIC`, `CLOCK_REALTIME`).
public struct SystemTime: TimeSource {
    public init() {}
    public func monotonic() -> Double { Clock.monotonic() }
    public func wall() -> Double { Clock.wall() }
    /// The kernel's view (adjtimex: STA_UNSYNC clear), asked each time (it changes when NTP syncs).
    public var wallIsSynchronised: Bool? {
        switch lodestone_clock_synchronised() {
        case 1: return true
        case 0: return false
        default: return nil
        }
    }
}

/// A clock that moves only when told: tests, benchmarks and the simulator's faster-than-real-time runs.
/// Its wall clock is `wallAtZero` plus its monotonic time.
///
/// ```swift
/// let clock = ManualClock(0, wallAtZero: 1_790_000_000)
/// clock.advance(by: 0.1)
/// clock.monotonic()   // 0.1
/// ```
public final class ManualClock: TimeSource {
    private let time: Mutex<Double>
    private let waits = Mutex<[Double]>([])
    /// The wall-clock time (Unix seconds) when the monotonic clock reads 0.
    public let wallAtZero: Double

    /// What `wallIsSynchronised` says (nil by default: unknown, as on a machine that cannot tell).
    public let wallIsSynchronised: Bool?

    public init(_ start: Double = 0, wallAtZero: Double = 1_790_000_000, synchronised: Bool? = nil) {
        time = Mutex(start)
        self.wallAtZero = wallAtZero
        wallIsSynchronised = synchronised
    }

    /// The monotonic time, seconds.
    public func now() -> Double { time.withLock { $0 } }
    public func monotonic() -> Double { now() }
    public func wall() -> Double { wallAtZero + now() }

    /// Moves the clock forward (a negative or non-finite step is ignored: time never runs back).
    public func advance(by seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        time.withLock { $0 += seconds }
    }

    /// Moves the clock forward to `t` (never back).
    public func advance(to t: Double) { time.withLock { $0 = max($0, t) } }

    /// The times other threads are waiting for on this clock (`wait(until:unless:)`), soonest first:
    /// a test sees when a thread pauses and until when, then advances the clock to wake it.
    public var waitingUntil: [Double] { waits.withLock { $0.sorted() } }

    /// Waits, in short real sleeps, until the clock has been advanced to `deadline` or `cancelled()`.
    public func wait(until deadline: Double, unless cancelled: () -> Bool) {
        guard now() < deadline else { return }
        waits.withLock { $0.append(deadline) }
        defer {
            waits.withLock { list in
                if let i = list.firstIndex(of: deadline) { list.remove(at: i) }
            }
        }
        while !cancelled(), now() < deadline {
            Clock.sleep(seconds: 0.001)
        }
    }
}
