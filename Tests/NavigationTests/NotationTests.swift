import Geodesy
import GNSS
import Navigation
import Testing

/// Two fixes `distance` metres apart at `azimuth`, each with horizontal error `eph` (nil: none).
func fixPair(distance: Double, azimuth: Double, eph: Double?,
             from start: (Double, Double) = (-33.8694, 151.1990)) throws -> (Fix, Fix) {
    let a = try GeoPoint(latitude: start.0, longitude: start.1)
    let b = try Geodesic.direct(from: a, azimuth: azimuth, distance: distance).point
    return (Fix(time: 1000, mode: .threeD, lat: a.latitude, lon: a.longitude, eph: eph),
            Fix(time: 1004, mode: .threeD, lat: b.latitude, lon: b.longitude, eph: eph))
}

/// The second report of a tracker fed the pair.
func secondReport(_ pair: (Fix, Fix), filter: Double = 0) -> MovementReport? {
    var tracker = MovementTracker(distanceFilter: filter)
    _ = tracker.process(pair.0)
    return tracker.process(pair.1).report
}

@Suite("Movement notation (English and Chinese)")
struct NotationTests {
    @Test func chineseQuadrantNotation() {
        #expect(formatMovement(Leg(distance: 12, azimuth: 30, errorRadius: 4), style: .quadrant(decimals: 0), language: .zh)
            == "北偏东30度 移动了12米")
        #expect(formatMovement(Leg(distance: 5, azimuth: 0, errorRadius: 4), style: .quadrant(decimals: 0), language: .zh)
            == "正北 移动了5米")
        #expect(formatMovement(Leg(distance: 250, azimuth: 225, errorRadius: 4), style: .quadrant(decimals: 0), language: .zh)
            == "西南 移动了250米")
    }

    @Test func englishQuadrantNotation() {
        #expect(formatMovement(Leg(distance: 12, azimuth: 30, errorRadius: 4), style: .quadrant(decimals: 0))
            == "N30°E, moved 12 m")
        #expect(formatMovement(Leg(distance: 12.4, azimuth: 200.2, errorRadius: 4), style: .quadrant(decimals: 0))
            == "S20°W, moved 12 m")
        #expect(formatMovement(Leg(distance: 5, azimuth: 0, errorRadius: 4), style: .quadrant(decimals: 0))
            == "N, moved 5 m")
    }

    @Test func otherStyles() {
        let leg = Leg(distance: 12, azimuth: 30, errorRadius: 4)
        #expect(formatMovement(leg, style: .degrees(decimals: 0)) == "30°, moved 12 m")
        #expect(formatMovement(leg, style: .points16) == "NNE, moved 12 m")
        #expect(formatMovement(leg, style: .points16, language: .zh) == "东北偏北 移动了12米")
        #expect(formatMovement(leg, style: .degrees(decimals: 0), language: .zh) == "30° 移动了12米")
    }

    @Test func stationaryHasNoDirection() {
        let leg = Leg(distance: 3, azimuth: 30, errorRadius: 4.24)
        #expect(leg.isStationary)
        #expect(formatMovement(leg, style: .quadrant(decimals: 0)) == "stationary")
        #expect(formatMovement(leg, style: .quadrant(decimals: 0), language: .zh) == "静止")
        #expect(!Leg(distance: 4.25, azimuth: 30, errorRadius: 4.24).isStationary)
    }

    @Test func distancesAndSpeeds() {
        #expect(formatDistance(0.4) == "0 m")
        #expect(formatDistance(999.4) == "999 m")
        #expect(formatDistance(1234) == "1.23 km")
        #expect(formatDistance(1234, language: .zh) == "1.23公里")
        #expect(formatDistance(12, language: .zh) == "12米")
        #expect(formatSpeed(4.25) == "4.3 m/s")
        #expect(formatSpeed(4.2, language: .zh) == "4.2米/秒")
    }

    /// The whole path: two real fixes through the tracker, then the notation.
    @Test func fromFixesToWords() throws {
        let moved = try #require(secondReport(try fixPair(distance: 12, azimuth: 30, eph: 2)))
        let leg = try #require(moved.leg)
        #expect(formatMovement(leg, style: .quadrant(decimals: 0)) == "N30°E, moved 12 m")
        #expect(formatMovement(leg, style: .quadrant(decimals: 0), language: .zh) == "北偏东30度 移动了12米")

        let north = try #require(secondReport(try fixPair(distance: 5, azimuth: 0, eph: 1)))
        #expect(formatMovement(try #require(north.leg), style: .quadrant(decimals: 0), language: .zh) == "正北 移动了5米")

        // Without error estimates each fix is taken as ±5 m: 5 m is within √(5² + 5²).
        let unsure = try #require(secondReport(try fixPair(distance: 5, azimuth: 0, eph: nil)))
        #expect(formatMovement(try #require(unsure.leg), language: .zh) == "静止")
        // Large errors make even a long move stationary.
        let noisy = try #require(secondReport(try fixPair(distance: 12, azimuth: 30, eph: 9)))
        #expect(formatMovement(try #require(noisy.leg)) == "stationary")
    }

    @Test func reportSummaries() throws {
        var tracker = MovementTracker()
        let (a, b) = try fixPair(distance: 12, azimuth: 30, eph: 2)
        let first = try #require(tracker.process(a).report)
        #expect(formatReportSummary(first) == "start")
        #expect(formatReportSummary(first, language: .zh) == "起点")
        let second = try #require(tracker.process(b).report)
        // No speed or course from the receiver: derived from the leg (12 m in 4 s, toward 30°).
        #expect(formatReportSummary(second) == "N30°E, moved 12 m; total 12 m; 3.0 m/s, course N30°E")
        #expect(formatReportSummary(second, language: .zh) == "北偏东30度 移动了12米；累计12米；速度3.0米/秒，航向北偏东30度")
        // At rest the receiver's course means nothing and is not shown.
        var resting = second
        resting.speed = 0.1
        resting.course = 281
        #expect(formatReportSummary(resting) == "N30°E, moved 12 m; total 12 m; 0.1 m/s")
    }
}
