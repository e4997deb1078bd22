import Foundation
import Geodesy
import GNSS
import Navigation
import Simulation
import Testing

@Suite("Movement rules on simulated receivers (GNSSWalk)")
struct SimulatedWalkTests {
    /// Half an hour of a seeded walk or drive with a realistic eph: every fix reported, a direction
    /// in ≥ 90 % of reports at ≥ 1 m/s (and close to the true way), the odometer within 3 % of the
    /// true path, and nothing added while the receiver truly stands.
    @Test(arguments: [(GNSSWalkSettings.Motion.walk, 5.0, UInt64(11)), (.walk, 10, 12), (.walk, 20, 13), (.walk, 30, 14),
                      (.drive, 5, 15), (.drive, 30, 16)])
    func simulatedReceiversMeetTheRules(motion: GNSSWalkSettings.Motion, eph: Double, seed: UInt64) throws {
        var settings = GNSSWalkSettings(motion: motion)
        settings.horizontalError = eph
        var walk = GNSSWalk(settings: settings, seed: seed)
        var tracker = MovementTracker()
        var truePath = 0.0
        var previousTruth: GeoPoint?
        var previousTrueSpeed = 0.0
        var fast = 0, fastWithDirection = 0, fastPointingRight = 0
        var stillAdded = 0.0, stillSeconds = 0
        for _ in 0..<1800 {
            let fix = walk.next()
            let truth = try GeoPoint(latitude: walk.trueLatitude, longitude: walk.trueLongitude)
            let before = tracker.totalDistance
            let report = try #require(tracker.process(fix).report)
            #expect(report.fix == fix)
            if let p = previousTruth {
                let step = Geodesic.inverse(p, truth)
                truePath += step.distance
                if walk.trueSpeed == 0 && previousTrueSpeed == 0 {
                    stillAdded += tracker.totalDistance - before
                    stillSeconds += 1
                }
                if (fix.speed ?? 0) >= 1 {
                    fast += 1
                    if let direction = report.direction {
                        fastWithDirection += 1
                        if step.distance > 0.5, abs(remainder(direction - step.azimuth1, 360)) <= 45 { fastPointingRight += 1 }
                    }
                }
            }
            previousTruth = truth
            previousTrueSpeed = walk.trueSpeed
        }
        #expect(fast > 1000)
        #expect(Double(fastWithDirection) >= 0.9 * Double(fast), "\(fastWithDirection) of \(fast)")
        #expect(Double(fastPointingRight) >= 0.9 * Double(fastWithDirection), "\(fastPointingRight) of \(fastWithDirection)")
        #expect(abs(tracker.totalDistance - truePath) <= 0.03 * truePath, "\(tracker.totalDistance) vs \(truePath)")
        #expect(stillSeconds > 20)
        #expect(stillAdded <= 2, "\(stillAdded) m in \(stillSeconds) s at rest")
    }
}
