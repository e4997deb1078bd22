import GNSS
import Navigation
import Platform

/// The loop `goto` and `regions` share: start the GNSS source, report its state changes on stderr,
/// pass each fix that passes the gate to `body` (which returns false to stop), until a stop
/// signal, the duration, or `body` says so. Like `track`'s loop: never a sleep, every wait on the
/// inbox (the session's clock).
struct FixLoop {
    var source: GNSSSourceChoice
    var gate: QualityGate
    var duration: Double?

    func run(runtime: Runtime, _ body: (Fix, Double) throws -> Bool) throws {
        let inbox = ControlInbox(runtime.events)
        let time = runtime.time
        let source = self.source.open(time: time)
        source.start()
        defer { source.stop() }
        let started = time.monotonic()
        var progress = GNSSProgress()
        while !inbox.stopRequested {
            let now = time.monotonic()
            let update = source.take(now: now)
            progress.observe(update, source: source, runtime: runtime)
            for received in update.fixes {
                if let why = gate.rejection(of: received.fix) {
                    progress.ignoring(why, now: now, runtime: runtime)
                    continue
                }
                if try !body(received.fix, received.receivedAt) { return }
            }
            if let duration, now - started >= duration {
                if let error = progress.failure(of: update) { throw error }
                return
            }
            inbox.wait(seconds: 0.05)
        }
    }
}
