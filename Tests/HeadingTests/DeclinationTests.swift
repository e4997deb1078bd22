import Foundation
import Heading
import Linear
import Testing

/// A provider that counts calls and returns a field whose declination follows longitude.
final class CountingProvider: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [(Double, Double, Double)] = []
    var failing = false
    var zone = FieldZone.normal

    var provider: FieldProvider {
        { lat, lon, year in
            self.lock.lock(); defer { self.lock.unlock() }
            self.calls.append((lat, lon, year))
            if self.failing { return nil }
            return ExpectedField(declination: lon / 10, inclination: -64, totalField: 57.0,
                                 horizontalField: 25, zone: self.zone)
        }
    }
    var count: Int { lock.lock(); defer { lock.unlock() }; return calls.count }
    var lastYear: Double? { lock.lock(); defer { lock.unlock() }; return calls.last?.2 }
}

@Suite struct DeclinationTests {
    func estimate(yaw: Double, source: DeclinationSource, provider: FieldProvider? = nil) throws -> HeadingEstimate {
        var config = HeadingFilterConfiguration()
        config.declinationSource = source
        config.fieldProvider = provider
        var filter = HeadingFilter(configuration: config)
        let (m, a) = bodyReadings(yaw: yaw)
        let e = filter.update(sample: CalibratedSample(monotonic: 1, wall: 1_750_000_000, magnetic: m, acceleration: a))
        return try #require(e)
    }

    @Test func eastDeclinationAddsAndWrapsNorth() throws {
        let e = try estimate(yaw: 350, source: .manual(degrees: 12.5))
        #expect(e.magneticHeading.isApproximatelyEqual(to: 350, absoluteTolerance: 1e-9))
        #expect(try #require(e.trueHeading).isApproximatelyEqual(to: 2.5, absoluteTolerance: 1e-9))
        #expect(e.declination == 12.5 && e.declinationSource == .manual(degrees: 12.5))
        #expect(!e.flags.contains(.noDeclination))
    }

    @Test func westDeclinationSubtractsAndWrapsNorth() throws {
        let e = try estimate(yaw: 5, source: .manual(degrees: -15))
        #expect(try #require(e.trueHeading).isApproximatelyEqual(to: 350, absoluteTolerance: 1e-9))
    }

    @Test func noDeclinationMeansNoTrueHeading() throws {
        let e = try estimate(yaw: 40, source: .none)
        #expect(e.trueHeading == nil && e.declination == nil && e.trueAccuracy == nil)
        #expect(e.flags.contains(.noDeclination))
        #expect(e.declinationSource.label == "none")
        // A model source without a provider cannot give one either.
        let m = try estimate(yaw: 40, source: .location(latitude: -33.9, longitude: 151.2))
        #expect(m.trueHeading == nil && m.flags.contains(.noDeclination))
    }

    @Test func modelDeclinationComesFromTheProvider() throws {
        let counter = CountingProvider()
        let e = try estimate(yaw: 100, source: .wmm(latitude: -33.9, longitude: 151.2), provider: counter.provider)
        #expect(try #require(e.declination).isApproximatelyEqual(to: 15.12, absoluteTolerance: 1e-9))
        #expect(try #require(e.trueHeading).isApproximatelyEqual(to: 115.12, absoluteTolerance: 1e-9))
        #expect(try #require(e.trueAccuracy) > e.accuracy)
        #expect(counter.count == 1)
        #expect(try #require(counter.lastYear) > 2025.4 && counter.lastYear! < 2025.5)  // June 2025
    }

    @Test func blackoutAndCautionZonesAreFlagged() throws {
        let counter = CountingProvider()
        counter.zone = .blackout
        let b = try estimate(yaw: 10, source: .location(latitude: 85, longitude: 0), provider: counter.provider)
        #expect(b.flags.isSuperset(of: [.blackout, .caution]))
        counter.zone = .caution
        let c = try estimate(yaw: 10, source: .location(latitude: 80, longitude: 0), provider: counter.provider)
        #expect(c.flags.contains(.caution) && !c.flags.contains(.blackout))
    }

