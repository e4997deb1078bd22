import Foundation
import Testing
@testable import Geodesy

/// The inverse problem against all 10 000 lines of GeodTest-short.
///
/// s12 in the file is exact for the listed end points (it is the input of the direct problem
/// whose high-precision solution gave lat2, lon2), so it is the reference distance.
/// Azimuth errors are judged as δα·|m12|: the sideways miss at the far end that the error
/// causes. Where m12 → 0 (conjugate points) several geodesics share the same length and the
/// azimuth is not unique, which that measure accounts for.
@Suite struct GeodTestInverseTests {
    let lines: [GeodTestLine]
    init() throws { lines = try loadGeodTest() }

    @Test func fileHasAllLines() {
        #expect(lines.count == 10_000)
    }

    @Test func distanceWithin15Nanometres() {
        var worst = 0.0
        for line in lines {
            let r = Geodesic.wgs84.solveInverse(latitude1: line.lat1, longitude1: line.lon1,
                                                latitude2: line.lat2, longitude2: line.lon2)
            let error = abs(r.distance - line.s12)
            worst = max(worst, error)
            #expect(error <= 15e-9, "line \(line): s12 error \(error * 1e9) nm")
        }
        print("GeodTest-short inverse: max distance error \(worst * 1e9) nm")
    }

    @Test func azimuthsAccurate() {
        var worstScaled = 0.0
        var worstWellConditioned = 0.0
        for line in lines {
            let r = Geodesic.wgs84.solveInverse(latitude1: line.lat1, longitude1: line.lon1,
                                                latitude2: line.lat2, longitude2: line.lon2)
            let azi1 = AngleMath.atan2Degrees(r.sinAzimuth1, r.cosAzimuth1)
            let azi2 = AngleMath.atan2Degrees(r.sinAzimuth2, r.cosAzimuth2)
            let error = max(angleDifference(azi1, line.azi1), angleDifference(azi2, line.azi2))
            let miss = error * Double.pi / 180 * abs(line.m12)
            worstScaled = max(worstScaled, miss)
            #expect(miss <= 5e-9, "line \(line): azimuth error \(error)° (miss \(miss * 1e9) nm)")
            if abs(line.m12) > 1000 {
                worstWellConditioned = max(worstWellConditioned, error)
                #expect(error <= 1e-9, "line \(line): azimuth error \(error)°")
            }
        }
        print("GeodTest-short inverse: max azimuth miss δα·|m12| \(worstScaled * 1e9) nm; "
              + "max azimuth error where |m12| > 1 km: \(worstWellConditioned)°")
    }

    @Test func publicAPIMatchesAndIsNormalized() throws {
        for line in lines.prefix(2000) {
            let a = try GeoPoint(latitude: line.lat1, longitude: line.lon1)
            let b = try GeoPoint(latitude: line.lat2, longitude: line.lon2)
            let r = Geodesic.inverse(a, b)
            #expect(abs(r.distance - line.s12) <= 15e-9)
            #expect(r.azimuth1 >= 0 && r.azimuth1 < 360)
            #expect(r.azimuth2 >= 0 && r.azimuth2 < 360)
            if abs(line.m12) > 1000 {
                #expect(angleDifference(r.azimuth1, line.azi1) <= 1e-9)
                #expect(angleDifference(r.azimuth2, line.azi2) <= 1e-9)
            }
        }
    }

    @Test func swappingThePointsReversesTheLine() throws {
        for line in lines.prefix(3000) {
            let a = try GeoPoint(latitude: line.lat1, longitude: line.lon1)
            let b = try GeoPoint(latitude: line.lat2, longitude: line.lon2)
            let forward = Geodesic.inverse(a, b)
            let backward = Geodesic.inverse(b, a)
            #expect(abs(forward.distance - backward.distance) <= 15e-9)
            if abs(line.m12) > 1000 {
                // Travelling back along the same line: azi1' = azi2 + 180.
                #expect(angleDifference(backward.azimuth1, forward.azimuth2 + 180) <= 1e-9)
                #expect(angleDifference(backward.azimuth2, forward.azimuth1 + 180) <= 1e-9)
            }
        }
    }
}
