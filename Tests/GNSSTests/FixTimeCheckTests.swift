import GNSS
import Testing

@Suite("fix times checked against the system clock")
struct FixTimeCheckTests {
    static let now = 1_795_000_000.0

    @Test func aFixThirtyYearsOffOrMoreThanADayIsFlaggedAndAnHourIsNot() {
        var check = FixTimeCheck()
        #expect(check.check(fixTime: Self.now - 3600, systemWall: Self.now) == nil)
        var other = FixTimeCheck()
        let thirtyYears = 30 * 365.25 * 86_400
        let problem = other.check(fixTime: Self.now - thirtyYears, systemWall: Self.now)
        #expect(problem == .farFromClock(offset: -thirtyYears))
        #expect(problem?.flag == "gnssTimeOff")
        #expect(problem?.description.contains("30 years behind the system clock") == true)
        var ahead = FixTimeCheck()
        #expect(ahead.check(fixTime: Self.now + 90_000, systemWall: Self.now)?.flag == "gnssTimeOff")
        #expect(ahead.check(fixTime: nil, systemWall: Self.now) == nil)
        #expect(ahead.check(fixTime: .nan, systemWall: Self.now) == nil)
    }

    @Test func aFixWhoseTimeGoesBackwardsIsFlaggedUntilItPassesTheNewestAgain() {
        var check = FixTimeCheck()
        #expect(check.check(fixTime: Self.now, systemWall: Self.now) == nil)
        #expect(check.check(fixTime: Self.now + 1, systemWall: Self.now + 1) == nil)
        #expect(check.check(fixTime: Self.now + 1, systemWall: Self.now + 1.5) == nil, "a repeated epoch is not backwards")
        #expect(check.check(fixTime: Self.now - 4, systemWall: Self.now + 2) == .backwards(by: 5))
        #expect(check.check(fixTime: Self.now - 3, systemWall: Self.now + 3)?.flag == "gnssTimeBackwards")
        #expect(check.check(fixTime: Self.now + 2, systemWall: Self.now + 4) == nil)
    }
}
