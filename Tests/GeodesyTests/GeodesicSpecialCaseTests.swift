import Foundation
import Linear
import Testing
@testable import Geodesy

/// Meridian arc length from the equator to latitude φ (degrees) on WGS84, by Simpson's rule:
/// an independent check on the series solution.
func meridianArc(_ latitudeDegrees: Double) -> Double {
    let a = 6_378_137.0, f = 1 / 298.257223563
    let e2 = f * (2 - f)
    let phi = latitudeDegrees * Double.pi / 180
    let steps = 4000
    let h = phi / Double(steps)
    func g(_ t: Double) -> Double { pow(1 - e2 * sin(t) * sin(t), -1.5) }
    var sum = g(0) + g(phi)
    for i in 1..<steps { sum += (i % 2 == 1 ? 4 : 2) * g(Double(i) * h) }
    return a * (1 - e2) * sum * h / 3
}

func point(_ lat: Double, _ lon: Double) throws -> GeoPoint {
    try GeoPoint(latitude: lat, longitude: lon)
}

@Suite struct GeodesicSpecialCaseTests {
    let halfMeridian = 2 * meridianArc(90)

    @Test func exactlyAntipodalPointsAreHalfAMeridianApart() throws {
        for lat in [0.0, 0.5, 10, 45, 60, 89.9, -30, -89.99] {
            for lon in [0.0, 17.5, -120, 179] {
                let r = Geodesic.inverse(try point(lat, lon), try point(-lat, lon + 180))
                #expect(abs(r.distance - halfMeridian) <= 1e-6, "lat \(lat) lon \(lon): \(r.distance)")
                #expect(r.azimuth1.isFinite && r.azimuth2.isFinite)
            }
        }
    }

    @Test func polesToPoles() throws {
        for lon1 in [0.0, 45, -170] {
            for lon2 in [0.0, 90, 180] {
                let opposite = Geodesic.inverse(try point(90, lon1), try point(-90, lon2))
                #expect(abs(opposite.distance - halfMeridian) <= 1e-6)
                #expect(Geodesic.inverse(try point(90, lon1), try point(90, lon2)).distance == 0)
                #expect(Geodesic.inverse(try point(-90, lon1), try point(-90, lon2)).distance == 0)
            }
        }
        // From the north pole every direction is south: arriving at the equator heading 180°.
        let down = Geodesic.inverse(try point(90, 0), try point(0, 30))
        #expect(abs(down.distance - meridianArc(90)) <= 1e-6)
        #expect(angleDifference(down.azimuth2, 180) <= 1e-12)
    }

    @Test func coincidentPointsAreZeroApart() throws {
        for lat in [-90.0, -89.999999, -45, -1e-12, 0, 1e-300, 20.001, 60, 90] {
            for lon in [-180.0, -33.3, 0, 123.456, 180] {
                let p = try point(lat, lon)
                let r = Geodesic.inverse(p, p)
                #expect(r.distance == 0, "\(lat) \(lon)")
                #expect(r.azimuth1.isFinite && r.azimuth2.isFinite)
                #expect(r.azimuth1 >= 0 && r.azimuth1 < 360)
            }
        }
        // The same point written with longitudes 360° apart.
        #expect(Geodesic.inverse(try point(12, -170), try point(12, 190)).distance == 0)
        // Huge longitudes are reduced exactly.
        let far = Geodesic.inverse(try point(10, 1e6 + 30), try point(-10, -1e6 + 10))
        let near = Geodesic.inverse(try point(10, 30 + 1e6.truncatingRemainder(dividingBy: 360)),
                                    try point(-10, 10 - 1e6.truncatingRemainder(dividingBy: 360)))
        #expect(far == near)
        #expect(Geodesic.inverse(try point(10, 1e300), try point(-10, -1e300)).distance.isFinite)
    }

    @Test func alongTheEquator() throws {
        let a = 6_378_137.0
        for lon in [1e-9, 0.5, 45, 90, 135, 179.39] {
            let r = Geodesic.inverse(try point(0, 10), try point(0, 10 + lon))
            #expect(abs(r.distance - a * lon * Double.pi / 180) <= 1e-8, "\(lon)")
            #expect(r.azimuth1 == 90 && r.azimuth2 == 90)
            let back = Geodesic.inverse(try point(0, 10 + lon), try point(0, 10))
            #expect(back.azimuth1 == 270 && back.azimuth2 == 270)
        }
        // Beyond (1 − f)·180° of longitude the shortest path leaves the equator.
        let far = Geodesic.inverse(try point(0, 0), try point(0, 179.8))
        #expect(far.distance < a * 179.8 * Double.pi / 180)
        #expect(far.azimuth1 != 90)
    }

    @Test func alongAMeridian() throws {
        let pairs: [(Double, Double)] = [(0, 10), (-30, 45), (12.5, 89.999), (-89, 89), (70, -20)]
        for (lat1, lat2) in pairs {
            for lon in [0.0, 77] {
                let r = Geodesic.inverse(try point(lat1, lon), try point(lat2, lon))
                // meridianArc is signed: negative south of the equator.
                let expected = abs(meridianArc(lat2) - meridianArc(lat1))
                #expect(abs(r.distance - expected) <= 1e-6, "\(lat1) → \(lat2): \(r.distance)")
                let heading: Double = lat2 > lat1 ? 0 : 180
                #expect(angleDifference(r.azimuth1, heading) <= 1e-12)
                #expect(angleDifference(r.azimuth2, heading) <= 1e-12)
            }
        }
        // Over the pole: meridians 180° apart.
        let over = Geodesic.inverse(try point(80, 0), try point(70, 180))
        #expect(abs(over.distance - (2 * meridianArc(90) - meridianArc(80) - meridianArc(70))) <= 1e-6)
        #expect(over.azimuth1 == 0 && over.azimuth2 == 180)
    }

    @Test func sphereMatchesGreatCircles() throws {
        let radius = 6_371_000.0
        let sphere = try Geodesic(equatorialRadius: radius, flattening: 0)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let lat1 = asin(2 * rng.nextUnit() - 1), lat2 = asin(2 * rng.nextUnit() - 1)
            let dlon = (2 * rng.nextUnit() - 1) * Double.pi
            let x = cos(lat2) * sin(dlon)
            let y = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(dlon)
            let z = sin(lat1) * sin(lat2) + cos(lat1) * cos(lat2) * cos(dlon)
            let angle = atan2((x * x + y * y).squareRoot(), z)
            let azimuth = atan2(x, y) * 180 / Double.pi
            let r = sphere.inverse(try point(lat1 * 180 / Double.pi, 0),
                                   try point(lat2 * 180 / Double.pi, dlon * 180 / Double.pi))
            #expect(abs(r.distance - radius * angle) <= 1e-6)
            if angle < 3.1 && angle > 1e-3 {
                #expect(angleDifference(r.azimuth1, azimuth) <= 1e-9)
            }
        }
    }
}
