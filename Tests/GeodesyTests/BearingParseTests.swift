import Testing
@testable import Geodesy

@Suite struct BearingParseTests {
    @Test(arguments: [
        ("123.4", 123.4), ("123.4°", 123.4), ("123.4T", 123.4), ("123.4 °M", 123.4), ("123°T", 123),
        ("  045 ", 45), ("360", 0), ("0", 0), ("359.99", 359.99), (".5", 0.5), ("7.", 7),
        ("123 deg", 123), ("123度", 123), ("123º", 123), ("+10", 10), ("-0", 0), ("90 M", 90),
    ])
    func degrees(_ text: String, _ expected: Double) throws {
        #expect(try parseBearing(text) == expected)
    }

    @Test func references() throws {
        #expect(try parseBearingWithReference("123.4T").reference == .trueNorth)
        #expect(try parseBearingWithReference("123.4 °m").reference == .magneticNorth)
        #expect(try parseBearingWithReference("123.4").reference == nil)
        #expect(try parseBearingWithReference("NNE (M)") == ParsedBearing(degrees: 22.5, reference: .magneticNorth))
        #expect(try parseBearingWithReference("N30°E (T)") == ParsedBearing(degrees: 30, reference: .trueNorth))
        #expect(try parseBearingWithReference("123°（真北）") == ParsedBearing(degrees: 123, reference: .trueNorth))
        #expect(try parseBearingWithReference("北偏东30度（磁北）") == ParsedBearing(degrees: 30, reference: .magneticNorth))
        #expect(try parseBearingWithReference("磁方位 200°") == ParsedBearing(degrees: 200, reference: .magneticNorth))
    }

    @Test func rejects() {
        #expect(throws: BearingParseError.empty) { try parseBearing("") }
        #expect(throws: BearingParseError.empty) { try parseBearing("   ") }
        #expect(throws: BearingParseError.degreesOutOfRange(400)) { try parseBearing("400") }
        #expect(throws: BearingParseError.degreesOutOfRange(-5)) { try parseBearing("-5") }
        #expect(throws: BearingParseError.degreesOutOfRange(360.5)) { try parseBearing("360.5°T") }
        #expect(throws: BearingParseError.quadrantAngleOutOfRange(91)) { try parseBearing("N91E") }
        #expect(throws: BearingParseError.quadrantAngleOutOfRange(100)) { try parseBearing("北偏东100度") }
        for bad in ["abc", "12.3.4", "1e5", "nan", "inf", "N30", "30E", "NNNE", "N30°N", "E30°N",
                    "北偏北30度", "偏东30度", "正东北", "T", "(M)", "123 TM", "北偏东"] {
            #expect(throws: BearingParseError.unrecognized(bad)) { try parseBearing(bad) }
        }
        #expect(BearingParseError.unrecognized("x").message.contains("N30°E"))
    }

    @Test func englishCompassPoints() throws {
        let names = ["N", "NbE", "NNE", "NEbN", "NE", "NEbE", "ENE", "EbN",
                     "E", "EbS", "ESE", "SEbE", "SE", "SEbS", "SSE", "SbE",
                     "S", "SbW", "SSW", "SWbS", "SW", "SWbW", "WSW", "WbS",
                     "W", "WbN", "WNW", "NWbW", "NW", "NWbN", "NNW", "NbW"]
        for (i, name) in names.enumerated() {
            #expect(try parseBearing(name) == Double(i) * 11.25)
            #expect(try parseBearing(name.lowercased()) == Double(i) * 11.25)
            #expect(try parseBearing(name.uppercased()) == Double(i) * 11.25)
        }
        #expect(try parseBearing("N by E") == 11.25)
        #expect(try parseBearing("North-Northeast") == 22.5)
        #expect(try parseBearing("northeast") == 45)
        #expect(try parseBearing("south west") == 225)
        #expect(try parseBearing("west by north") == 281.25)
    }

    @Test(arguments: [
        ("N30°E", 30.0), ("n 30 e", 30), ("S45W", 225), ("S45°E", 135), ("N60W", 300),
        ("N0E", 0), ("N0W", 0), ("S0W", 180), ("S0E", 180), ("N90E", 90), ("N90W", 270),
        ("S90W", 270), ("S90E", 90), ("N30.5°E", 30.5), ("s 12.25 ° w", 192.25),
        ("north 30 east", 30),
    ])
    func englishQuadrant(_ text: String, _ expected: Double) throws {
        #expect(try parseBearing(text) == expected)
    }

    @Test(arguments: [
        ("正北", 0.0), ("正东", 90), ("正南", 180), ("正西", 270), ("北", 0), ("东", 90),
        ("东北", 45), ("東北", 45), ("东南", 135), ("西南", 225), ("西北", 315),
        ("东北偏北", 22.5), ("东北偏东", 67.5), ("东南偏东", 112.5), ("东南偏南", 157.5),
        ("西南偏南", 202.5), ("西南偏西", 247.5), ("西北偏西", 292.5), ("西北偏北", 337.5),
        ("北微东", 11.25), ("北微西", 348.75), ("东北微北", 33.75),
        ("北偏东30度", 30), ("南偏西45度", 225), ("南偏东20°", 160), ("北偏西10度", 350),
        ("北偏东 30 度", 30), ("北偏东30", 30), ("北偏东0度", 0), ("南偏西90度", 270),
        ("东偏北30度", 60), ("西偏南30度", 240), ("东偏南10度", 100), ("西偏北10度", 280),
    ])
    func chinese(_ text: String, _ expected: Double) throws {
        #expect(try parseBearing(text) == expected)
    }
}
