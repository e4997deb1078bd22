import GNSS
import Heading
import Platform

/// What the live loop hands its consumers at each update slot.
public struct LiveUpdate {
    /// Monotonic time of the update.
    public var now: Double
    /// The newest estimate (nil while the filter starts).
    public var estimate: HeadingEstimate?
    /// True when a sample arrived since the previous update; false when a whole slot passed without
    /// one (the sensor is silent: a display still redraws, a stream sends nothing).
    public var fresh: Bool
}

/// What a consumer tells the loop after each call.
public enum LiveStep: Sendable, Equatable {
    case proceed
    /// This consumer is done (`--once` printed its line, `--count` reached, the reader went away):
    /// the loop ends.
    case finish
}

/// Why the loop ended.
public enum LiveEnd: Sendable, Equatable {
    /// SIGINT, SIGTERM or SIGHUP.
    case signal
    /// The duration (`--duration`) passed.
    case duration
    /// A consumer said `.finish`.
    case finished
}

/// A front end of the live loop: `watch` (dashboard, plain lines, JSON, once), `serve`, `log`,
/// `track`, `goto`, `regions`. The loop calls it; it never waits and never runs a loop of its own.
/// Every method has a default that does nothing.
public protocol LiveConsumer: AnyObject {
    /// The longest the loop may go between two `turn`s for this consumer, seconds (keys, sockets,
    /// a log's flush cadence). Default 0.1.
    var turnInterval: Double { get }
    /// Once, before the first turn.
    func start(_ loop: LiveLoop) throws
    /// Housekeeping, about every `turnInterval` (never at each update for its own sake): read keys,
    /// accept clients, flush queues, keep cadences.
    func turn(_ loop: LiveLoop, now: Double) throws -> LiveStep
    /// One update slot (`LiveUpdate`), at the loop's rate.
    func update(_ update: LiveUpdate, loop: LiveLoop) throws -> LiveStep
    /// What the GNSS source said since the last turn, with the outcome of each new fix (empty
    /// without a live session: `track`, `goto`, `regions` take the fixes from `update.fixes`).
    func gnss(_ update: GNSSUpdate, outcomes: [FixOutcome], loop: LiveLoop) throws -> LiveStep
    /// The sensor reader's status line changed (nil: reading normally again).
    func sensorStatus(_ message: String?, loop: LiveLoop)
    /// Once, when the loop ends (also after an error), in the order the consumers were given.
    func finish(_ end: LiveEnd?, loop: LiveLoop) throws
}

extension LiveConsumer {
    public var turnInterval: Double { 0.1 }
    public func start(_ loop: LiveLoop) throws {}
    public func turn(_ loop: LiveLoop, now: Double) throws -> LiveStep { .proceed }
    public func update(_ update: LiveUpdate, loop: LiveLoop) throws -> LiveStep { .proceed }
    public func gnss(_ update: GNSSUpdate, outcomes: [FixOutcome], loop: LiveLoop) throws -> LiveStep { .proceed }
    public func sensorStatus(_ message: String?, loop: LiveLoop) {}
    public func finish(_ end: LiveEnd?, loop: LiveLoop) throws {}
}

