import Foundation
import GNSS
import Simulation
import Testing

@Suite("Simulated GNSS walk")
struct GNSSWalkTests {
    /// Metres north and east of (lat0, lon0) (local flat approximation, fine for a few km).
    func offset(_ lat: Double, _ lon: Double, from lat0: Double, _ lon0: Double) -> (Double, Double) {
        let r = 6_371_000.0
        let north = (lat - lat0) * .pi / 180 * r
        let east = (lon - lon0) * .pi / 180 * r * cos(lat0 * .pi / 180)
        return (north, east)
    }

    @Test func sameSeedSameTrackDifferentSeedDifferentTrack() {
        var a = GNSSWalk(seed: 42), b = GNSSWalk(seed: 42), c = GNSSWalk(seed: 43)
        let fa = a.next(count: 100), fb = b.next(count: 100), fc = c.next(count: 100)
        #expect(fa == fb)
        #expect(fa != fc)
    }

    @Test func oneHertzFixesWithEveryFieldFinite() {
        var settings = GNSSWalkSettings(startTime: 1_767_225_600)
        settings.horizontalError = 3
        var walk = GNSSWalk(settings: settings, seed: 7)
        let fixes = walk.next(count: 600)
        #expect(fixes.map { $0.time ?? -1 } == (0..<600).map { 1_767_225_600 + Double($0) })
        for f in fixes {
            #expect(f.mode == .threeD && f.hasPosition)
            let values = [f.lat, f.lon, f.altHAE, f.altMSL, f.speed, f.climb, f.eph, f.epx, f.epy, f.epv, f.eps]
            #expect(values.allSatisfy { $0?.isFinite == true })
            // Printed like gpsd: nine decimals at most.
            let lat = f.lat ?? 0
            #expect(abs(lat * 1e9 - (lat * 1e9).rounded()) < 1e-3)
        }
        let meanEph = fixes.compactMap(\.eph).reduce(0, +) / Double(fixes.count)
        #expect(meanEph > 2.2 && meanEph < 3.8)
    }

    @Test func staysAroundTheDefaultLocation() {
        var walk = GNSSWalk(seed: 3)
        for f in walk.next(count: 3600) {
            let (n, e) = offset(f.lat ?? 0, f.lon ?? 0, from: -33.8694, 151.1990)
            #expect((n * n + e * e).squareRoot() < 600)
        }
        var drive = GNSSWalk(settings: GNSSWalkSettings(motion: .drive), seed: 3)
        let speeds = drive.next(count: 600).compactMap(\.speed)
        #expect(speeds.max() ?? 0 > 10)
    }

    /// The reported position errs by about eph, and the error drifts slowly (correlated), not
    /// independently from one second to the next.
    @Test func positionErrorIsRealisticAndCorrelated() {
        var walk = GNSSWalk(seed: 11)
        var errors: [(Double, Double)] = []
        for _ in 0..<3000 {
            let f = walk.next()
            errors.append(offset(f.lat ?? 0, f.lon ?? 0, from: walk.trueLatitude, walk.trueLongitude))
        }
        let radial = errors.map { ($0.0 * $0.0 + $0.1 * $0.1).squareRoot() }.sorted()
        let p95 = radial[Int(Double(radial.count) * 0.95)]
        #expect(p95 > 1.5 && p95 < 6)
        let north = errors.map(\.0)
        let mean = north.reduce(0, +) / Double(north.count)
        var c0 = 0.0, c1 = 0.0
        for k in 1..<north.count {
            c0 += (north[k] - mean) * (north[k] - mean)
            c1 += (north[k] - mean) * (north[k - 1] - mean)
        }
        #expect(c1 / c0 > 0.8)
    }

    @Test func pausesNowAndThen() {
        var walk = GNSSWalk(seed: 5)
        var run = 0, longestStill = 0, moving = 0
        for _ in 0..<1800 {
            _ = walk.next()
            if walk.trueSpeed == 0 { run += 1 } else { run = 0; moving += 1 }
            longestStill = max(longestStill, run)
        }
        #expect(longestStill >= 4)
        #expect(moving > 1200)
    }

    @Test func realTimeSourceHandsOutFixesAsTimePasses() {
        let source = SimulatedGNSSSource(walk: GNSSWalk(seed: 9), clock: { 100 })
        source.start()
        let first = source.take(now: 100)
        #expect(first.fixes.count == 1)
        #expect(first.stateChanges == [.connected])
        #expect(source.take(now: 100.5).fixes.isEmpty)
        let later = source.take(now: 102.2)
        #expect(later.fixes.map(\.receivedAt) == [101, 102])
        #expect(later.current?.fix == later.fixes.last?.fix)
        #expect(source.take(now: 102.3).stateChanges.isEmpty)
        // The same seed replayed directly gives the same fixes.
        var replay = GNSSWalk(seed: 9)
        #expect(replay.next(count: 3) == first.fixes.map(\.fix) + later.fixes.map(\.fix))
    }
}
