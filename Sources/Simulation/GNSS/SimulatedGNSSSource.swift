import GNSS
import Synchronization

/// `--simulate` for positions: a `GNSSWalk` paced by the monotonic clock, one fix per interval,
/// behind the same `GNSSSource` interface as the gpsd client.
///
/// The first fix is due at `start()`, the next one interval later, and so on; `take(now:)` hands
/// out every fix that has come due by `now`, so a consumer that polls late still sees them all.
///
/// ```swift
/// let source = SimulatedGNSSSource(walk: GNSSWalk(settings: GNSSWalkSettings(startTime: Clock.wall())),
///                                  clock: { Clock.monotonic() })
/// source.start()
/// let update = source.take(now: Clock.monotonic())   // the first fix
/// ```
public final class SimulatedGNSSSource: GNSSSource {
    private struct Pacer {
        var walk: GNSSWalk
        var startedAt: Double?
        var produced = 0
        var announced = false
        var latest: ReceivedFix?
    }

    private let pacer: Mutex<Pacer>
    private let clock: @Sendable () -> Double
    private let interval: Double
    /// At most this many overdue fixes are produced by one `take` (a consumer that slept for hours
    /// does not stall on catching up).
    public let maxCatchUp = 600

    /// - Parameters:
    ///   - walk: the track to replay.
    ///   - clock: the monotonic clock, in seconds (`{ Clock.monotonic() }`).
    public init(walk: GNSSWalk, clock: @escaping @Sendable () -> Double) {
        pacer = Mutex(Pacer(walk: walk))
        self.clock = clock
        let i = walk.settings.interval
        interval = i > 0 && i.isFinite ? i : 1
    }

    public var name: String { "the simulator" }

    public func start() {
        let now = clock()
        pacer.withLock { p in
            if p.startedAt == nil { p.startedAt = now }
        }
    }

    public func stop() {}

    public func take(now: Double) -> GNSSUpdate {
        pacer.withLock { p in
            let start = p.startedAt ?? now
            p.startedAt = start
            var changes: [GNSSState] = []
            if !p.announced {
                p.announced = true
                changes.append(.connected)
            }
            let elapsed = max(0, now - start)
            let due = Int((elapsed / interval).rounded(.down)) + 1
            var fixes: [ReceivedFix] = []
            if due - p.produced > maxCatchUp { p.produced = due - maxCatchUp }
            while p.produced < due {
                let fix = p.walk.next()
                let received = ReceivedFix(fix: fix, receivedAt: start + Double(p.produced) * interval)
                fixes.append(received)
                p.produced += 1
                p.latest = received
            }
            let stale = p.latest.map { $0.isStale(now: now) } ?? false
            return GNSSUpdate(fixes: fixes, state: .connected, stateChanges: changes, latest: p.latest,
                              devices: ["simulator"], reportsWithoutFix: 0, latestIsStale: stale)
        }
    }
}
