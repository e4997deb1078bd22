import Geodesy
import Linear
import Testing
@testable import Places

@Suite struct RegionMonitorTests {
    let centre = try! GeoPoint(latitude: 52.37, longitude: 4.89)

    /// A walk straight through a region of 100 m, fixes every second at 1.4 m/s, each displaced by
    /// a random error up to its eph (10 m) in a random direction: one enter and one exit, though
    /// the raw positions cross the boundary many times.
    @Test(arguments: [1 as UInt64, 2, 3, 42, 2026])
    func onePassGivesOneEnterAndOneExit(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var monitor = RegionMonitor(regions: [Region(name: "square", centre: centre, radius: 100)])
        let start = try Geodesic.wgs84.direct(from: centre, azimuth: 250, distance: 300).point
        var kinds: [RegionEventKind] = []
        var rawCrossings = 0
        var wasInside: Bool?
        for second in 0..<430 {
            let truth = try Geodesic.wgs84.direct(from: start, azimuth: 70, distance: 1.4 * Double(second)).point
            let eph = 10.0
            let error = eph * Double.random(in: 0...1, using: &rng).squareRoot()
            let fix = try Geodesic.wgs84.direct(from: truth, azimuth: Double.random(in: 0..<360, using: &rng), distance: error).point
            let inside = Geodesic.wgs84.inverse(centre, fix).distance <= 100
            if let wasInside, wasInside != inside { rawCrossings += 1 }
            wasInside = inside
            kinds += monitor.update(at: fix, horizontalError: eph, time: Double(second)).map(\.kind)
        }
        #expect(kinds == [.outside, .enter, .exit])
        #expect(rawCrossings > 2, "the jitter must cross the boundary more than twice for the test to mean something")
    }

    @Test func dwellOnceAfterTheTimeAndAgainAfterReentering() throws {
        var monitor = RegionMonitor(regions: [Region(name: "r", centre: centre, radius: 50)], dwell: 10)
        let far = try Geodesic.wgs84.direct(from: centre, azimuth: 0, distance: 500).point
        var kinds: [RegionEventKind] = []
        for t in 0..<25 { kinds += monitor.update(at: centre, horizontalError: 3, time: Double(t)).map(\.kind) }
        kinds += monitor.update(at: far, horizontalError: 3, time: 25).map(\.kind)
        for t in 26..<40 { kinds += monitor.update(at: centre, horizontalError: 3, time: Double(t)).map(\.kind) }
        #expect(kinds == [.inside, .dwell, .exit, .enter, .dwell])
    }

    @Test func aSmallRegionCanBeEnteredWithALargeError() throws {
        var monitor = RegionMonitor(regions: [Region(name: "r", centre: centre, radius: 10)])
        let outside = try Geodesic.wgs84.direct(from: centre, azimuth: 90, distance: 100).point
        _ = monitor.update(at: outside, horizontalError: 30, time: 0)
        let events = monitor.update(at: centre, horizontalError: 30, time: 1)
        #expect(events.map(\.kind) == [.enter])
    }
}

@Suite struct DestinationGuideTests {
    let target = try! GeoPoint(latitude: 52.6425, longitude: 5.05972)

    @Test func distanceAndBearingAreTheGeodesic() throws {
        let from = try GeoPoint(latitude: 52.5, longitude: 4.9)
        var guide = DestinationGuide(Destination(name: "Hoorn", point: target, radius: 50))
        let g = guide.update(at: from, time: 0, heading: 10)
        let inverse = Geodesic.wgs84.inverse(from, target)
        #expect(g.distance == inverse.distance)
        #expect(g.bearing == inverse.azimuth1)
        #expect(abs(try #require(g.relativeBearing) - (inverse.azimuth1 - 10)) < 1e-9)
        #expect(g.crossTrackError == 0)
        #expect(g.timeToGo == nil && !g.arrived)
    }

    /// Walking straight at the target at 2 m/s: the speed made good settles at 2, the time to go is
    /// distance / 2, and the cross-track error stays ~0; walking sideways the error grows on the
    /// right side.
    @Test func closingSpeedEtaAndCrossTrack() throws {
        let start = try Geodesic.wgs84.direct(from: target, azimuth: 200, distance: 2000).point
        let course = Geodesic.wgs84.inverse(start, target).azimuth1
        var guide = DestinationGuide(Destination(name: "t", point: target, radius: 20))
        var last: Guidance?
        for t in 0..<60 {
            let p = try Geodesic.wgs84.direct(from: start, azimuth: course, distance: 2 * Double(t)).point
            last = guide.update(at: p, time: Double(t))
        }
        let g = try #require(last)
        #expect(abs(try #require(g.speedMadeGood) - 2) < 0.01)
        #expect(abs(try #require(g.timeToGo) - g.distance / 2) < 5)
        #expect(abs(try #require(g.crossTrackError)) < 0.01)
        // Now heading east (the target is ahead, to the north-east): right of the track.
        let aside = try Geodesic.wgs84.direct(from: start, azimuth: course + 90, distance: 100).point
        var fresh = DestinationGuide(Destination(name: "t", point: target, radius: 20))
        _ = fresh.update(at: start, time: 0)
        let off = fresh.update(at: aside, time: 50)
        #expect(abs(try #require(off.crossTrackError) - 100) < 0.5)
    }

    @Test func noEtaWhileMovingAwayAndArrivalWithinTheRadius() throws {
        var guide = DestinationGuide(Destination(name: "t", point: target, radius: 30))
        let away = try Geodesic.wgs84.direct(from: target, azimuth: 0, distance: 1000).point
        _ = guide.update(at: away, time: 0, speed: 3, course: 0)
        let g = guide.update(at: away, time: 1, speed: 3, course: 0)
        #expect(try #require(g.speedMadeGood) < -2.9)
        #expect(g.timeToGo == nil)
        let near = try Geodesic.wgs84.direct(from: target, azimuth: 0, distance: 20).point
        #expect(guide.update(at: near, time: 2).arrived)
    }

    @Test func relativeAngleWraps() {
        #expect(relativeAngle(350) == -10)
        #expect(relativeAngle(-190) == 170)
        #expect(relativeAngle(180) == 180)
        #expect(relativeAngle(-180) == 180)
    }
}
