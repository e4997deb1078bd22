import Foundation
import Geodesy
import GNSS
import Navigation
import Testing

/// The folder of the NMEA fixtures (the receiver logs and gpsd's JSON for each).
let nmeaFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/nmea")

/// gpsd's fixes for a log as the client receives them: every TPV line of the .chk parsed by
/// `GpsdReport`, then one fix per epoch from `EpochMerger`.
func gpsdEpochs(_ log: String) throws -> [Fix] {
    let text = try String(contentsOf: nmeaFolder.appendingPathComponent(log + ".chk"), encoding: .utf8)
    var merger = EpochMerger()
    var epochs: [Fix] = []
    var arrival = 0.0
    for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{") {
        guard case .tpv(let fix) = try GpsdReport.parse(String(line)) else { continue }
        arrival += 0.01
        epochs += merger.add(fix, at: arrival)
    }
    if let last = merger.flush() { epochs.append(last) }
    return epochs
}

/// What a tracker made of a run of fixes, measured against the rules.
struct TrackMeasure {
    var reports: [MovementReport] = []
    /// Reports with a leg whose fix says ≥ 1 m/s, and how many of them carry a direction.
    var fastReports = 0
    var fastWithDirection = 0
    /// Odometer metres added between two fixes that both report less than 0.5 m/s.
    var stillAdded = 0.0
    /// Largest difference between a leg and `Geodesic.inverse` (metres, degrees).
    var worstDistanceError = 0.0
    var worstAzimuthError = 0.0

    var directionShare: Double { fastReports == 0 ? 1 : Double(fastWithDirection) / Double(fastReports) }

    init(_ fixes: [Fix], tracker: MovementTracker = MovementTracker()) throws {
        var tracker = tracker
        var previous: Fix?
        for fix in fixes {
            let before = tracker.totalDistance
            guard let report = tracker.process(fix).report else {
                Issue.record("fix not reported: \(fix)")
                continue
            }
            if let p = previous, (p.speed ?? 0) < 0.5, (fix.speed ?? 0) < 0.5, p.speed != nil, fix.speed != nil {
                stillAdded += tracker.totalDistance - before
            }
            if (fix.speed ?? 0) >= 1, report.leg != nil {
                fastReports += 1
                if report.direction != nil { fastWithDirection += 1 }
            }
            if let p = previous, let leg = report.leg {
                let a = try GeoPoint(latitude: p.lat ?? .nan, longitude: p.lon ?? .nan)
                let b = try GeoPoint(latitude: fix.lat ?? .nan, longitude: fix.lon ?? .nan)
                let check = Geodesic.inverse(a, b)
                worstDistanceError = max(worstDistanceError, abs(leg.distance - check.distance))
                worstAzimuthError = max(worstAzimuthError, abs(remainder(leg.azimuth - check.azimuth1, 360)))
            }
            reports.append(report)
            previous = fix
        }
    }
}

@Suite("Movement reports on gpsd's output for real receiver logs")
struct RealLogTests {
    /// Every log: one report per epoch at gpsd's exact position, legs equal to the geodesic, a
    /// direction in at least 90 % of reports while the receiver says ≥ 1 m/s, and at most 2 m added
    /// while it says it is (nearly) still. `moving` is how many epochs report ≥ 1 m/s, so the test
    /// cannot pass on an empty log.
    @Test(arguments: [("bt451.log", 12, 4), ("haicom-305N.log", 67, 43), ("nl2008u.log", 9, 5),
                      ("stationary-jitter.log", 30, 0), ("course-reversal.log", 25, 24)])
    func rulesHoldOnRealLogs(log: String, epochs: Int, moving: Int) throws {
        let fixes = try gpsdEpochs(log)
        #expect(fixes.count == epochs)
        let measure = try TrackMeasure(fixes)
        #expect(measure.reports.count == fixes.count)
        #expect(measure.reports.map(\.fix) == fixes)
        #expect(measure.reports.map(\.sequence) == Array(1...fixes.count))
        #expect(measure.worstDistanceError == 0 && measure.worstAzimuthError == 0)
        #expect(measure.fastReports == moving)
        #expect(measure.directionShare >= 0.9, "\(measure.fastWithDirection) of \(measure.fastReports)")
        #expect(measure.stillAdded <= 2, "still receiver added \(measure.stillAdded) m")
        for report in measure.reports where (report.fix.speed ?? 0) >= 1 {
            #expect(!report.isStationary)
        }
    }

    @Test func stationaryJitterIsStationaryAndAddsNothing() throws {
        let measure = try TrackMeasure(try gpsdEpochs("stationary-jitter.log"))
        #expect(measure.reports.dropFirst().allSatisfy { $0.isStationary && $0.direction == nil && $0.course == nil })
        #expect(measure.reports.last?.totalDistance ?? 99 <= 2)
        let leg = try #require(measure.reports.last?.leg)
        #expect(formatMovement(leg) == "stationary")
        #expect(formatMovement(leg, language: .zh) == "静止")
    }

    @Test func courseReversalCountsBothWays() throws {
        let measure = try TrackMeasure(try gpsdEpochs("course-reversal.log"))
        let total = try #require(measure.reports.last?.totalDistance)
        #expect(abs(total - 600) <= 6)
        #expect(measure.reports[1...12].allSatisfy { $0.direction == 0 })
        #expect(measure.reports[13...24].allSatisfy { $0.direction == 180 })
        let last = try #require(measure.reports.last?.leg)
        #expect(formatMovement(last, language: .zh) == "正南 移动了25米")
    }

    /// The car in bt451 (u-blox, 15.6 m/s, eph 24 m, gpsd's eps 41–44 m/s): legs of 8 m every
    /// half second, each within the fixes' error, and still never "stationary".
    @Test func carInBt451IsMovingWithItsCourse() throws {
        let fixes = try gpsdEpochs("bt451.log")
        let measure = try TrackMeasure(fixes)
        let fast = measure.reports.filter { ($0.fix.speed ?? 0) > 15 }
        #expect(fast.count == 4)
        for report in fast {
            let leg = try #require(report.leg)
            #expect(!leg.isDisplacementSignificant)
            #expect(leg.directionSource == .course)
            #expect(report.direction == report.fix.course)
            #expect(formatMovement(leg).hasPrefix("S4"))   // S41°W–S42°W
        }
        // The day-long jump (splice of two drives) and the step back in time count nothing; the
        // car's 1.5 s at ~16 m/s does.
        let total = try #require(measure.reports.last?.totalDistance)
        #expect(total > 20 && total < 28)
    }
}
