import Linear
import Geomagnetism
import Testing

/// No output may be NaN (or infinite) anywhere in the model's domain.
@Suite struct SweepTests {
    @Test func fixedSeedSweepOfTheGlobeHasNoNaN() throws {
        let model = WorldMagneticModel.wmm2025
        var random = SplitMix64(seed: 20_250_101)
        var points: [(GeodeticPoint, Double)] = []
        for _ in 0..<20_000 {
            points.append((GeodeticPoint(latitude: .random(in: -90...90, using: &random),
                                         longitude: .random(in: -180...360, using: &random),
                                         heightKm: .random(in: -1...850, using: &random)),
                           .random(in: 2025...2030, using: &random)))
        }
        // The special places: poles, the date line, the domain edges.
        for lat in [-90.0, -89.999_999_999, -55, 0, 55, 89.999_999_999, 90] {
            for lon in [-180.0, -179.999_999, 0, 179.999_999, 180, 359.999, 360] {
                for h in [-1.0, 0, 850] {
                    for year in [2025.0, 2030.0] { points.append((GeodeticPoint(latitude: lat, longitude: lon, heightKm: h), year)) }
                }
            }
        }
        for (point, year) in points {
            let f = try model.field(at: point, decimalYear: year)
            let s = f.secular
            let values = [f.north, f.east, f.down, f.horizontal, f.total, f.inclination, f.declination,
                          s.north, s.east, s.down, s.horizontal, s.total, s.inclination, s.declination,
                          f.declinationUncertainty, f.gridVariation ?? 0, s.gridVariation ?? 0]
            let allFinite = values.allSatisfy(\.isFinite)
            #expect(allFinite, "non-finite output at \(point), \(year)")
            #expect(f.declination > -180 && f.declination <= 180)
            #expect(f.inclination >= -90 && f.inclination <= 90)
            #expect(f.total >= f.horizontal && f.horizontal >= 0)
            #expect((f.gridVariation != nil) == (abs(point.latitude) >= 55))
            if let gv = f.gridVariation { #expect(gv > -180 && gv <= 180) }
            let d = try model.declination(latitude: point.latitude, longitude: point.longitude,
                                          heightKm: point.heightKm, decimalYear: year)
            #expect(d == f.declination)
        }
    }
}
