import Foundation
import Testing
@testable import Geodesy

/// The direct problem against all 10 000 lines of GeodTest-short.
@Suite struct GeodTestDirectTests {
    let lines: [GeodTestLine]
    init() throws { lines = try loadGeodTest() }

    /// Distance in metres between two nearby points, from the local metric of WGS84.
    func positionError(_ lat: Double, _ lon: Double, _ refLat: Double, _ refLon: Double) -> Double {
        let a = 6_378_137.0, e2 = 0.006694379990141317
        let phi = refLat * Double.pi / 180
        let w = (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        let meridional = a * (1 - e2) / (w * w * w)  // radius of curvature in the meridian
        let prime = a / w  // in the prime vertical
        let dNorth = (lat - refLat) * Double.pi / 180 * meridional
        let dEast = angleDifference(lon, refLon) * Double.pi / 180 * prime * cos(phi)
        return (dNorth * dNorth + dEast * dEast).squareRoot()
    }

    @Test func positionWithin15Nanometres() {
        var worst = 0.0
        for line in lines {
            let d = Geodesic.wgs84.solveDirect(latitude1: line.lat1, longitude1: line.lon1,
                                               azimuth1: line.azi1, distance: line.s12)
            let error = positionError(d.latitude, d.longitude, line.lat2, line.lon2)
            worst = max(worst, error)
            #expect(error <= 15e-9, "line \(line): position error \(error * 1e9) nm")
        }
        print("GeodTest-short direct: max position error \(worst * 1e9) nm")
    }

    @Test func arrivalAzimuthAccurate() {
        var worst = 0.0
        var worstScaled = 0.0
        for line in lines {
            let d = Geodesic.wgs84.solveDirect(latitude1: line.lat1, longitude1: line.lon1,
                                               azimuth1: line.azi1, distance: line.s12)
            let error = angleDifference(d.azimuth2, line.azi2)
            if abs(line.lat2) < 89 {
                worst = max(worst, error)
                #expect(error <= 1e-11, "line \(line): azi2 error \(error)°")
            } else {
                // Near a pole the azimuth turns quickly with position: judge the error by the
                // sideways distance it makes at the distance a·cos(lat2) from the axis.
                let scaled = error * Double.pi / 180 * 6_378_137 * cos(line.lat2 * Double.pi / 180)
                worstScaled = max(worstScaled, scaled)
                #expect(scaled <= 10e-9, "line \(line): azi2 error \(error)°")
            }
        }
        print("GeodTest-short direct: max azi2 error \(worst)° (|lat2| < 89°); "
              + "within 1° of a pole, error × distance from the axis \(worstScaled * 1e9) nm")
    }

    @Test func publicAPIMatches() throws {
        for line in lines.prefix(2000) {
            let start = try GeoPoint(latitude: line.lat1, longitude: line.lon1)
            let d = try Geodesic.direct(from: start, azimuth: line.azi1, distance: line.s12)
            let error = positionError(d.point.latitude, d.point.longitude, line.lat2, line.lon2)
            #expect(error <= 15e-9)
            #expect(d.azimuth2 >= 0 && d.azimuth2 < 360)
            #expect(d.point.longitude >= -180 && d.point.longitude <= 180)
        }
    }
}
