/// Turns gpsd's TPV stream into one fix per epoch.
///
/// A receiver's several sentences per epoch (RMC, GGA, GSA, …) each make gpsd send a TPV with the
/// same time, some without `track` or the error estimates. The merger collects the TPVs that share a
/// time into one `Fix` (later members fill in and update earlier ones) and hands the epoch on when a
/// TPV with another time arrives, when nothing more arrived for `holdSeconds`, or on `flush()`.
/// A TPV that repeats the time of the epoch just handed on is dropped.
///
/// Only fixes with a position and a time take part: a report without a position says nothing about
/// where the receiver is, and one without a time cannot be placed among the others.
///
/// ```swift
/// var merger = EpochMerger()
/// for fix in merger.add(tpv, at: Clock.monotonic()) { deliver(fix) }
/// if let fix = merger.poll(now: Clock.monotonic()) { deliver(fix) }
/// ```
public struct EpochMerger: Sendable {
    /// How long an epoch waits for more TPVs with its time before it is handed on.
    public var holdSeconds: Double

    private var pending: Fix?
    private var pendingTime: Double = 0
    private var lastArrival: Double = 0
    private var lastEmittedTime: Double?
    /// The newest fix time seen, and since when (monotonic) reports have carried it.
    private var latestTime: Double?
    private var latestTimeSince: Double = 0
    /// When (monotonic) the last fix with a position arrived, if any.
    public private(set) var lastPositionArrival: Double?

    /// The fix time reports have repeated for longer than `frozenAfterSeconds` while positions kept
    /// coming: the receiver's clock is stuck (or gpsd replays one sentence), so its fixes are not
    /// current. Nil while time advances.
    public private(set) var frozenTime: Double?
    /// How long one fix time may last before it counts as frozen: several epochs of any receiver.
    public var frozenAfterSeconds: Double { max(3, 4 * holdSeconds) }

    public init(holdSeconds: Double = 0.5) {
        self.holdSeconds = holdSeconds
    }

    /// The epoch being collected, if any.
    public var current: Fix? { pending }

    /// Adds one TPV received at monotonic time `now`; returns the epochs this completes (0 or 1).
    public mutating func add(_ fix: Fix, at now: Double) -> [Fix] {
        guard fix.hasPosition, let time = fix.time else { return [] }
        lastPositionArrival = now
        if time != latestTime {
            latestTime = time
            latestTimeSince = now
            frozenTime = nil
        } else if now - latestTimeSince > frozenAfterSeconds {
            frozenTime = time
        }
        if let pending {
            if time == pendingTime {
                if frozenTime != nil {
                    // The same epoch for seconds: hand it on once; its repeats are dropped below.
                    self.pending = nil
                    return [emit(pending.merged(with: fix))]
                }
                self.pending = pending.merged(with: fix)
                lastArrival = now
                return []
            }
            self.pending = fix
            pendingTime = time
            lastArrival = now
            return [emit(pending)]
        }
        if time == lastEmittedTime { return [] }
        pending = fix
        pendingTime = time
        lastArrival = now
        return []
    }

    /// Hands on the pending epoch when it has waited `holdSeconds` without another TPV.
    public mutating func poll(now: Double) -> Fix? {
        guard pending != nil, now - lastArrival >= holdSeconds else { return nil }
        return flush()
    }

    /// Hands on the pending epoch at once (for example when the connection closes).
    public mutating func flush() -> Fix? {
        guard let fix = pending else { return nil }
        pending = nil
        return emit(fix)
    }

    /// Forgets the last epoch's time, so a new gpsd session starts afresh.
    public mutating func reset() {
        pending = nil
        lastEmittedTime = nil
        latestTime = nil
        frozenTime = nil
        lastPositionArrival = nil
    }

    private mutating func emit(_ fix: Fix) -> Fix {
        lastEmittedTime = fix.time
        return fix
    }
}
