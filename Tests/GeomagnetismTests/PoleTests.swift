import Geomagnetism
import Testing

/// The field must be finite, continuous and correct at and next to both geographic poles.
///
/// At a pole the model's X and Y are taken in the frame of the meridian of the given longitude
/// (the limit along that meridian), so D varies with the longitude there while the grid
/// variation (D ∓ longitude), H, F, Z and I do not.
@Suite struct PoleTests {
    let model = WorldMagneticModel.wmm2025
    static let year = 2027.3

    func field(_ lat: Double, _ lon: Double, _ height: Double = 0) throws -> MagneticField {
        try model.field(at: GeodeticPoint(latitude: lat, longitude: lon, heightKm: height),
                        decimalYear: Self.year)
    }

    @Test(arguments: [90.0, -90.0])
    func poleValuesAreTheLimitAlongEachMeridian(pole: Double) throws {
        let sign = pole > 0 ? 1.0 : -1.0
        for lon in stride(from: -180.0, through: 180.0, by: 22.5) {
            let atPole = try field(pole, lon)
            // Approaching along the meridian: the difference shrinks in proportion to the distance
            // (field gradients are below 1000 nT per degree of latitude anywhere near the poles).
            for k in 1...9 {
                let delta = pow10(-Double(k))
                let near = try field(pole - sign * delta, lon)
                let bound = 1000 * delta + 1e-6
                #expect(abs(near.north - atPole.north) <= bound, "X at \(pole - sign * delta), \(lon)")
                #expect(abs(near.east - atPole.east) <= bound, "Y at \(pole - sign * delta), \(lon)")
                #expect(abs(near.down - atPole.down) <= bound, "Z at \(pole - sign * delta), \(lon)")
                #expect(angleDifference(near.declination, atPole.declination) <= 100 * delta + 1e-9)
            }
            let closest = try field(sign * 89.999_999_999, lon)
            #expect(abs(closest.north - atPole.north) < 1e-4)
            #expect(abs(closest.east - atPole.east) < 1e-4)
            #expect(angleDifference(closest.declination, atPole.declination) < 1e-6)
        }
    }

    @Test(arguments: [90.0, -90.0, 89.999_999, -89.999_999, 89.999, -89.999])
    func gridVariationDoesNotDependOnTheMeridian(latitude: Double) throws {
        // GV is the declination in the polar grid frame: the same physical direction whichever
        // meridian the local frame is taken from.
        let reference = try field(latitude, 0)
        let gv0 = try #require(reference.gridVariation)
        // Off the pole the points on one parallel are up to `spanKm` apart, and the field changes
        // by less than 20 nT and 0.1 degree per km there.
        let spanKm = 2 * (90 - abs(latitude)) * 111.2
        for lon in stride(from: -180.0, through: 360.0, by: 15) {
            let f = try field(latitude, lon)
            let gv = try #require(f.gridVariation)
            #expect(angleDifference(gv, gv0) <= 1e-9 + 0.1 * spanKm, "GV at \(latitude), \(lon): \(gv) vs \(gv0)")
            #expect(abs(f.horizontal - reference.horizontal) <= 1e-9 + 20 * spanKm)
            #expect(abs(f.down - reference.down) <= 1e-9 + 20 * spanKm)
        }
    }

    @Test func southPoleStationNeighbourhoodIsSmooth() throws {
        // Within a few hundred metres of the south pole (where a naive 1/cos φ term breaks down),
        // the declination in grid terms varies smoothly with distance.
        var previous: Double? = nil
        for metres in [0.0, 0.01, 0.1, 1, 10, 50, 100, 150, 200, 300, 500] {
            let lat = -90 + metres / 111_000
            let f = try field(lat, 139.27, 2.8)
            let gv = try #require(f.gridVariation)
            if let previous { #expect(angleDifference(gv, previous) < 0.05, "GV jump at \(metres) m") }
            previous = gv
            #expect(f.horizontal > 10_000 && f.total > 50_000)
        }
    }

    @Test func declinationFastPathAgreesAtThePoles() throws {
        for lat in [90.0, -90.0, 89.999_999_9, -89.999_999_9] {
            for lon in [-180.0, -45, 0, 90, 180, 270] {
                let d = try model.declination(latitude: lat, longitude: lon, heightKm: 0, decimalYear: Self.year)
                #expect(d == (try field(lat, lon)).declination)
            }
        }
    }
}

/// |a − b| on the circle, degrees.
func angleDifference(_ a: Double, _ b: Double) -> Double {
    let d = abs((a - b).truncatingRemainder(dividingBy: 360))
    return min(d, 360 - d)
}

func pow10(_ x: Double) -> Double {
    var result = 1.0
    if x >= 0 { for _ in 0..<Int(x) { result *= 10 } } else { for _ in 0..<Int(-x) { result /= 10 } }
    return result
}
