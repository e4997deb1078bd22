import Testing
@testable import Session

@Suite struct HeadingLineTests {
    @Test func roundsBeforeNamingAndNeverShows360() {
        #expect(formatHeadingLine(359.96) == "0.0° N")
        #expect(formatHeadingLine(359.94) == "359.9° N")
        #expect(formatHeadingLine(123.44) == "123.4° ESE")
        #expect(formatHeadingLine(135) == "135.0° SE")
        #expect(formatHeadingLine(11.25) == "11.3° NNE")
        #expect(formatHeadingLine(5) == "5.0° N")
        #expect(headingToTenths(-0.01) == 0)
        #expect(headingToTenths(270.06) == 270.1)
    }
}