    @Test func aManualDeclinationWinsOverGNSS() {
        var filter = HeadingFilter()
        filter.updateFix(latitude: -33.9, longitude: 151.2)
        #expect(filter.declinationSource == .wmm(latitude: -33.9, longitude: 151.2))
        filter.setDeclinationSource(.manual(degrees: 3))
        filter.updateFix(latitude: -34, longitude: 151)
        #expect(filter.declinationSource == .manual(degrees: 3))
        filter.setDeclinationSource(.location(latitude: 1, longitude: 2))
        filter.updateFix(latitude: .nan, longitude: 0)
        #expect(filter.declinationSource == .location(latitude: 1, longitude: 2))
        filter.updateFix(latitude: 10, longitude: 20)
        #expect(filter.declinationSource.label == "wmm")
    }
}

@Suite struct DeclinationCacheTests {
    let wall = 1_750_000_000.0

    @Test func refreshesAfterAKilometreOrADay() throws {
        let counter = CountingProvider()
        var cache = DeclinationCache(provider: counter.provider)
        _ = cache.field(latitude: -33.87, longitude: 151.21, wall: wall)
        #expect(counter.count == 1)
        // 0.005° of latitude ≈ 556 m: cached.
        _ = cache.field(latitude: -33.875, longitude: 151.21, wall: wall + 60)
        #expect(counter.count == 1)
        // 0.012° of longitude at −33.9° ≈ 1.1 km: refreshed.
        let movedField = cache.field(latitude: -33.87, longitude: 151.222, wall: wall + 120)
        let moved = try #require(movedField)
        #expect(counter.count == 2 && !moved.stale)
        // A day later: refreshed.
        _ = cache.field(latitude: -33.87, longitude: 151.222, wall: wall + 120 + 86_401)
        #expect(counter.count == 3)
    }

    @Test func aFailedRefreshKeepsTheOldValueAsStaleAndRetriesLater() throws {
        let counter = CountingProvider()
        var cache = DeclinationCache(provider: counter.provider)
        _ = cache.field(latitude: 0, longitude: 10, wall: wall)
        counter.failing = true
        let staleField = cache.field(latitude: 0, longitude: 20, wall: wall + 1)
        let stale = try #require(staleField)
        #expect(stale.stale && stale.field.declination == 1)
        _ = cache.field(latitude: 0, longitude: 20, wall: wall + 2)
        #expect(counter.count == 2)  // not retried within a minute
        counter.failing = false
        let freshField = cache.field(latitude: 0, longitude: 20, wall: wall + 62)
        let fresh = try #require(freshField)
        #expect(counter.count == 3 && !fresh.stale && fresh.field.declination == 2)
    }

    @Test func noProviderOrBadPositionGivesNothing() {
        var cache = DeclinationCache(provider: nil)
        #expect(cache.field(latitude: 0, longitude: 0, wall: wall) == nil)
        let counter = CountingProvider()
        var c2 = DeclinationCache(provider: counter.provider)
        #expect(c2.field(latitude: 95, longitude: 0, wall: wall) == nil)
        #expect(c2.field(latitude: .nan, longitude: 0, wall: wall) == nil)
        #expect(counter.count == 0)
    }

    @Test func distanceIsRoughlyRight() {
        let d = DeclinationCache.distance(latitude: -33.87, longitude: 151.21, toLatitude: -33.86, longitude: 151.21)
        #expect(abs(d - 1112) < 2)
        // Across the antimeridian: 0.02° of longitude at the equator ≈ 2.2 km, not 40 000 km.
        let wrap = DeclinationCache.distance(latitude: 0, longitude: 179.99, toLatitude: 0, longitude: -179.99)
        #expect(abs(wrap - 2224) < 5)
    }

}
