/// The decimal year of a Gregorian calendar date at 00:00 UTC, as the WMM software computes it:
/// `year + (dayOfYear − 1) / daysInYear`. Returns nil for an invalid date (month outside 1...12,
/// a day the month does not have, such as 29 February 2025) or a year outside 1...9999.
///
/// ```swift
/// decimalYear(year: 2025, month: 1, day: 1)    // 2025.0
/// decimalYear(year: 2028, month: 7, day: 2)    // 2028 + 183/366 = 2028.5
/// decimalYear(year: 2025, month: 2, day: 29)   // nil
/// ```
public func decimalYear(year: Int, month: Int, day: Int) -> Double? {
    guard (1...9999).contains(year), (1...12).contains(month),
          day >= 1, day <= CivilCalendar.daysInMonth(month, year: year) else { return nil }
    let dayOfYear = CivilCalendar.daysBeforeMonth(month, year: year) + day
    return Double(year) + Double(dayOfYear - 1) / Double(CivilCalendar.daysInYear(year))
}

/// The decimal year of a Unix time (seconds since 1970-01-01 00:00 UTC), including the
/// fraction of the day. Returns nil when the time is not finite or falls outside years 1...9999.
///
/// ```swift
/// decimalYear(unixSeconds: 1_735_689_600)   // 2025.0 (2025-01-01T00:00:00Z)
/// ```
public func decimalYear(unixSeconds: Double) -> Double? {
    guard unixSeconds.isFinite else { return nil }
    let days = (unixSeconds / 86_400).rounded(.down)
    guard days >= Double(CivilCalendar.daysFrom1970(toStartOf: 1)),
          days < Double(CivilCalendar.daysFrom1970(toStartOf: 10_000)) else { return nil }
    let dayNumber = Int(days)
    let secondsOfDay = unixSeconds - days * 86_400
    let year = CivilCalendar.year(containingDay: dayNumber)
    let dayIndex = dayNumber - CivilCalendar.daysFrom1970(toStartOf: year)
    let fraction = (Double(dayIndex) + secondsOfDay / 86_400) / Double(CivilCalendar.daysInYear(year))
    return Double(year) + min(fraction, 1.0.nextDown)
}

/// Proleptic Gregorian calendar arithmetic.
enum CivilCalendar {
    static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysInYear(_ year: Int) -> Int { isLeap(year) ? 366 : 365 }

    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func daysBeforeMonth(_ month: Int, year: Int) -> Int {
        var total = 0
        var m = 1
        while m < month {
            total += daysInMonth(m, year: year)
            m += 1
        }
        return total
    }

    /// Leap years in 1...(year − 1), for year ≥ 1.
    private static func leapYears(before year: Int) -> Int {
        let y = year - 1
        return y / 4 - y / 100 + y / 400
    }

    /// Days from 1970-01-01 to 1 January of `year` (negative before 1970).
    static func daysFrom1970(toStartOf year: Int) -> Int {
        365 * (year - 1970) + leapYears(before: year) - leapYears(before: 1970)
    }

    /// The year containing the day `day` days after 1970-01-01.
    static func year(containingDay day: Int) -> Int {
        var year = 1970 + Int((Double(day) / 365.2425).rounded(.down))
        while daysFrom1970(toStartOf: year) > day { year -= 1 }
        while daysFrom1970(toStartOf: year + 1) <= day { year += 1 }
        return year
    }
}
