import Foundation
import Geodesy
import GNSS
import Linear
import Navigation
import Testing

/// Distance and azimuth for short lines from the local radii of curvature of WGS84 at the
/// mid-latitude (an independent check on the geodesic, good to ~1e-6 for a few km).
func localFlatEarth(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> (distance: Double, azimuth: Double) {
    let a = 6_378_137.0, f = 1 / 298.257223563
    let e2 = f * (2 - f)
    let phi = (lat1 + lat2) / 2 * .pi / 180
    let w = (1 - e2 * sin(phi) * sin(phi)).squareRoot()
    let meridian = a * (1 - e2) / (w * w * w)
    let prime = a / w
    let north = (lat2 - lat1) * .pi / 180 * meridian
    let east = (lon2 - lon1) * .pi / 180 * prime * cos(phi)
    var azimuth = atan2(east, north) * 180 / .pi
    if azimuth < 0 { azimuth += 360 }
    return ((north * north + east * east).squareRoot(), azimuth)
}

@Suite("Movement tracker")
struct MovementTrackerTests {
    func fix(_ lat: Double, _ lon: Double, time: Double? = nil, mode: FixMode = .threeD, eph: Double? = 1,
             speed: Double? = nil, course: Double? = nil) -> Fix {
        Fix(time: time, mode: mode, lat: lat, lon: lon, course: course, speed: speed, eph: eph)
    }

    @Test func firstReportHasNoLegAndLaterOnesMeasureFromThePreviousReport() throws {
        var tracker = MovementTracker()
        let first = try #require(tracker.process(fix(-33.8694, 151.199, time: 0)).report)
        #expect(first.leg == nil && first.sequence == 1 && first.totalDistance == 0 && !first.isStationary)
        let second = try #require(tracker.process(fix(-33.8684, 151.199, time: 10)).report)
        let leg = try #require(second.leg)
        #expect(abs(leg.distance - 110.92) < 0.05)   // 0.001° of latitude near 34° S
        #expect(leg.azimuth == 0)
        #expect(leg.elapsed == 10)
        #expect(second.sequence == 2)
        // Ten seconds apart without a speed: a gap, which the odometer does not count.
        #expect(second.totalDistance == 0)
    }

    @Test func distanceFilterReportsOnlyAfterMovingFarEnough() throws {
        var tracker = MovementTracker(distanceFilter: 5)
        let start = try GeoPoint(latitude: -33.8694, longitude: 151.199)
        var reported: [Int] = []
        for k in 0...10 {
            let p = try Geodesic.direct(from: start, azimuth: 90, distance: Double(k) * 2).point
            switch tracker.process(fix(p.latitude, p.longitude)) {
            case .report: reported.append(k * 2)
            case .filtered(let d): #expect(d < 5)
            case .rejected(let why): Issue.record("rejected: \(why)")
            }
        }
        #expect(reported == [0, 6, 12, 18])
        // The odometer sees the filtered fixes too: all 20 m (counted in 4 m steps, the first
        // displacement beyond 1.75 × √(1² + 1²) m without a speed).
        #expect(abs(tracker.totalDistance - 20) < 1e-6)
    }

    @Test func qualityGateComesFirst() {
        var tracker = MovementTracker(gate: QualityGate(minimumMode: .threeD, maximumHorizontalError: 5))
        #expect(tracker.process(fix(1, 2, mode: .twoD)) == .rejected(.modeTooLow(.twoD)))
        #expect(tracker.process(fix(1, 2, eph: 7.5)) == .rejected(.accuracyTooPoor(7.5)))
        #expect(tracker.process(fix(1, 2, eph: nil)) == .rejected(.accuracyUnknown))
        #expect(tracker.process(Fix(time: 1, mode: .threeD)) == .rejected(.noPosition))
        #expect(tracker.reportCount == 0)
        #expect(tracker.process(fix(1, 2, eph: 4.9)).report != nil)
    }

    @Test func gateUsesEphThenTheLargerOfEpxAndEpy() {
        let gate = QualityGate(maximumHorizontalError: 5)
        #expect(gate.accepts(Fix(mode: .twoD, lat: 0, lon: 0, eph: 5)))
        #expect(!gate.accepts(Fix(mode: .twoD, lat: 0, lon: 0, epx: 3, epy: 6)))
        #expect(gate.accepts(Fix(mode: .twoD, lat: 0, lon: 0, epx: 3, epy: 4)))
        #expect(QualityGate().accepts(Fix(mode: .twoD, lat: 0, lon: 0)))
        #expect(QualityGate(minimumMode: .noFix).minimumMode == .twoD)
    }

    @Test func stationaryWhenWithinTheCombinedError() throws {
        // √(3² + 4²) = 5: a 4.9 m move is stationary, a 5.1 m one is not.
        for (distance, expected) in [(4.9, true), (5.1, false)] {
            var tracker = MovementTracker()
            let (a, b) = try fixPair(distance: distance, azimuth: 120, eph: nil)
            _ = tracker.process(Fix(time: a.time, mode: .threeD, lat: a.lat, lon: a.lon, eph: 3))
            let r = try #require(tracker.process(Fix(time: b.time, mode: .threeD, lat: b.lat, lon: b.lon, epx: 2, epy: 4)).report)
            #expect(abs((r.leg?.errorRadius ?? 0) - 5) < 1e-12)
            #expect(r.isStationary == expected)
            // A stationary leg lends no course; a real move does.
            #expect((r.course == nil) == expected)
        }
    }

    @Test func receiverSpeedAndCourseWinOverDerivedOnes() throws {
        var tracker = MovementTracker()
        _ = tracker.process(fix(-33.8694, 151.199, time: 0))
        let r = try #require(tracker.process(fix(-33.8684, 151.199, time: 10, speed: 3.3, course: 7)).report)
        #expect(r.speed == 3.3 && r.course == 7)
        var derived = MovementTracker()
        _ = derived.process(fix(-33.8694, 151.199, time: 0))
        let d = try #require(derived.process(fix(-33.8684, 151.199, time: 10)).report)
        #expect(abs((d.speed ?? 0) - 11.092) < 0.01)
        #expect(d.course == 0)
    }

    /// Geodesic legs against an independent local computation, for random short moves.
    @Test func legsAgreeWithAnIndependentComputation() throws {
        var random = SplitMix64(seed: 0x1234_5678)
        var tracker = MovementTracker()
        var total = 0.0
        var previous: (Double, Double)?
        for _ in 0..<500 {
            let lat = -70 + 140 * random.nextUnit()
            let lon = -180 + 360 * random.nextUnit()
            let here = previous.map { p in
                (min(89, max(-89, p.0 + (random.nextUnit() - 0.5) * 0.02)), p.1 + (random.nextUnit() - 0.5) * 0.02)
            } ?? (lat, lon)
            guard let r = tracker.process(fix(here.0, here.1)).report else { continue }
            if let p = previous, let leg = r.leg {
                let check = localFlatEarth(p.0, p.1, here.0, here.1)
                #expect(abs(leg.distance - check.distance) <= 1e-4 * check.distance + 1e-3)
                if check.distance > 10 {
                    #expect(abs(remainder(leg.azimuth - check.azimuth, 360)) < 0.05)
                }
                total += leg.distance
            }
            previous = here
        }
        #expect(total > 100_000)
    }

    @Test func resetForgetsTheTrack() throws {
        var tracker = MovementTracker()
        _ = tracker.process(fix(0, 0))
        _ = tracker.process(fix(0, 0.001))
        tracker.reset()
        let r = try #require(tracker.process(fix(1, 1)).report)
        #expect(r.leg == nil && r.sequence == 1 && r.totalDistance == 0)
    }
}
