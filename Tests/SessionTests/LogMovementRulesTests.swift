import Foundation
import GNSS
import HeadingLog
import Linear
import Platform
import Sensors
@testable import Session
import Synchronization
import Testing
import TestSupport

/// A GNSS receiver for tests: fixes at 1 Hz from a function of the fix number, on the manual clock.
final class ScriptedReceiver: GNSSSource {
    let name = "the scripted receiver"
    private let clock: ManualClock
    private let fixAt: @Sendable (Int) -> Fix
    private let next = Mutex(0)

    init(clock: ManualClock, fixAt: @escaping @Sendable (Int) -> Fix) {
        self.clock = clock
        self.fixAt = fixAt
    }

    func start() {}
    func stop() {}

    func take(now: Double) -> GNSSUpdate {
        let due = Int(now.rounded(.down))
        let fixes: [ReceivedFix] = next.withLock { n in
            var out: [ReceivedFix] = []
            while n <= due {
                out.append(ReceivedFix(fix: fixAt(n), receivedAt: Double(n)))
                n += 1
            }
            return out
        }
        return GNSSUpdate(fixes: fixes, state: .connected, latest: fixes.last)
    }
}

/// The log's leg columns follow the movement rules: a receiver standing still logs no distance
/// however its position wanders, and a moving one logs its path.
@Suite("log rows follow the movement rules")
struct LogMovementRulesTests {
    /// Runs a live session for `seconds` with the receiver, one log row per new fix.
    func rows(seconds: Int, fixAt: @escaping @Sendable (Int) -> Fix) throws -> [LogRow] {
        let h = try SessionHarness("log-rules")
        let inbox = ControlInbox(h.events)
        let source = try SensorSelection(simulate: true).open(time: h.clock)
        let reader = source.makeReader(clock: ReaderClock(h.clock, inbox: inbox))
        let live = LiveSession(reader: reader, pipeline: HeadingPipeline(PipelineSetup(profile: nil)),
                               gnss: ScriptedReceiver(clock: h.clock, fixAt: fixAt), time: h.clock,
                               distanceFilter: 0, learnsDeviation: false, simulated: true)
        var rows: [LogRow] = []
        while h.clock.now() < Double(seconds) {
            live.next(timeout: 0.5)
            live.pollGNSS()
            if let row = live.logRow(), row.fixDistance != nil || rows.isEmpty { rows.append(row) }
        }
        return rows
    }

    static func fix(_ n: Int, lat: Double, lon: Double, speed: Double, course: Double, eph: Double) -> Fix {
        Fix(time: 1_795_000_000 + Double(n), mode: .threeD, lat: lat, lon: lon, course: course, speed: speed, eph: eph)
    }

    @Test("a receiver standing still (speed 0.03 m/s, eph 99 m, positions wandering) logs no distance")
    func stillReceiver() throws {
        let rows = try rows(seconds: 300) { n in
            var rng = SplitMix64(seed: UInt64(n) &+ 17)
            let north = 20 * rng.nextGaussian(), east = 20 * rng.nextGaussian()
            return Self.fix(n, lat: -33.87 + north / 111_000, lon: 151.2 + east / 92_500, speed: 0.03, course: rng.nextUnit() * 360, eph: 99)
        }
        let total = rows.compactMap(\.fixDistance).reduce(0, +)
        #expect(rows.count > 250, "\(rows.count) rows with a new fix")
        #expect(total <= 2, "a still receiver logged \(total) m")
        #expect(rows.allSatisfy { $0.fixBearing == nil }, "no direction while stationary")
    }

    @Test("a boat at 3 m/s with 11 m fixes logs its path, with the course as its direction")
    func movingBoat() throws {
        let rows = try rows(seconds: 120) { n in
            var rng = SplitMix64(seed: UInt64(n) &+ 99)
            let along = 3.0 * Double(n)   // due east at 3 m/s
            let north = 4 * rng.nextGaussian(), east = along + 4 * rng.nextGaussian()
            return Self.fix(n, lat: -33.87 + north / 111_000, lon: 151.2 + east / 92_500, speed: 3, course: 90, eph: 11)
        }
        let total = rows.compactMap(\.fixDistance).reduce(0, +)
        let path = 3.0 * Double(rows.count - 1)
        #expect(abs(total - path) < 0.05 * path, "logged \(total) m for a \(path) m path")
        let bearings = rows.compactMap(\.fixBearing)
        #expect(bearings.count >= rows.count - 2, "a direction on every leg")
        // The course is the direction unless a leg's displacement exceeds the fixes' 95 % error
        // radius, which noise alone does about one leg in twenty: then the (noisier) geodesic.
        let eastward = bearings.filter { abs($0 - 90) < 20 }.count
        #expect(Double(eastward) >= 0.9 * Double(bearings.count), "\(bearings.filter { abs($0 - 90) >= 20 })")
    }
}
