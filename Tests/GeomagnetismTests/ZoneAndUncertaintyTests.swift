import Foundation
import Geomagnetism
import Testing

@Suite struct ZoneAndUncertaintyTests {
    let model = WorldMagneticModel.wmm2025

    @Test func zoneThresholds() {
        #expect(MagneticZone(horizontalIntensity: 0) == .blackout)
        #expect(MagneticZone(horizontalIntensity: 1999.999) == .blackout)
        #expect(MagneticZone(horizontalIntensity: 2000) == .caution)
        #expect(MagneticZone(horizontalIntensity: 5999.999) == .caution)
        #expect(MagneticZone(horizontalIntensity: 6000) == .normal)
        #expect(MagneticZone(horizontalIntensity: 40_000) == .normal)
    }

    @Test func zonesOfTheOfficialTestPoints() throws {
        // H from the official file decides the zone; our field must land in the same one.
        let rows = try Fixture.lines("WMM2025_TEST_VALUES.txt").filter { !$0.hasPrefix("#") }
        var seen = Set<MagneticZone>()
        for row in rows {
            let v = row.split(separator: " ").compactMap { Double($0) }
            let field = try model.field(at: GeodeticPoint(latitude: v[2], longitude: v[3], heightKm: v[1]),
                                        decimalYear: v[0])
            let expected: MagneticZone = v[6] < 2000 ? .blackout : (v[6] < 6000 ? .caution : .normal)
            #expect(field.zone == expected, "zone at \(row.prefix(40))")
            seen.insert(field.zone)
        }
        #expect(seen == Set(MagneticZone.allCases), "the file covers all three zones")
    }

    @Test func declinationUncertaintyFormula() {
        for h in [500.0, 2000, 5417, 6000, 12_345.6, 30_000, 41_000] {
            let expected = (0.26 * 0.26 + (5417 / h) * (5417 / h)).squareRoot()
            #expect(abs(model.uncertainty(horizontalIntensity: h).declination - expected) < 1e-12)
        }
        // Large H: the constant term dominates. Tiny H: capped at 180 degrees, never infinite.
        #expect(abs(model.uncertainty(horizontalIntensity: 1e12).declination - 0.26) < 1e-9)
        #expect(model.uncertainty(horizontalIntensity: 1).declination == 180)
        #expect(model.uncertainty(horizontalIntensity: 0).declination == 180)
        #expect(model.uncertainty(horizontalIntensity: .nan).declination == 180)
    }

    @Test func otherComponentUncertaintiesAreNOAAsWMM2025Values() {
        let u = model.uncertainty(horizontalIntensity: 20_000)
        #expect([u.north, u.east, u.down, u.horizontal, u.total] == [137, 89, 141, 133, 138])
        #expect(u.inclination == 0.20)
    }

    @Test func fieldCarriesTheUncertaintyOfItsOwnH() throws {
        for (lat, lon) in [(80.0, -96.0), (0, 120), (-60, 140), (45, 5)] {
            let f = try model.field(at: GeodeticPoint(latitude: lat, longitude: lon), decimalYear: 2026)
            let expected = min(180, (0.26 * 0.26 + pow(5417 / f.horizontal, 2)).squareRoot())
            #expect(abs(f.declinationUncertainty - expected) < 1e-12)
            #expect(f.uncertainty.declination == f.declinationUncertainty)
        }
    }
}
