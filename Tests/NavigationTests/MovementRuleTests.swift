import Foundation
import Geodesy
import GNSS
import Linear
import Navigation
import Testing

/// A synthetic receiver moving in a straight line at a constant speed, with white position noise
/// whose 95 % radius is `eph` (σ = eph / 2.45 per axis) and Doppler noise of `speedNoise` m/s.
struct StraightRun {
    var speed: Double
    var course: Double
    var eph: Double
    var eps: Double?
    var interval = 1.0
    var speedNoise = 0.03
    var reportsSpeed = true
    var seed: UInt64 = 1

    /// `count` fixes, and the true path length.
    func fixes(_ count: Int) throws -> [Fix] {
        var random = SplitMix64(seed: seed)
        let start = try GeoPoint(latitude: 54.3, longitude: 10.15)
        let sigma = eph / 2.4477
        return try (0..<count).map { k in
            let truth = try Geodesic.direct(from: start, azimuth: course, distance: speed * interval * Double(k)).point
            let north = sigma * random.nextGaussian(), east = sigma * random.nextGaussian()
            let noisy = try Geodesic.direct(from: truth, azimuth: atan2(east, north) * 180 / .pi,
                                            distance: (north * north + east * east).squareRoot()).point
            let measured = abs(speed + speedNoise * random.nextGaussian())
            return Fix(time: 1_800_000_000 + interval * Double(k), mode: .threeD, lat: noisy.latitude, lon: noisy.longitude,
                       course: reportsSpeed ? course : nil, speed: reportsSpeed ? measured : nil, eph: eph, eps: eps)
        }
    }
}

@Suite("Movement rules: velocity, direction, odometer")
struct MovementRuleTests {
    /// A boat at 3 m/s with a chartplotter's eph of 11 m: 3 m legs inside a 15.6 m error, never
    /// stationary, pointing along its course; the total is the distance sailed. With gpsd's own eps
    /// ((11 + 11) / 1 s = 22 m/s, from positions) the result is the same as without one.
    @Test(arguments: [nil, 22.0, 0.1])
    func boatAtThreeMetresPerSecond(eps: Double?) throws {
        let fixes = try StraightRun(speed: 3, course: 75, eph: 11, eps: eps, seed: 3).fixes(600)
        var tracker = MovementTracker()
        var reports: [MovementReport] = []
        for fix in fixes { if let r = tracker.process(fix).report { reports.append(r) } }
        #expect(reports.count == 600)
        #expect(reports.allSatisfy { !$0.isStationary })
        let byCourse = reports.filter { $0.leg?.directionSource == .course }
        #expect(byCourse.count > 500)
        #expect(byCourse.allSatisfy { $0.direction == 75 })
        #expect(abs(tracker.totalDistance - 3 * 599) < 0.01 * 3 * 599)
        let leg = try #require(byCourse.last?.leg)
        #expect(formatMovement(leg) == "N75°E, moved \(formatDistance(leg.distance).dropLast(2)) m")
        #expect(formatMovement(leg, language: .zh).hasPrefix("北偏东75度 移动了"))
    }

    /// A car at 15.6 m/s, 2 Hz, eph 24 m and gpsd's eps of 44 m/s (bt451's numbers).
    @Test func carAtFifteenPointSixMetresPerSecond() throws {
        let fixes = try StraightRun(speed: 15.6, course: 221, eph: 24.3, eps: 44.34, interval: 0.5, seed: 4).fixes(1200)
        var tracker = MovementTracker()
        let reports = fixes.compactMap { tracker.process($0).report }
        #expect(reports.dropFirst().allSatisfy { !$0.isStationary && $0.direction != nil })
        let truth = 15.6 * 0.5 * 1199
        #expect(abs(tracker.totalDistance - truth) < 0.01 * truth)
    }

    /// A receiver at rest for an hour of 1 Hz fixes, eph 99 m, reporting 0.03 m/s: the odometer
    /// adds nothing (gpsd's eps of 198 m/s or none), and no report has a course.
    @Test(arguments: [nil, 198.0])
    func stillReceiverWithLargeErrorAddsNothing(eps: Double?) throws {
        let fixes = try StraightRun(speed: 0, course: 0, eph: 99, eps: eps, speedNoise: 0, seed: 5).fixes(3600)
            .map { fix in var f = fix; f.speed = 0.03; f.course = 211; return f }
        var tracker = MovementTracker()
        let reports = fixes.compactMap { tracker.process($0).report }
        #expect(reports.count == 3600)
        #expect(tracker.totalDistance <= 0.5)
        #expect(reports.allSatisfy { $0.course == nil || $0.leg?.isDisplacementSignificant == true })
        // Without the displacement test a jittering fix 99 m off would be "moving": most are not.
        #expect(reports.filter(\.isStationary).count > 3000)
    }

