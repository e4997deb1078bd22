import GNSS
import Navigation
import Platform

/// What `goto` and `regions` share, on the live loop: start the GNSS source, report its state
/// changes on stderr, pass each fix that passes the gate to `body` (which returns false to stop),
/// until a stop signal, the duration, or `body` says so.
struct FixLoop {
    var source: GNSSSourceChoice
    var gate: QualityGate
    var duration: Double?
    /// The longest wait for the first good fix, seconds (`--timeout`); nil: no limit. A source
    /// never reached ends the loop within `GNSSProgress.refusedGrace` whatever it is.
    var timeout: Double? = nil

    /// `tick` runs on every turn of the loop (at least every 50 ms), fixes or not: `regions` reaps
    /// and times out its hooks there.
    func run(runtime: Runtime, tick: @escaping () -> Void = {}, _ body: @escaping (Fix, Double) throws -> Bool) throws {
        let inbox = ControlInbox(runtime.events)
        let consumer = GatedFixes(gate: gate, timeout: timeout, runtime: runtime, body: body)
        consumer.tick = tick
        let loop = LiveLoop(gnss: source.open(time: runtime.time), runtime: runtime, inbox: inbox, duration: duration)
        let end = try loop.run([consumer])
        if end == .duration, let update = loop.lastGNSS, let error = consumer.progress.failure(of: update) { throw error }
    }

    final class GatedFixes: LiveConsumer {
        let gate: QualityGate
        let runtime: Runtime
        let body: (Fix, Double) throws -> Bool
        var progress: GNSSProgress
        var tick: () -> Void = {}
        var times: FixTimes

        init(gate: QualityGate, timeout: Double?, runtime: Runtime, body: @escaping (Fix, Double) throws -> Bool) {
            self.gate = gate
            progress = GNSSProgress(gate: gate, timeout: timeout)
            self.runtime = runtime
            self.body = body
            times = FixTimes(time: runtime.time)
        }

        var turnInterval: Double { 0.05 }

        func turn(_ loop: LiveLoop, now: Double) throws -> LiveStep {
            tick()
            if let source = loop.gnss { try progress.check(now: now, source: source, runtime: runtime) }
            return .proceed
        }

        func gnss(_ update: GNSSUpdate, outcomes: [FixOutcome], loop: LiveLoop) throws -> LiveStep {
            guard let source = loop.gnss else { return .finish }
            let now = loop.time.monotonic()
            progress.observe(update, now: now, source: source, runtime: runtime)
            for received in update.fixes {
                if let why = gate.rejection(of: received.fix) {
                    progress.ignoring(why, now: now, runtime: runtime)
                    continue
                }
                // Rows carry the system's time when it is synchronised or the fix's is not to be trusted.
                var fix = received.fix
                fix.time = times.observe(fix, receivedAt: received.receivedAt, say: runtime.say).stamp
                if try !body(fix, received.receivedAt) { return .finish }
            }
            return .proceed
        }
    }
}
