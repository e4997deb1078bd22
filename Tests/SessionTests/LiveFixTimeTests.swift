import Foundation
import GNSS
import HeadingLog
import Outputs
import Platform
import Sensors
@testable import Session
import Terminal
import Testing
import TestSupport

/// The live commands (`log`, `watch`, `serve`) check each fix's time against the system clock:
/// a receiver's time more than a day off, or going backwards, is said once and flagged on the log
/// rows that carry the fix; with a synchronised system clock the fix the outputs carry has the
/// system's time.
@Suite("live sessions: a receiver's time that cannot be trusted")
struct LiveFixTimeTests {
    static let wallAtZero = 1_795_000_000.0

    /// A live session on its own manual clock with the scripted receiver (a fix each second,
    /// received at second n), and what it said about fix times.
    final class Run {
        let clock: ManualClock
        let live: LiveSession
        var said: [String] = []
        var rows: [LogRow] = []

        init(synchronised: Bool?, fixAt: @escaping @Sendable (Int) -> Fix) throws {
            clock = ManualClock(0, wallAtZero: LiveFixTimeTests.wallAtZero, synchronised: synchronised)
            let inbox = ControlInbox(ScriptedEvents(clock: clock, deadline: 600))
            let source = try SensorSelection(simulate: true).open(time: clock)
            live = LiveSession(reader: source.makeReader(clock: ReaderClock(clock, inbox: inbox)),
                               pipeline: HeadingPipeline(PipelineSetup(profile: nil)),
                               gnss: ScriptedReceiver(clock: clock, fixAt: fixAt), time: clock,
                               distanceFilter: 0, learnsDeviation: false, simulated: true)
            live.onFixTimeProblem { [unowned self] in said.append($0) }
        }

        /// Runs until `seconds`, keeping one log row per second (just after each fix).
        func run(seconds: Int) {
            var next = 0.1
            while clock.now() < Double(seconds) {
                live.next(timeout: 0.05)
                live.pollGNSS()
                if clock.now() >= next, let row = live.logRow() {
                    rows.append(row)
                    next = clock.now().rounded(.down) + 1.1
                }
            }
        }
    }

    static func fix(time: Double, n: Int) -> Fix {
        Fix(time: time, mode: .threeD, lat: -33.87 + Double(n) * 1e-5, lon: 151.2, eph: 3)
    }

    @Test func aReceiverThirtyYearsBehindIsSaidOnceAndFlagsEveryRowCarryingItsFix() throws {
        let behind = Self.wallAtZero - 30 * 365.25 * 86_400
        let run = try Run(synchronised: nil) { n in LiveFixTimeTests.fix(time: behind + Double(n), n: n) }
        run.run(seconds: 8)
        let carrying = run.rows.filter { $0.latitude != nil }
        #expect(carrying.count >= 6, "\(run.rows.count) rows")
        #expect(carrying.allSatisfy { $0.flags.contains("gnssTimeOff") }, "\(carrying.map(\.flags))")
        #expect(run.rows.filter { $0.latitude == nil }.allSatisfy { !$0.flags.contains("gnssTimeOff") })
        #expect(run.said.count == 1 && run.said[0].contains("30 years behind"), "\(run.said)")
        // The rows keep the system's time; the fix the outputs carry is stamped by it too.
        #expect(run.rows.allSatisfy { abs($0.time - Self.wallAtZero) < 10 })
        let current = try #require(run.live.currentFix()?.time)
        #expect(abs(current - Self.wallAtZero) < 10, "the untrusted time is not passed on: \(current)")
        #expect(FixReport(run.live.currentFix()!, wall: 0).wall == current)
        // The dashboard says it in its report lines (the piped commands on stderr).
        let state = WatchView(live: run.live).state(settings: DashboardSettings())
        #expect(state.reports.contains { $0.contains("30 years behind") }, "\(state.reports)")
    }

    @Test func aTimeGoingBackwardsFlagsTheRowsOfThatFixOnly() throws {
        // Fix 4 says it is 3 s older than fix 3; fix 5 and on are in order again.
        let run = try Run(synchronised: nil) { n in
            LiveFixTimeTests.fix(time: LiveFixTimeTests.wallAtZero + Double(n == 4 ? 0 : n), n: n)
        }
        run.run(seconds: 8)
        let flagged = run.rows.filter { $0.flags.contains("gnssTimeBackwards") }
        #expect(flagged.count == 1, "\(run.rows.map(\.flags))")
        #expect(flagged.first.map { abs($0.time - (Self.wallAtZero + 4.1)) < 0.2 } == true, "\(flagged.map(\.time))")
        #expect(!run.rows.contains { $0.flags.contains("gnssTimeOff") })
        #expect(run.said.count == 1 && run.said[0].contains("went back 3 s"), "\(run.said)")
    }

    @Test func aSynchronisedSystemClockStampsTheFixesAndAnUnsynchronisedOneKeepsTheReceivers() throws {
        // The receiver's times are 0.7 s before the system's time of arrival.
        let lagging: @Sendable (Int) -> Fix = { n in LiveFixTimeTests.fix(time: LiveFixTimeTests.wallAtZero + Double(n) - 0.7, n: n) }
        let synced = try Run(synchronised: true, fixAt: lagging)
        synced.run(seconds: 4)
        let stamped = try #require(synced.live.latestFix)
        #expect(stamped.fix.time == Self.wallAtZero + stamped.receivedAt, "the system's time of arrival")
        #expect(synced.said.isEmpty && synced.live.fixTimeProblem == nil)
        #expect(!synced.rows.contains { $0.flags.contains { $0.hasPrefix("gnssTime") } })

        let own = try Run(synchronised: false, fixAt: lagging)
        own.run(seconds: 4)
        let kept = try #require(own.live.latestFix)
        #expect(kept.fix.time == Self.wallAtZero + kept.receivedAt - 0.7, "the receiver's own time")
    }
}
