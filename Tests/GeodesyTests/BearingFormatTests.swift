import Testing
@testable import Geodesy

@Suite struct BearingFormatTests {
    @Test(arguments: [
        (123.44, 1, "123.4°"), (123.45, 1, "123.5°"), (123.0, 0, "123°"), (5.0, 2, "5.00°"),
        (359.4, 0, "359°"), (359.5, 0, "0°"), (359.6, 0, "0°"), (-0.4, 0, "0°"), (-1e-20, 3, "0.000°"),
        (720.5, 1, "0.5°"), (0.04, 1, "0.0°"), (359.96, 1, "0.0°"), (359.94, 1, "359.9°"),
        (12.3456, -3, "12°"), (12.3456, 20, "12.345600000°"),
    ])
    func degrees(_ value: Double, _ decimals: Int, _ expected: String) {
        #expect(formatBearing(value, style: .degrees(decimals: decimals)) == expected)
    }

    @Test func degreesWithReference() {
        #expect(formatBearing(123.44, style: .degrees(decimals: 1), reference: .trueNorth) == "123.4°T")
        #expect(formatBearing(123, style: .degrees(decimals: 0), reference: .magneticNorth) == "123°M")
        #expect(formatBearing(123, style: .degrees(decimals: 0), language: .zh, reference: .trueNorth)
                == "123°（真北）")
        #expect(formatBearing(22.5, style: .points16, reference: .magneticNorth) == "NNE (M)")
        #expect(formatBearing(30, style: .quadrant(decimals: 0), language: .zh, reference: .magneticNorth)
                == "北偏东30度（磁北）")
    }

    @Test func nonFiniteIsPlaceholder() {
        for style in [BearingStyle.degrees(decimals: 1), .points16, .points32, .quadrant(decimals: 0)] {
            #expect(formatBearing(.nan, style: style) == "---")
            #expect(formatBearing(.infinity, style: style, language: .zh) == "---")
        }
    }

    @Test func sixteenPointCentresAndBoundaries() {
        let english = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
                       "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        let chinese = ["北", "东北偏北", "东北", "东北偏东", "东", "东南偏东", "东南", "东南偏南",
                       "南", "西南偏南", "西南", "西南偏西", "西", "西北偏西", "西北", "西北偏北"]
        for i in 0..<16 {
            let centre = Double(i) * 22.5
            #expect(formatBearing(centre, style: .points16) == english[i])
            #expect(formatBearing(centre, style: .points16, language: .zh) == chinese[i])
            // The lower boundary belongs to this point, just below it to the previous one.
            let lower = centre - 11.25
            #expect(formatBearing(lower, style: .points16) == english[i])
            #expect(formatBearing(lower - 1e-9, style: .points16) == english[(i + 15) % 16])
            #expect(formatBearing(centre + 11.25 - 1e-9, style: .points16) == english[i])
        }
        #expect(formatBearing(359.999999, style: .points16) == "N")
        #expect(formatBearing(-1e-20, style: .points16) == "N")
    }

    @Test func thirtyTwoPointCentresAndBoundaries() {
        let english = ["N", "NbE", "NNE", "NEbN", "NE", "NEbE", "ENE", "EbN",
                       "E", "EbS", "ESE", "SEbE", "SE", "SEbS", "SSE", "SbE",
                       "S", "SbW", "SSW", "SWbS", "SW", "SWbW", "WSW", "WbS",
                       "W", "WbN", "WNW", "NWbW", "NW", "NWbN", "NNW", "NbW"]
        for i in 0..<32 {
            let centre = Double(i) * 11.25
            #expect(formatBearing(centre, style: .points32) == english[i])
            #expect(formatBearing(centre + 5.625, style: .points32) == english[(i + 1) % 32])
            #expect(formatBearing(centre + 5.625 - 1e-9, style: .points32) == english[i])
        }
        #expect(formatBearing(11.25, style: .points32, language: .zh) == "北微东")
        #expect(formatBearing(33.75, style: .points32, language: .zh) == "东北微北")
        #expect(formatBearing(22.5, style: .points32, language: .zh) == "东北偏北")
    }

    @Test(arguments: [
        (30.0, "N30°E"), (150, "S30°E"), (225, "S45°W"), (300, "N60°W"), (45, "N45°E"),
        (0, "N"), (90, "E"), (180, "S"), (270, "W"), (360, "N"), (-90, "W"),
        (359.6, "N"), (0.4, "N"), (0.5, "N1°E"), (359.5, "N"), (359.4, "N1°W"),
        (89.6, "E"), (90.4, "E"), (90.5, "S89°E"), (179.5, "S"), (180.4, "S"), (269.5, "W"),
        (89.4, "N89°E"), (1e-20, "N"), (-1e-20, "N"),
    ])
    func quadrantWholeDegrees(_ value: Double, _ expected: String) {
        #expect(formatBearing(value, style: .quadrant(decimals: 0)) == expected)
    }

    @Test func quadrantDecimals() {
        #expect(formatBearing(359.96, style: .quadrant(decimals: 1)) == "N")
        #expect(formatBearing(359.94, style: .quadrant(decimals: 1)) == "N0.1°W")
        #expect(formatBearing(30.25, style: .quadrant(decimals: 1)) == "N30.3°E")
        #expect(formatBearing(179.99, style: .quadrant(decimals: 2)) == "S0.01°E")
        #expect(formatBearing(200, style: .quadrant(decimals: 2)) == "S20.00°W")
    }

    @Test(arguments: [
        (30.0, "北偏东30度"), (225, "西南"), (200, "南偏西20度"), (100, "南偏东80度"),
        (350, "北偏西10度"), (0, "正北"), (90, "正东"), (180, "正南"), (270, "正西"),
        (45, "东北"), (135, "东南"), (315, "西北"), (359.6, "正北"), (44.6, "东北"),
        (44.4, "北偏东44度"), (45.5, "北偏东46度"), (269.6, "正西"),
    ])
    func chineseQuadrant(_ value: Double, _ expected: String) {
        #expect(formatBearing(value, style: .quadrant(decimals: 0), language: .zh) == expected)
    }

    @Test func chineseQuadrantDecimals() {
        #expect(formatBearing(30.5, style: .quadrant(decimals: 1), language: .zh) == "北偏东30.5度")
        #expect(formatBearing(44.96, style: .quadrant(decimals: 1), language: .zh) == "东北")
        #expect(formatBearing(44.94, style: .quadrant(decimals: 1), language: .zh) == "北偏东44.9度")
    }
}
