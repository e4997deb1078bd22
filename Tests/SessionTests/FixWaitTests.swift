import GNSS
import Navigation
import Platform
@testable import Session
import Testing
import TestSupport

/// The one rule for waiting on the first fix (`where`, `track`, `goto`, `regions`): a source never
/// reached ends the wait within `GNSSProgress.refusedGrace`, a reached one without a fix waits
/// up to the timeout, and the wait says what it waits for.
@Suite("waiting for the first fix")
struct FixWaitTests {
    final class NamedSource: GNSSSource {
        let name = "gpsd at 127.0.0.1:1"
        func start() {}
        func stop() {}
        func take(now: Double) -> GNSSUpdate { GNSSUpdate() }
    }

    let refused = GNSSState.disconnected(.cannotConnect(GpsdAddress(host: "127.0.0.1", port: 1)))

    /// Steps `progress` every 50 ms from 0 with `update` until it throws; the time it threw at.
    func stepUntilFailure(_ progress: inout GNSSProgress, update: (Double) -> GNSSUpdate, runtime: Runtime,
                          limit: Double = 100) -> (Double, NoFixFailure)? {
        let source = NamedSource()
        var now = 0.0
        while now <= limit {
            progress.observe(update(now), now: now, source: source, runtime: runtime)
            do { try progress.check(now: now, source: source, runtime: runtime) } catch { return (now, error) }
            now += 0.05
        }
        return nil
    }

    @Test("a refused connection ends the wait after the grace, however long the timeout, exit 69")
    func refusedEndsEarly() throws {
        let h = try SessionHarness("wait-refused")
        var progress = GNSSProgress(timeout: 30)
        let state = refused
        let result = stepUntilFailure(&progress, update: { now in
            GNSSUpdate(state: state, stateChanges: now == 0 ? [.connecting, state] : [])
        }, runtime: h.runtime("where"))
        let (at, failure) = try #require(result)
        #expect(at >= GNSSProgress.refusedGrace && at < GNSSProgress.refusedGrace + 0.1, "\(at)")
        #expect(failure.exitCode == .unavailable)
        #expect(failure.message.contains("cannot reach gpsd at 127.0.0.1:1"), "\(failure.message)")
        // The refusal is said once, by the failure, not also as a state on the way.
        #expect(!h.diagnostics.text.contains("cannot reach"), "\(h.diagnostics.text)")
    }

    @Test("a reached source without a fix waits up to the timeout and says what it waits for")
    func reachedWaitsForTimeout() throws {
        let h = try SessionHarness("wait-nofix")
        var progress = GNSSProgress(gate: QualityGate(minimumMode: .threeD, maximumHorizontalError: 10), timeout: 12)
        let result = stepUntilFailure(&progress, update: { now in
            GNSSUpdate(state: .waitingForFix, stateChanges: now == 0 ? [.connected, .waitingForFix] : [], reportsWithoutFix: 3)
        }, runtime: h.runtime("track"))
        let (at, failure) = try #require(result)
        #expect(at >= 12 && at < 12.1, "\(at)")
        #expect(failure.message.contains("no fix within 12 s"), "\(failure.message)")
        #expect(h.diagnostics.text.contains("waiting for a 3D fix with a horizontal error of at most 10 m from gpsd at 127.0.0.1:1, up to 12 s"),
                "\(h.diagnostics.text)")
    }

    @Test("without a timeout, a reached source is waited for without limit")
    func noTimeoutWaits() throws {
        let h = try SessionHarness("wait-forever")
        var progress = GNSSProgress()
        #expect(stepUntilFailure(&progress, update: { _ in GNSSUpdate(state: .waitingForFix) }, runtime: h.runtime("goto"),
                                 limit: 600) == nil)
        #expect(h.diagnostics.text.contains("no time limit"), "\(h.diagnostics.text)")
    }

    @Test("a source lost after it was reached is said and waited for")
    func lostAfterReached() throws {
        let h = try SessionHarness("wait-lost")
        var progress = GNSSProgress()
        let lost = GNSSState.disconnected(.connectionLost(GpsdAddress(host: "127.0.0.1", port: 1)))
        #expect(stepUntilFailure(&progress, update: { now in
            now < 1 ? GNSSUpdate(state: .connected, stateChanges: now == 0 ? [.connected] : [])
                : GNSSUpdate(state: lost, stateChanges: now > 1 && now < 1.06 ? [lost] : [])
        }, runtime: h.runtime("regions"), limit: 60) == nil)
        #expect(h.diagnostics.text.contains("lost the connection"), "\(h.diagnostics.text)")
    }
}