    /// Receivers that send no speed: the odometer counts displacements beyond 1.75 × the combined
    /// error. At rest (eph 5 m, white noise) an hour adds at most a couple of metres; a straight walk
    /// counts within a few percent.
    @Test func receiversWithoutSpeed() throws {
        var still = MovementTracker()
        for fix in try StraightRun(speed: 0, course: 0, eph: 5, reportsSpeed: false, seed: 6).fixes(3600) {
            _ = still.process(fix)
        }
        #expect(still.totalDistance <= 2)

        var walk = MovementTracker()
        for fix in try StraightRun(speed: 1.4, course: 300, eph: 5, reportsSpeed: false, seed: 7).fixes(1800) {
            _ = walk.process(fix)
        }
        let truth = 1.4 * 1799
        #expect(abs(walk.totalDistance - truth) < 0.05 * truth, "\(walk.totalDistance) vs \(truth)")
    }

    /// A walk with speed: the odometer within a few percent, the still parts add nothing.
    @Test func walkWithSpeedCountsItsLength() throws {
        var tracker = MovementTracker()
        for fix in try StraightRun(speed: 1.4, course: 10, eph: 15, eps: 30, speedNoise: 0.1, seed: 8).fixes(1800) {
            _ = tracker.process(fix)
        }
        let truth = 1.4 * 1799
        #expect(abs(tracker.totalDistance - truth) < 0.02 * truth)
    }

    /// Course at low speed is noise; a small eps from the receiver lowers the threshold; an epd of
    /// 90° or more withdraws the course but not the movement.
    @Test func whenTheCourseIsTrusted() throws {
        let slow = GroundVelocity(fix: Fix(mode: .threeD, lat: 0, lon: 0, course: 123, speed: 0.3))
        #expect(slow?.speedError == 0.2 && slow?.movingThreshold == 0.6000000000000001)
        #expect(slow?.isMoving == false && slow?.trustedCourse == nil)
        let precise = GroundVelocity(fix: Fix(mode: .threeD, lat: 0, lon: 0, course: 123, speed: 0.3, eps: 0.02))
        #expect(precise?.speedError == 0.05)   // no receiver is taken as better than 5 cm/s
        #expect(precise?.trustedCourse == 123)
        let gpsdBound = GroundVelocity(fix: Fix(mode: .threeD, lat: 0, lon: 0, course: 123, speed: 3, eps: 226.69))
        #expect(gpsdBound?.speedError == 0.2 && gpsdBound?.trustedCourse == 123)
        let noCourse = GroundVelocity(fix: Fix(mode: .threeD, lat: 0, lon: 0, course: 123, speed: 3, epd: 120))
        #expect(noCourse?.isMoving == true && noCourse?.trustedCourse == nil)
        #expect(GroundVelocity(fix: Fix(mode: .threeD, lat: 0, lon: 0, course: 123)) == nil)
        #expect(abs((GroundVelocity(speed: 0.6, speedError: 0.2).courseError) - 18.43) < 0.01)

        let moving = Leg(distance: 3, azimuth: 10, errorRadius: 15, velocity: noCourse)
        #expect(!moving.isStationary && moving.direction == nil)
        #expect(formatMovement(moving) == "moved 3 m")
        #expect(formatMovement(moving, language: .zh) == "移动了3米")
        #expect(formatDirection(moving) == "moving" && formatDirection(moving, language: .zh) == "移动中")
        let resting = Leg(distance: 3, azimuth: 10, errorRadius: 15, velocity: slow)
        #expect(resting.isStationary && formatDirection(resting, language: .zh) == "静止")
        // A significant move wins over a still speed: the bearing is the geodesic's.
        let jump = Leg(distance: 40, azimuth: 10, errorRadius: 15, velocity: slow)
        #expect(!jump.isStationary && jump.direction == 10 && jump.directionSource == .displacement)
        #expect(formatDirection(jump, style: .points16) == "N")
    }