/// The one live run loop. It owns the pacing (update slots at `rate`, drift-free, never catching up
/// in a burst after a stall), the sensor pump (every sample through the pipeline as it comes), the
/// GNSS poll (through the per-fix stage), the reader's status, the consumers' turns, the signals
/// (every wait is on the session's `ControlInbox`) and the shutdown (the duration, a stop signal, a
/// consumer that is done). It never waits on a consumer: consumers never block (`BoundedOutput`,
/// the non-blocking sinks), so a stalled or hostile consumer costs only its own updates.
///
/// Each turn: wait for the next sample or the next thing due (a turn, the end, a whole slot without
/// a sample); then, at a turn (every `turnInterval`), take signals, the GNSS update and the
/// reader's status and give every consumer its turn; at the first sample at or after a slot (or
/// after a whole slot without one), give every consumer the update. The loop wakes only for
/// samples: a slot never costs a wake-up of its own, and a turn is taken at the first sample after
/// it is due (a wake-up of its own only when no sample comes within a sample period).
///
/// ```swift
/// let loop = LiveLoop(live: live, runtime: runtime, inbox: inbox, rate: 10, duration: 60)
/// let end = try loop.run([PlainLines(output: runtime.streamingOutput())])
/// ```
public final class LiveLoop {
    public let runtime: Runtime
    public let inbox: ControlInbox
    /// The sensors, pipeline and per-fix stage; nil for GNSS-only commands.
    public let live: LiveSession?
    /// Where fixes come from (the live session's, or the GNSS-only command's).
    public let gnss: (any GNSSSource)?
    /// Update slots per second.
    public let rate: Double
    /// Stop after this many seconds; nil: until a signal or a consumer finishes.
    public let duration: Double?
    /// When the loop started (monotonic; unchecked as the update slots below are).
    @exclusivity(unchecked) public private(set) var started = 0.0
    /// Update slots delivered (fresh or not).
    @exclusivity(unchecked) public private(set) var updates = 0
    /// The newest GNSS update.
    public private(set) var lastGNSS: GNSSUpdate?
    private let ownsGNSS: Bool
    /// True when samples are gathered as they are read and run through the pipeline, and the
    /// updates they make given, a turn at a time (`log`; see `init`).
    public let gathers: Bool
    // The update slots: slot k is due at started + k / rate. These and `updates`, read and written
    // at every update, are not checked for exclusivity at run time (three checks an update, each
    // through the runtime's access set): each access is a plain read or write that calls nothing
    // (the consumers are called between them), and the loop is not Sendable, so none can overlap.
    @exclusivity(unchecked) private var slot = 0
    @exclusivity(unchecked) private var nextUpdate = 0.0
    @exclusivity(unchecked) private var lastDelivered = -Double.infinity

    /// `gathering`: the samples are still read as they come (one wake-up each), but run through the
    /// pipeline and given to the consumers as updates at each turn (every `turnInterval`), a batch at
    /// a time, each update timed by its sample: for consumers nobody waits on update by update
    /// (`log`: its rows go to the file every half second anyway). Why: after each sleep the
    /// pipeline's and the row writer's code is out of the cache, and run cold for every sample they
    /// cost several times what they cost in a batch. Every sample read is run, the last ones too
    /// when the loop ends.
    public init(live: LiveSession, runtime: Runtime, inbox: ControlInbox, rate: Double, duration: Double? = nil,
                gathering: Bool = false) {
        self.live = live
        gnss = live.gnss
        self.runtime = runtime
        self.inbox = inbox
        self.rate = rate.isFinite && rate > 0 ? rate : 10
        self.duration = duration
        ownsGNSS = false
        gathers = gathering
    }

    /// A loop of GNSS fixes only (`track`, `goto`, `regions`); the loop starts and stops the source.
    public init(gnss: any GNSSSource, runtime: Runtime, inbox: ControlInbox, duration: Double? = nil) {
        live = nil
        self.gnss = gnss
        self.runtime = runtime
        self.inbox = inbox
        rate = 10
        self.duration = duration
        ownsGNSS = true
        gathers = false
    }

    public var time: any TimeSource { runtime.time }

    /// Runs until a signal, the duration, or a consumer's `.finish`; returns which. Errors from a
    /// consumer end the loop (after every consumer's `finish`) and are thrown on.
    @discardableResult
    public func run(_ consumers: [any LiveConsumer]) throws -> LiveEnd {
        if ownsGNSS { gnss?.start() }
        defer { if ownsGNSS { gnss?.stop() } }
        let time = runtime.time
        started = time.monotonic()
        let period = 1 / rate
        let turnInterval = min(0.25, max(0.001, consumers.map(\.turnInterval).min() ?? 0.1))
        var end: LiveEnd?
        do {
            for c in consumers { try c.start(self) }
            end = try loop(consumers, period: period, turnInterval: turnInterval)
            // Gathering, the samples read before the end are run and given too (a signal or the
            // duration loses no row); not after a consumer said it is done.
            if end != .finished, try runGathered(consumers) { end = .finished }
        } catch {
            for c in consumers { try? c.finish(nil, loop: self) }
            throw error
        }
        for c in consumers { try c.finish(end, loop: self) }
        return end ?? .finished
    }

