import Foundation
import Linear
import Testing
@testable import Geodesy

@Suite struct GeodesicRobustnessTests {
    /// Nearly antipodal pairs, where Vincenty's method fails to converge. The solution must be a
    /// real geodesic to point 2 (the direct problem from azi1 lands on it) and obey the
    /// triangle inequality against neighbours.
    @Test func nearlyAntipodalPointsConverge() throws {
        var cases: [(Double, Double, Double)] = [
            (0, 0.5, 179.5), (0, 0, 179.7), (-30, 29.9, 179.8), (0.1, -0.1, 179.9),
            (45, -45.01, 179.99), (80, -79.999, 179.999), (10, -10, 179.6031), (0, 0, 179.39659),
        ]
        var rng = SplitMix64(seed: 42)
        for _ in 0..<400 {
            let lat1 = (2 * rng.nextUnit() - 1) * 89
            cases.append((lat1, -lat1 + (2 * rng.nextUnit() - 1) * 0.5, 180 - rng.nextUnit() * 1.0))
        }
        for (lat1, lat2, lon2) in cases {
            let a = try GeoPoint(latitude: lat1, longitude: 0)
            let b = try GeoPoint(latitude: lat2, longitude: lon2)
            let sol = Geodesic.wgs84.solveInverse(latitude1: lat1, longitude1: 0, latitude2: lat2, longitude2: lon2)
            #expect(sol.iterations < Tolerance.maxIterations, "\(lat1) \(lat2) \(lon2)")
            let r = Geodesic.inverse(a, b)
            #expect(r.distance.isFinite && r.azimuth1.isFinite && r.azimuth2.isFinite)
            let end = try Geodesic.direct(from: a, azimuth: r.azimuth1, distance: r.distance)
            let miss = Geodesic.inverse(end.point, b).distance
            #expect(miss <= 1e-7, "\(lat1) \(lat2) \(lon2): lands \(miss) m away")
            // |d(a, b) − d(a, b′)| ≤ d(b, b′) for a neighbour b′ of b.
            let nearby = try GeoPoint(latitude: lat2 + 1e-4 * (lat2 < 0 ? 1 : -1), longitude: lon2 - 1e-4)
            let step = Geodesic.inverse(b, nearby).distance
            #expect(abs(Geodesic.inverse(a, nearby).distance - r.distance) <= step + 1e-8)
        }
    }

    /// Seeded random global pairs: no NaN, azimuths in [0, 360), and the direct problem
    /// retraces every inverse solution.
    @Test func randomGlobalPairsRoundTrip() throws {
        var rng = SplitMix64(seed: 2025)
        let limit = 2 * meridianArc(90) + 1e-6
        for _ in 0..<5000 {
            let a = try GeoPoint(latitude: asin(2 * rng.nextUnit() - 1) * 180 / Double.pi,
                                 longitude: 360 * rng.nextUnit() - 180)
            let b = try GeoPoint(latitude: asin(2 * rng.nextUnit() - 1) * 180 / Double.pi,
                                 longitude: 360 * rng.nextUnit() - 180)
            let r = Geodesic.inverse(a, b)
            #expect(r.distance >= 0 && r.distance <= limit)
            #expect(r.azimuth1 >= 0 && r.azimuth1 < 360 && r.azimuth2 >= 0 && r.azimuth2 < 360)
            let d = try Geodesic.direct(from: a, azimuth: r.azimuth1, distance: r.distance)
            #expect(Geodesic.inverse(d.point, b).distance <= 1e-7)
            #expect(angleDifference(d.azimuth2, r.azimuth2) <= 1e-7)
        }
    }

    @Test func invalidPointsAreTypedErrors() {
        #expect(throws: GeodesyError.latitudeOutOfRange(90.000001)) {
            try GeoPoint(latitude: 90.000001, longitude: 0)
        }
        #expect(throws: GeodesyError.latitudeOutOfRange(-91)) { try GeoPoint(latitude: -91, longitude: 0) }
        #expect(throws: GeodesyError.nonFiniteCoordinate) { try GeoPoint(latitude: .nan, longitude: 0) }
        #expect(throws: GeodesyError.nonFiniteCoordinate) { try GeoPoint(latitude: 0, longitude: .infinity) }
        #expect(throws: GeodesyError.nonFiniteCoordinate) { try GeoPoint(latitude: -.infinity, longitude: 0) }
        #expect((try? GeoPoint(latitude: 90, longitude: 1e6)) != nil)
        #expect(GeodesyError.latitudeOutOfRange(95).message.contains("95"))
    }

    @Test func invalidDirectInputsAreTypedErrors() throws {
        let p = try GeoPoint(latitude: 10, longitude: 20)
        #expect(throws: GeodesyError.nonFiniteAzimuth) { try Geodesic.direct(from: p, azimuth: .nan, distance: 1) }
        #expect(throws: GeodesyError.nonFiniteDistance) { try Geodesic.direct(from: p, azimuth: 0, distance: .infinity) }
        #expect(throws: GeodesyError.unsupportedEllipsoid(equatorialRadius: -1, flattening: 0)) {
            try Geodesic(equatorialRadius: -1, flattening: 0)
        }
        #expect(throws: GeodesyError.self) { try Geodesic(equatorialRadius: 6e6, flattening: 0.5) }
    }

    @Test func directExtremesStayFinite() throws {
        let starts = [try GeoPoint(latitude: 90, longitude: 0), try GeoPoint(latitude: -90, longitude: 45),
                      try GeoPoint(latitude: 0, longitude: 180), try GeoPoint(latitude: 33, longitude: -7)]
        for p in starts {
            for azimuth in [0.0, 90, 180, 270, -45, 1e9, 359.9999999999] {
                for distance in [0.0, 1e-9, -5000, 1e7, 2.0003931458e7, 4e7, 1e12, -1e15, 1e300] {
                    let d = try Geodesic.direct(from: p, azimuth: azimuth, distance: distance)
                    #expect(d.point.latitude.isFinite && abs(d.point.latitude) <= 90)
                    #expect(d.point.longitude.isFinite && abs(d.point.longitude) <= 180)
                    #expect(d.azimuth2 >= 0 && d.azimuth2 < 360)
                }
            }
            let stay = try Geodesic.direct(from: p, azimuth: 10, distance: 0)
            #expect(abs(stay.point.latitude - p.latitude) <= 1e-12)
        }
        // An eastward start on the equator stays on it.
        let east = try Geodesic.direct(from: try GeoPoint(latitude: 0, longitude: 0), azimuth: 90, distance: 1e6)
        #expect(east.point.latitude == 0)
        #expect(abs(east.point.longitude - 1e6 / 6_378_137 * 180 / Double.pi) <= 1e-12)
    }
}
