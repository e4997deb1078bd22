import Foundation
import Geomagnetism
import Testing

/// Agreement with an independent 40-digit evaluation of the same model
/// (Tests/Fixtures/wmm/make_reference_values.py), including points within metres of both poles
/// and the poles themselves. NOAA's own test values carry X errors up to ~7e-4 nT; this
/// reference (agreement ~1e-10 nT) lets the check be a thousand times tighter.
@Suite struct ReferenceValuesTests {
    @Test func matchesTheHighPrecisionReference() throws {
        let lines = try Fixture.lines("reference_values.csv")
        #expect(lines.first == "date,height_km,lat,lon,X,Y,Z")
        let rows = lines.dropFirst()
        #expect(rows.count >= 16)
        var poles = 0
        for line in rows {
            let v = try line.split(separator: ",").map { try #require(Double($0), "bad number in \(line)") }
            try #require(v.count == 7)
            if abs(v[2]) == 90 { poles += 1 }
            let field = try WorldMagneticModel.wmm2025.field(
                at: GeodeticPoint(latitude: v[2], longitude: v[3], heightKm: v[1]), decimalYear: v[0])
            #expect(abs(field.north - v[4]) <= 1e-6, "X at \(line): got \(field.north)")
            #expect(abs(field.east - v[5]) <= 1e-6, "Y at \(line): got \(field.east)")
            #expect(abs(field.down - v[6]) <= 1e-6, "Z at \(line): got \(field.down)")
        }
        #expect(poles >= 4, "the reference includes both poles")
    }
}
