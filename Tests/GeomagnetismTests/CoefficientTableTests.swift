import Foundation
import Geomagnetism
import Testing

/// The generated Swift table must equal the committed official coefficient file, number for number.
@Suite struct CoefficientTableTests {
    @Test func everyCoefficientMatchesTheCommittedFile() throws {
        let lines = try Fixture.lines("WMM2025.COF")
        let header = lines[0].split(separator: " ")
        let model = WorldMagneticModel.wmm2025
        #expect(Double(header[0]) == model.epoch)
        #expect(String(header[1]) == model.name)

        var parsed: [GaussCoefficient] = []
        for line in lines.dropFirst() {
            if line.allSatisfy({ $0 == "9" }) { break }
            let f = line.split(separator: " ")
            try #require(f.count == 6, "bad line: \(line)")
            let n = try #require(Int(f[0])), m = try #require(Int(f[1]))
            let v = try f[2...5].map { try #require(Double($0)) }
            parsed.append(GaussCoefficient(n: n, m: m, g: v[0], h: v[1], gDot: v[2], hDot: v[3]))
        }
        #expect(parsed.count == 90)
        #expect(model.coefficients.count == parsed.count)
        for (file, table) in zip(parsed, model.coefficients) {
            #expect(file == table, "coefficient (\(file.n), \(file.m)) differs from the generated table")
        }
    }

    @Test func validityIntervalIsFiveYearsFromTheEpoch() {
        let model = WorldMagneticModel.wmm2025
        #expect(model.validFrom == 2025.0)
        #expect(model.validUntil == 2030.0)
    }
}
