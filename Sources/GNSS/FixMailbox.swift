import Synchronization

/// The hand-over point between a producer thread and the consumer: fixes, state and counters
/// behind a mutex. Both sides hold the lock only to copy a few values, so neither ever waits on
/// the other's I/O.
///
/// ```swift
/// let box = FixMailbox()
/// box.setState(.connected)                                   // producer
/// box.post(ReceivedFix(fix: fix, receivedAt: now))           // producer
/// let update = box.take(now: now)                            // consumer
/// ```
public final class FixMailbox: Sendable {
    private struct Contents {
        var fixes: [ReceivedFix] = []
        var state: GNSSState = .connecting
        var changes: [GNSSState] = []
        var latest: ReceivedFix?
        var devices: [String]?
        var reportsWithoutFix = 0
        var dropped = 0
        var stopRequested = false
    }

    /// Unread fixes kept at most; older ones are dropped when the consumer falls this far behind.
    public let capacity: Int
    private let contents = Mutex(Contents())

    public init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    // MARK: Producer side

    /// Adds a fix for the consumer.
    public func post(_ fix: ReceivedFix) {
        contents.withLock { c in
            c.fixes.append(fix)
            if c.fixes.count > capacity {
                let excess = c.fixes.count - capacity
                c.fixes.removeFirst(excess)
                c.dropped += excess
            }
            c.latest = fix
        }
    }

    /// Records a new state (ignored when it equals the current one).
    public func setState(_ state: GNSSState) {
        contents.withLock { c in
            guard c.state != state else { return }
            c.state = state
            c.changes.append(state)
            if c.changes.count > 64 { c.changes.removeFirst(c.changes.count - 64) }
        }
    }

    /// Records the receivers gpsd listed.
    public func setDevices(_ devices: [String]) {
        contents.withLock { $0.devices = devices }
    }

    /// Counts a TPV that carried no position.
    public func countReportWithoutFix() {
        contents.withLock { $0.reportsWithoutFix += 1 }
    }

    /// The current state (for the producer's own decisions).
    public var state: GNSSState { contents.withLock { $0.state } }

    /// Asks the producer to stop.
    public func requestStop() { contents.withLock { $0.stopRequested = true } }

    /// True once `requestStop()` was called.
    public var stopRequested: Bool { contents.withLock { $0.stopRequested } }

    // MARK: Consumer side

    /// Takes the new fixes and state changes; `now` (monotonic) decides whether `latest` is stale.
    public func take(now: Double, maxAge: Double = GNSSUpdate.defaultMaxAge) -> GNSSUpdate {
        contents.withLock { c in
            let update = GNSSUpdate(
                fixes: c.fixes, state: c.state, stateChanges: c.changes, latest: c.latest,
                devices: c.devices, reportsWithoutFix: c.reportsWithoutFix,
                latestIsStale: c.latest.map { $0.isStale(now: now, maxAge: maxAge) } ?? false)
            c.fixes.removeAll(keepingCapacity: true)
            c.changes.removeAll(keepingCapacity: true)
            return update
        }
    }

    /// How many fixes were dropped because the consumer did not take them in time.
    public var droppedCount: Int { contents.withLock { $0.dropped } }
}
