import Glibc

/// ISO 8601 UTC timestamps without Foundation.
///
/// ```swift
/// ISO8601.format(1_700_000_000.25)          // "2023-11-14T22:13:20.250Z"
/// ISO8601.parse("2023-11-14T22:13:20.25Z")  // 1700000000.25
/// ```
public enum ISO8601 {
    /// Formats Unix seconds as `YYYY-MM-DDTHH:MM:SS.sssZ` (milliseconds, UTC).
    public static func format(_ unixSeconds: Double, fractionDigits: Int = 3) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        append(unixSeconds, fractionDigits: fractionDigits, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `format(unixSeconds, fractionDigits:)` to `out` without making a `String` (nothing
    /// for a non-finite time): for writers that build a message of bytes (JSON lines, Signal K).
    public static func append(_ unixSeconds: Double, fractionDigits: Int = 3, to out: inout [UInt8]) {
        guard unixSeconds.isFinite else { return }
        var whole = unixSeconds.rounded(.down)
        var scale = 1.0
        for _ in 0..<fractionDigits { scale *= 10 }
        var fraction = ((unixSeconds - whole) * scale).rounded()
        if fraction >= scale { fraction -= scale; whole += 1 }
        let (year, month, day, hour, minute, second) = utcParts(whole)
        if (0...9999).contains(year), (0...9).contains(fractionDigits) {
            // The usual case (serve writes three an update): written into a small buffer and
            // appended at once, each field's digits by hand; the same bytes as the `pad` path below.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { b in
                func digits(_ v: Int, _ width: Int, at start: Int) {
                    var v = v
                    for i in stride(from: start + width - 1, through: start, by: -1) {
                        b[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                        v /= 10
                    }
                }
                digits(year, 4, at: 0)
                b[4] = UInt8(ascii: "-")
                digits(month, 2, at: 5)
                b[7] = UInt8(ascii: "-")
                digits(day, 2, at: 8)
                b[10] = UInt8(ascii: "T")
                digits(hour, 2, at: 11)
                b[13] = UInt8(ascii: ":")
                digits(minute, 2, at: 14)
                b[16] = UInt8(ascii: ":")
                digits(second, 2, at: 17)
                var count = 19
                if fractionDigits > 0 {
                    b[19] = UInt8(ascii: ".")
                    digits(Int(fraction), fractionDigits, at: 20)
                    count = 20 + fractionDigits
                }
                b[count] = UInt8(ascii: "Z")
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[..<(count + 1)]))
            }
            return
        }
        pad(year, 4, &out)
        out.append(UInt8(ascii: "-"))
        pad(month, 2, &out)
        out.append(UInt8(ascii: "-"))
        pad(day, 2, &out)
        out.append(UInt8(ascii: "T"))
        pad(hour, 2, &out)
        out.append(UInt8(ascii: ":"))
        pad(minute, 2, &out)
        out.append(UInt8(ascii: ":"))
        pad(second, 2, &out)
        if fractionDigits > 0 {
            out.append(UInt8(ascii: "."))
            pad(Int(fraction), fractionDigits, &out)
        }
        out.append(UInt8(ascii: "Z"))
    }

    /// The UTC calendar date and time of whole Unix seconds, as `gmtime_r` gives them: by day
    /// arithmetic (`civilFromDays`) for years 1–9999, without the C library's time-zone lock and
    /// state (serve writes three timestamps an update); through `gmtime_r` beyond.
    static func utcParts(_ whole: Double) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        // 0001-01-01T00:00:00Z … 9999-12-31T23:59:59Z.
        if whole >= -62_135_596_800, whole <= 253_402_300_799 {
            let t = Int(whole)
            let days = t >= 0 ? t / 86_400 : (t - 86_399) / 86_400
            let secondOfDay = t - days * 86_400
            let date = civilFromDays(days)
            return (date.year, date.month, date.day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
        }
        var t = time_t(whole)
        var parts = tm()
        gmtime_r(&t, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min),
                Int(parts.tm_sec))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)` to Unix seconds, or nil when malformed.
    public static func parse(_ text: String) -> Double? {
        let b = Array(text.utf8)
        func num(_ from: Int, _ len: Int) -> Int? {
            guard from + len <= b.count else { return nil }
            var v = 0
            for i in from..<(from + len) {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                v = v * 10 + Int(b[i] - 48)
            }
            return v
        }
        guard b.count >= 19, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 32, b[13] == 58, b[16] == 58,
              let year = num(0, 4), let month = num(5, 2), let day = num(8, 2),
              let hour = num(11, 2), let minute = num(14, 2), let second = num(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count && b[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count && b[i] >= 48 && b[i] <= 57 { fraction += Double(b[i] - 48) * scale; scale /= 10; i += 1 }
            if i == start { return nil }
        }
        var offset = 0
        if i < b.count && b[i] == 90 { i += 1 } else if i + 6 <= b.count && (b[i] == 43 || b[i] == 45) && b[i + 3] == 58,
            let oh = num(i + 1, 2), let om = num(i + 4, 2) {
            offset = (oh * 3600 + om * 60) * (b[i] == 45 ? -1 : 1)
            i += 6
        } else { return nil }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year, month, day)
        return Double(days * 86400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    public static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The proleptic Gregorian date of a day number (days since 1970-01-01): 400-year eras of
    /// 146 097 days with March-based years, so the leap day falls at the end of a year. The
    /// inverse of `daysFromCivil`.
    public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468            // days since 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `v` in decimal, left-padded with zeros to `width` characters (a sign counts as one).
    private static func pad(_ v: Int, _ width: Int, _ out: inout [UInt8]) {
        guard v >= 0 else {
            let s = String(v)
            if s.utf8.count < width { out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - s.utf8.count)) }
            out.append(contentsOf: s.utf8)
            return
        }
        // The digits, least significant first, into a small buffer, then appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(20, width)) { buffer in
            var i = buffer.count
            var n = v
            repeat {
                i -= 1
                buffer[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: n % 10)
                n /= 10
            } while n > 0 && i > 0
            while buffer.count - i < width && i > 0 {
                i -= 1
                buffer[i] = UInt8(ascii: "0")
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i...]))
        }
    }
}
