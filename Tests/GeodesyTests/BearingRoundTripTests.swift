import Linear
import Testing
@testable import Geodesy

/// Every formatted bearing parses back to the direction it displays.
@Suite struct BearingRoundTripTests {
    @Test func formatThenParse() throws {
        var rng = SplitMix64(seed: 360)
        let styles: [(BearingStyle, Double)] = [  // style, largest allowed difference
            (.degrees(decimals: 0), 0.5), (.degrees(decimals: 2), 0.005),
            (.quadrant(decimals: 0), 0.5), (.quadrant(decimals: 1), 0.05),
            (.points16, 11.25), (.points32, 5.625),
        ]
        for _ in 0..<3000 {
            let direction = (2 * rng.nextUnit() - 1) * 720
            for (style, tolerance) in styles {
                for language in [Language.en, .zh] {
                    for reference in [nil, NorthReference.trueNorth, .magneticNorth] {
                        let text = formatBearing(direction, style: style, language: language,
                                                 reference: reference)
                        let parsed = try parseBearingWithReference(text)
                        #expect(parsed.reference == reference, "\(text)")
                        #expect(parsed.degrees >= 0 && parsed.degrees < 360)
                        #expect(angleDifference(parsed.degrees, direction) <= tolerance + 1e-9,
                                "\(direction) → \(text) → \(parsed.degrees)")
                    }
                }
            }
        }
    }

    @Test func compassPointsParseToTheirCentres() throws {
        for i in 0..<32 {
            let centre = Double(i) * 11.25
            for language in [Language.en, .zh] {
                #expect(try parseBearing(formatBearing(centre, style: .points32, language: language)) == centre)
                if i % 2 == 0 {
                    #expect(try parseBearing(formatBearing(centre + 3, style: .points16, language: language)) == centre)
                }
            }
        }
    }
}