    private func loop(_ consumers: [any LiveConsumer], period: Double, turnInterval: Double) throws -> LiveEnd {
        let time = runtime.time
        let endAt = duration.map { started + $0 } ?? .infinity
        slot = 0
        nextUpdate = started
        lastDelivered = -Double.infinity
        var nextTurn = started
        var lastStatus: String?
        while true {
            if inbox.stopRequested { return .signal }
            var now = time.monotonic()
            if now >= endAt { return .duration }
            // Wait for a sample, or until the next thing is due.
            var due = min(nextTurn, endAt)
            if let live {
                // A turn due while samples come is taken at the first sample after it (at most a
                // sample period late; a signal still ends any wait at once): a wake-up of its own
                // for each turn cost as much as a sample's.
                due = min(nextTurn + live.reader.samplePeriod, endAt)
                if gathers {
                    // Updates are given at the turns, by their samples' times: no wake-up for a slot.
                    live.gather(timeout: max(0, min(0.25, due - now)))
                } else {
                    // A slot is served by the first sample at or after it: the loop wakes for samples
                    // (the reader sleeps until the next is expected), not for slots as well; only a
                    // whole slot without a sample wakes it for a slot (a stale update).
                    let pending = live.pipeline.lastSample.map { $0.monotonic > lastDelivered } ?? false
                    if now >= nextUpdate && pending { due = now }
                    else { due = min(due, nextUpdate + period) }
                    live.next(timeout: max(0, min(0.25, due - now)))
                }
            } else {
                inbox.wait(seconds: max(0, min(0.25, due - now)))
            }
            now = time.monotonic()
            if now >= endAt { return .duration }
            let fresh = live?.pipeline.lastSample.map { $0.monotonic > lastDelivered } ?? false
            let updateDue = live != nil && !gathers && now >= nextUpdate && (fresh || now >= nextUpdate + period)
            let turnDue = now >= nextTurn
            // Gathering: the batch runs at each turn (or when it is full), before the turn's GNSS.
            if gathers, let live, turnDue || live.gatheredCount >= LiveSession.gatherLimit {
                if try runGathered(consumers) { return .finished }
                // A whole slot without a sample: a stale update, as without gathering.
                if now >= nextUpdate + period, try deliver(now: now, fresh: false, consumers) { return .finished }
            }
            // Turns keep their own cadence (not one at every update): at 50 updates a second a turn
            // each (signals, GNSS, accepts, reads, flushes) cost more than the updates themselves.
            if turnDue {
                nextTurn = now + turnInterval
                // Signals: the waits since the last turn took them already (no system call then).
                inbox.refresh()
                if inbox.stopRequested { return .signal }
                if let gnss {
                    let update = gnss.take(now: now)
                    lastGNSS = update
                    let outcomes = live?.apply(update) ?? []
                    for c in consumers { if try c.gnss(update, outcomes: outcomes, loop: self) == .finish { return .finished } }
                }
                // The status line is built only while there is something to say (or was).
                if let live, live.reader.status != .ok || lastStatus != nil, live.reader.statusMessage != lastStatus {
                    lastStatus = live.reader.statusMessage
                    for c in consumers { c.sensorStatus(lastStatus, loop: self) }
                }
                for c in consumers { if try c.turn(self, now: now) == .finish { return .finished } }
            }
            if updateDue, try deliver(now: now, fresh: fresh, consumers) { return .finished }
        }
    }

    /// Gives every consumer the update of the slot due at `now`; true when one said `.finish`.
    private func deliver(now: Double, fresh: Bool, _ consumers: [any LiveConsumer]) throws -> Bool {
        guard let live else { return false }
        // Drift-free slots; after a stall, go on from the slot now due rather than catch up in a burst.
        slot += 1
        let due = Int(((now - started) * rate).rounded(.down))
        if due > slot { slot = due }
        nextUpdate = started + Double(slot) / rate
        if fresh, let sample = live.pipeline.lastSample { lastDelivered = sample.monotonic }
        updates += 1
        let update = LiveUpdate(now: now, estimate: live.pipeline.estimate, fresh: fresh)
        for c in consumers { if try c.update(update, loop: self) == .finish { return true } }
        return false
    }

    /// Gathering: runs the gathered samples through the pipeline, giving the update of each slot
    /// to the first sample at or after it, at that sample's time; true when a consumer said `.finish`.
    private func runGathered(_ consumers: [any LiveConsumer]) throws -> Bool {
        guard gathers, let live, live.gatheredCount > 0 else { return false }
        var finished = false
        let endAt = duration.map { started + $0 } ?? .infinity
        try live.runGathered { sampleTime in
            // A sample read at or after the end makes no update, as without gathering.
            guard sampleTime < endAt else { return false }
            if sampleTime >= nextUpdate, try deliver(now: sampleTime, fresh: true, consumers) { finished = true }
            return !finished
        }
        return finished
    }
}
