import Foundation
import Geomagnetism
import Testing

@Suite struct DecimalYearTests {
    @Test func firstDayOfTheYearIsTheWholeYear() {
        #expect(decimalYear(year: 2025, month: 1, day: 1) == 2025.0)
        #expect(decimalYear(year: 2030, month: 1, day: 1) == 2030.0)
    }

    @Test func dayOfYearOverDaysInYear() {
        #expect(decimalYear(year: 2025, month: 12, day: 31) == 2025 + 364.0 / 365)
        #expect(decimalYear(year: 2028, month: 12, day: 31) == 2028 + 365.0 / 366)
        #expect(decimalYear(year: 2028, month: 7, day: 2) == 2028.5)  // day 184 of 366
        #expect(decimalYear(year: 2025, month: 3, day: 1) == 2025 + 59.0 / 365)
        #expect(decimalYear(year: 2024, month: 3, day: 1) == 2024 + 60.0 / 366)
    }

    @Test func leapDays() {
        #expect(decimalYear(year: 2024, month: 2, day: 29) != nil)
        #expect(decimalYear(year: 2000, month: 2, day: 29) != nil)
        #expect(decimalYear(year: 2025, month: 2, day: 29) == nil)
        #expect(decimalYear(year: 1900, month: 2, day: 29) == nil)
        #expect(decimalYear(year: 2100, month: 2, day: 29) == nil)
    }

    @Test func invalidDatesAreNil() {
        #expect(decimalYear(year: 2025, month: 0, day: 1) == nil)
        #expect(decimalYear(year: 2025, month: 13, day: 1) == nil)
        #expect(decimalYear(year: 2025, month: 1, day: 0) == nil)
        #expect(decimalYear(year: 2025, month: 1, day: 32) == nil)
        #expect(decimalYear(year: 2025, month: 4, day: 31) == nil)
        #expect(decimalYear(year: 2025, month: -3, day: 10) == nil)
        #expect(decimalYear(year: 0, month: 1, day: 1) == nil)
        #expect(decimalYear(year: 10_000, month: 1, day: 1) == nil)
        #expect(decimalYear(year: Int.max, month: 1, day: 1) == nil)
    }

    @Test func unixTimeAgreesWithTheCalendar() throws {
        // Walk every day from 1969 to 2032 with Foundation's calendar as the independent reference.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var date = try #require(calendar.date(from: DateComponents(year: 1969, month: 1, day: 1)))
        let end = try #require(calendar.date(from: DateComponents(year: 2032, month: 1, day: 1)))
        while date < end {
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            let fromCalendar = try #require(decimalYear(year: c.year!, month: c.month!, day: c.day!))
            let fromUnix = try #require(decimalYear(unixSeconds: date.timeIntervalSince1970))
            #expect(abs(fromUnix - fromCalendar) < 1e-12, "\(c)")
            date = date.addingTimeInterval(86_400)
        }
    }

    @Test func unixTimeIncludesTheTimeOfDay() throws {
        let midnight = 1_735_689_600.0  // 2025-01-01T00:00:00Z
        #expect(decimalYear(unixSeconds: midnight) == 2025.0)
        let noon = try #require(decimalYear(unixSeconds: midnight + 43_200))
        #expect(abs(noon - (2025 + 0.5 / 365)) < 1e-12)
        let lastSecond = try #require(decimalYear(unixSeconds: midnight - 1))
        #expect(lastSecond < 2025 && lastSecond > 2024.999_99)
        #expect(decimalYear(unixSeconds: .nan) == nil)
        #expect(decimalYear(unixSeconds: .infinity) == nil)
        #expect(decimalYear(unixSeconds: 1e15) == nil)
        #expect(decimalYear(unixSeconds: -1e15) == nil)
    }
}