    /// Gaps: counted only when the speed supports the jump; never backwards in time; never without
    /// a speed.
    @Test func gapsCountOnlyWhatTheSpeedSupports() throws {
        let start = try GeoPoint(latitude: 48.2, longitude: 8.4)
        func fix(_ t: Double, _ metres: Double, speed: Double?) throws -> Fix {
            let p = try Geodesic.direct(from: start, azimuth: 90, distance: metres).point
            return Fix(time: t, mode: .threeD, lat: p.latitude, lon: p.longitude, course: 90, speed: speed, eph: 10)
        }
        func total(_ fixes: [Fix]) -> Double {
            var odometer = Odometer()
            for f in fixes { odometer.add(f) }
            return odometer.total
        }
        // 600 m in 150 s, leaving at 5 m/s: counted as the straight line.
        #expect(abs(total([try fix(0, 0, speed: 5), try fix(150, 600, speed: 0)]) - 600) < 1e-6)
        // 2 km in 60 s at 1.4 m/s is not a walk: nothing.
        #expect(total([try fix(0, 0, speed: 1.4), try fix(60, 2000, speed: 1.4)]) == 0)
        // At rest at both ends: nothing, however far.
        #expect(total([try fix(0, 0, speed: 0.02), try fix(80_000, 1900, speed: 0.02)]) == 0)
        // Back in time: nothing.
        #expect(total([try fix(100, 0, speed: 15), try fix(99.5, 8, speed: 15)]) == 0)
        // Without a speed a gap counts nothing, a short interval its displacement.
        #expect(total([try fix(0, 0, speed: nil), try fix(60, 500, speed: nil)]) == 0)
        #expect(abs(total([try fix(0, 0, speed: nil), try fix(1, 50, speed: nil)]) - 50) < 1e-6)
        // Up to 5 s the speed is integrated (trapezoid; a speed below 3σ counts as zero).
        #expect(abs(total([try fix(0, 0, speed: 2), try fix(4, 9, speed: 2.5)]) - 9) < 1e-9)
        #expect(abs(total([try fix(0, 0, speed: 0.4), try fix(2, 2, speed: 2)]) - 2) < 1e-9)
    }

    /// The distance filter as CoreLocation's: a report once the fix is at least N m from the last
    /// reported one, with that leg's distance and bearing; the odometer still counts every fix.
    @Test func distanceFilterMeasuresFromTheLastReport() throws {
        let fixes = try StraightRun(speed: 1.4, course: 45, eph: 5, seed: 9).fixes(300)
        var tracker = MovementTracker(distanceFilter: 10)
        var last: Fix?
        var reported = 0
        for fix in fixes {
            switch tracker.process(fix) {
            case .report(let r):
                reported += 1
                if let l = last, let leg = r.leg {
                    let check = Geodesic.inverse(try GeoPoint(latitude: l.lat!, longitude: l.lon!),
                                                 try GeoPoint(latitude: fix.lat!, longitude: fix.lon!))
                    #expect(leg.distance == check.distance && leg.azimuth == check.azimuth1)
                    #expect(leg.distance >= 10)
                    #expect(!leg.isStationary && leg.direction != nil)
                }
                last = fix
            case .filtered(let d):
                #expect(d < 10)
            case .rejected(let why):
                Issue.record("rejected: \(why)")
            }
        }
        #expect(reported > 30 && reported < 60)
        #expect(abs(tracker.totalDistance - 1.4 * 299) < 0.02 * 1.4 * 299)
    }
}

@Suite("Speeds a report derives")
struct DerivedSpeedTests {
    /// Without a receiver speed the report's speed comes from the leg, but only from a leg longer
    /// than the fixes' error: a shorter one would give the jitter's speed.
    @Test func derivedOnlyFromSignificantLegs() throws {
        let (a, far) = try fixPair(distance: 12, azimuth: 30, eph: 2)
        let (_, near) = try fixPair(distance: 2, azimuth: 30, eph: 2)
        var tracker = MovementTracker()
        _ = tracker.process(a)
        #expect(abs((tracker.process(far).report?.speed ?? 0) - 3) < 1e-9)
        var jitter = MovementTracker()
        _ = jitter.process(a)
        let r = try #require(jitter.process(near).report)
        #expect(r.speed == nil && r.isStationary)
        #expect(formatReportSummary(r) == "stationary; total 0 m")
        #expect(formatReportSummary(r, language: .zh) == "静止；累计0米")
    }
}
