import Platform

/// ISO 8601 UTC timestamps with milliseconds, written into and read from bytes without building
/// Strings (the log writer and the streaming reader call these once per row).
///
/// ```swift
/// var bytes: [UInt8] = []
/// TimeText.append(milliseconds: 1_700_000_000_250, to: &bytes)   // "2023-11-14T22:13:20.250Z"
/// ```
public enum TimeText {
    /// Unix seconds rounded to whole milliseconds, or nil when not finite or absurdly far away.
    public static func milliseconds(_ unixSeconds: Double) -> Int64? {
        guard unixSeconds.isFinite, abs(unixSeconds) < 1e13 else { return nil }
        return Int64((unixSeconds * 1000).rounded())
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS.sssZ` for a time in milliseconds since 1970 (UTC).
    public static func append(milliseconds ms: Int64, to out: inout [UInt8]) {
        let (seconds, millis) = floorDivide(ms, 1000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = ISO8601.civilFromDays(Int(days))
        appendDigits(year, 4, &out)
        out.append(45)
        appendDigits(month, 2, &out)
        out.append(45)
        appendDigits(day, 2, &out)
        out.append(84)
        appendDigits(secondOfDay / 3600, 2, &out)
        out.append(58)
        appendDigits(secondOfDay / 60 % 60, 2, &out)
        out.append(58)
        appendDigits(secondOfDay % 60, 2, &out)
        out.append(46)
        appendDigits(millis, 3, &out)
        out.append(90)
    }

    /// The text for a time in milliseconds (see `append(milliseconds:to:)`).
    public static func string(milliseconds ms: Int64) -> String {
        var bytes: [UInt8] = []
        append(milliseconds: ms, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses the writer's form `YYYY-MM-DDTHH:MM:SS.sssZ` quickly, and any other ISO 8601 form that
    /// `Platform.ISO8601` accepts, to milliseconds since 1970; nil when malformed.
    public static func parseMilliseconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var cache = DayCache()
        return parseMilliseconds(bytes, cache: &cache)
    }

    /// Remembers the last date seen, so a stream of rows from the same day skips the calendar maths.
    public struct DayCache: Sendable {
        var key: (UInt64, UInt16) = (0, 0)
        var days: Int64 = 0
        var valid = false
        public init() {}
    }

    /// As `parseMilliseconds(_:)`, reusing the day computed for the previous row when the date is equal.
    public static func parseMilliseconds(_ b: UnsafeBufferPointer<UInt8>, cache: inout DayCache) -> Int64? {
        guard b.count == 24, b[10] == 84, b[13] == 58, b[16] == 58, b[19] == 46, b[23] == 90,
              let base = b.baseAddress
        else { return slowParse(b) }
        let raw = UnsafeRawPointer(base)
        let key = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        let days: Int64
        if cache.valid && cache.key == key {
            days = cache.days
        } else {
            guard b[4] == 45, b[7] == 45, let year = digits(b, 0, 4), let month = digits(b, 5, 2),
                  let day = digits(b, 8, 2), (1...12).contains(month), (1...31).contains(day)
            else { return nil }
            days = Int64(ISO8601.daysFromCivil(year, month, day))
            cache.key = key
            cache.days = days
            cache.valid = true
        }
        guard let hour = digits(b, 11, 2), let minute = digits(b, 14, 2), let second = digits(b, 17, 2),
              let millis = digits(b, 20, 3), hour < 24, minute < 60, second <= 60
        else { return nil }
        let secondOfDay = Int64(hour * 3600 + minute * 60 + second)
        return (days * 86_400 + secondOfDay) * 1000 + Int64(millis)
    }

    private static func slowParse(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard b.count >= 19, b.count <= 64 else { return nil }
        guard let seconds = ISO8601.parse(String(decoding: b, as: UTF8.self)) else { return nil }
        return milliseconds(seconds)
    }

    @inline(__always)
    private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ count: Int) -> Int? {
        var v = 0
        for i in from..<(from + count) {
            let d = Int(b[i]) &- 48
            guard d >= 0 && d <= 9 else { return nil }
            v = v * 10 + d
        }
        return v
    }

    private static func appendDigits(_ value: Int64, _ width: Int, _ out: inout [UInt8]) {
        appendDigits(Int(value), width, &out)
    }

    private static func appendDigits(_ value: Int, _ width: Int, _ out: inout [UInt8]) {
        var v = value
        if v < 0 { out.append(45); v = -v }
        var buffer: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &buffer) { digits in
            repeat {
                digits[n] = UInt8(48 + v % 10)
                v /= 10
                n += 1
            } while (v > 0 || n < width) && n < 10
            for i in stride(from: n - 1, through: 0, by: -1) { out.append(digits[i]) }
        }
    }

    /// Floor division and non-negative remainder.
    static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        var q = a / b
        var r = a % b
        if r < 0 { q -= 1; r += b }
        return (q, r)
    }
}
