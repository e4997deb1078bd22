import Geomagnetism
import Testing

@Suite struct ValidityTests {
    let model = WorldMagneticModel.wmm2025
    let somewhere = GeodeticPoint(latitude: 51.5, longitude: -0.1, heightKm: 0.05)

    @Test(arguments: [2025.0, 2025.000_001, 2027.5, 2029.999_999, 2030.0])
    func datesInsideTheIntervalAreNotFlagged(year: Double) throws {
        let f = try model.field(at: somewhere, decimalYear: year)
        #expect(!f.isExtrapolated)
        let g = try model.field(at: somewhere, decimalYear: year, allowExtrapolation: true)
        #expect(!g.isExtrapolated)
        #expect(g == f)
    }

    @Test(arguments: [2024.999_999, 2020.0, 2030.000_001, 2031.2, 2100.0])
    func datesOutsideTheIntervalThrowUnlessAllowed(year: Double) throws {
        #expect(throws: GeomagnetismError.outsideValidity(year: year, validFrom: 2025, validUntil: 2030)) {
            try model.field(at: somewhere, decimalYear: year)
        }
        #expect(throws: GeomagnetismError.outsideValidity(year: year, validFrom: 2025, validUntil: 2030)) {
            try model.declination(latitude: 51.5, longitude: -0.1, heightKm: 0, decimalYear: year)
        }
        let f = try model.field(at: somewhere, decimalYear: year, allowExtrapolation: true)
        #expect(f.isExtrapolated)
        #expect(f.declination.isFinite && f.total.isFinite)
        let d = try model.declination(latitude: 51.5, longitude: -0.1, heightKm: 0.05, decimalYear: year,
                                      allowExtrapolation: true)
        #expect(d == f.declination)
    }

    @Test func messagesTellTheUserWhatToDo() {
        let e = GeomagnetismError.outsideValidity(year: 2031.2, validFrom: 2025, validUntil: 2030)
        #expect(e.message.contains("2031.2"))
        #expect(e.message.contains("--allow-extrapolation"))
        #expect(GeomagnetismError.invalidLatitude(91).message.contains("between -90"))
        #expect(GeomagnetismError.invalidLongitude(400).message.contains("400"))
        #expect(GeomagnetismError.invalidHeight(900).message.contains("850"))
        #expect(GeomagnetismError.nonFinite(quantity: "height").message.contains("height"))
        #expect(e.description == e.message)
    }

    @Test func outOfRangeInputsThrowTypedErrors() {
        func attempt(_ lat: Double, _ lon: Double, _ h: Double, _ year: Double = 2026) -> GeomagnetismError? {
            do {
                _ = try model.field(at: GeodeticPoint(latitude: lat, longitude: lon, heightKm: h), decimalYear: year)
                return nil
            } catch {
                // The fast path must refuse the same input the same way.
                #expect(throws: error) {
                    try model.declination(latitude: lat, longitude: lon, heightKm: h, decimalYear: year)
                }
                return error
            }
        }
        #expect(attempt(90.000_001, 0, 0) == .invalidLatitude(90.000_001))
        #expect(attempt(-91, 0, 0) == .invalidLatitude(-91))
        #expect(attempt(0, -180.5, 0) == .invalidLongitude(-180.5))
        #expect(attempt(0, 360.5, 0) == .invalidLongitude(360.5))
        #expect(attempt(0, 0, 850.1) == .invalidHeight(850.1))
        #expect(attempt(0, 0, -1.01) == .invalidHeight(-1.01))
        #expect(attempt(.nan, 0, 0) == .nonFinite(quantity: "latitude"))
        #expect(attempt(0, .infinity, 0) == .nonFinite(quantity: "longitude"))
        #expect(attempt(0, 0, -.infinity) == .nonFinite(quantity: "height"))
        #expect(attempt(0, 0, 0, .nan) == .nonFinite(quantity: "date"))
        // The edges of every range are accepted.
        #expect(attempt(90, -180, -1) == nil)
        #expect(attempt(-90, 360, 850) == nil)
    }
}
