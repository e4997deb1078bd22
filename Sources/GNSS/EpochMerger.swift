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

    public init(holdSeconds: Double = 0.5) {
        self.holdSeconds = holdSeconds
    }

    /// The epoch being collected, if any.
    public var current: Fix? { pending }

    /// Adds one TPV received at monotonic time `now`; returns the epochs this completes (0 or 1).
    public mutating func add(_ fix: Fix, at now: Double) -> [Fix] {
        guard fix.hasPosition, let time = fix.time else { return [] }
        if let pending {
            if time == pendingTime {
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
    }

    private mutating func emit(_ fix: Fix) -> Fix {
        lastEmittedTime = fix.time
        return fix
    }
}
