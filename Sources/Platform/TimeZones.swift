/// Local time in an IANA time zone ("Europe/Amsterdam"), from the system's compiled rules
/// (`/usr/share/zoneinfo`, Debian's tzdata package; `TZDIR` moves it) — no Foundation.
///
/// ```swift
/// let rules = try TimeZoneRules.load("Europe/Amsterdam")
/// let local = rules.offset(at: 1_782_000_000)         // +7200 s, "CEST", DST
/// LocalTime.format(1_782_000_000, offset: local)       // "2026-06-20T02:40:00+02:00"
/// ```
public struct TimeZoneRules: Sendable, Equatable {
    /// One kind of local time: its offset east of UTC, whether it is daylight saving time, its
    /// abbreviation.
    public struct LocalType: Sendable, Equatable {
        public var offsetSeconds: Int
        public var isDST: Bool
        public var abbreviation: String

        public init(offsetSeconds: Int, isDST: Bool, abbreviation: String) {
            self.offsetSeconds = offsetSeconds
            self.isDST = isDST
            self.abbreviation = abbreviation
        }
    }

    /// Transition times (Unix seconds, ascending) and the type that starts at each.
    var transitions: [Int64] = []
    var transitionTypes: [Int] = []
    var types: [LocalType] = []
    /// The rule after the last transition (the TZif footer), when there is one.
    var rule: PosixTimeZone?

    /// The zone names `load` accepts: IANA names are ASCII letters, digits, '_', '-', '+' and '/'.
    public static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255, !name.hasPrefix("/") else { return false }
        for part in name.split(separator: "/", omittingEmptySubsequences: false) {
            if part.isEmpty || part == "." || part == ".." { return false }
        }
        return name.utf8.allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
                || b == 0x5F || b == 0x2D || b == 0x2B || b == 0x2F
        }
    }

    /// The system's folder of compiled zones: `TZDIR`, else /usr/share/zoneinfo.
    public static func folder(environment: EnvironmentValues = .process) -> String {
        if let dir = environment.value("TZDIR"), dir.hasPrefix("/") { return dir }
        return "/usr/share/zoneinfo"
    }

    /// The rules of a zone read from `folder`.
    public static func load(_ name: String, folder: String = TimeZoneRules.folder()) throws(TimeZoneError) -> TimeZoneRules {
        guard isValidName(name) else { throw .invalidName(name) }
        let path = folder + "/" + name
        let bytes: [UInt8]
        do {
            bytes = try Files.readBytes(path, limit: 1 << 20)
        } catch {
            throw .notInstalled(path: path)
        }
        guard let rules = TimeZoneRules(tzif: bytes) else { throw .unreadable(path: path) }
        return rules
    }

    /// Rules from the bytes of a TZif file (RFC 8536, versions 1–4); nil when malformed.
    public init?(tzif bytes: [UInt8]) {
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        func i64(_ at: Int) -> Int64? {
            guard at >= 0, at + 8 <= bytes.count else { return nil }
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(bytes[at + k]) }
            return Int64(bitPattern: v)
        }
        struct Header { var isut, isstd, leap, time, type, char: Int }
        func header(_ at: Int) -> Header? {
            guard at + 44 <= bytes.count, bytes[at] == 0x54, bytes[at + 1] == 0x5A, bytes[at + 2] == 0x69,
                  bytes[at + 3] == 0x66, let a = u32(at + 20), let b = u32(at + 24), let c = u32(at + 28),
                  let d = u32(at + 32), let e = u32(at + 36), let f = u32(at + 40),
                  e >= 1, e <= 256, d <= 100_000, c <= 10_000, f <= 10_000 else { return nil }
            return Header(isut: a, isstd: b, leap: c, time: d, type: e, char: f)
        }
        guard let first = header(0) else { return nil }
        let version = bytes[4]
        var h = first
        var start = 44
        var timeSize = 4
        if version >= 0x32 {
            // Skip the 32-bit block; read the 64-bit one.
            let v1 = first.time * 5 + first.type * 6 + first.char + first.leap * 8 + first.isstd + first.isut
            guard let second = header(44 + v1) else { return nil }
            h = second
            start = 44 + v1 + 44
            timeSize = 8
        }
        let typesAt = start + h.time * timeSize + h.time
        let charsAt = typesAt + h.type * 6
        let end = charsAt + h.char + h.leap * (timeSize + 4) + h.isstd + h.isut
        guard end <= bytes.count else { return nil }
        for k in 0..<h.time {
            let t: Int64
            if timeSize == 8 { guard let v = i64(start + 8 * k) else { return nil }; t = v } else {
                guard let v = u32(start + 4 * k) else { return nil }
                t = Int64(Int32(truncatingIfNeeded: v))
            }
            let type = Int(bytes[start + h.time * timeSize + k])
            guard type < h.type, transitions.last.map({ $0 < t }) ?? true else { return nil }
            transitions.append(t)
            transitionTypes.append(type)
        }
        for k in 0..<h.type {
            let at = typesAt + 6 * k
            guard let raw = u32(at) else { return nil }
            let offset = Int(Int32(truncatingIfNeeded: raw))
            let abbreviationAt = Int(bytes[at + 5])
            guard abs(offset) <= 26 * 3600, abbreviationAt < h.char else { return nil }
            var z = charsAt + abbreviationAt
            var abbreviation: [UInt8] = []
            while z < charsAt + h.char, bytes[z] != 0 { abbreviation.append(bytes[z]); z += 1 }
            types.append(LocalType(offsetSeconds: offset, isDST: bytes[at + 4] != 0,
                                   abbreviation: sanitize(String(decoding: abbreviation, as: UTF8.self))))
        }
        if version >= 0x32, end < bytes.count, bytes[end] == 0x0A {
            var z = end + 1
            var footer: [UInt8] = []
            while z < bytes.count, bytes[z] != 0x0A { footer.append(bytes[z]); z += 1 }
            if !footer.isEmpty { rule = PosixTimeZone(String(decoding: footer, as: UTF8.self)) }
        }
    }

    /// The local time type in force at a Unix time.
    public func offset(at unixSeconds: Int64) -> LocalType {
        if let last = transitions.last, unixSeconds >= last, let rule { return rule.type(at: unixSeconds) }
        if transitions.isEmpty, let rule { return rule.type(at: unixSeconds) }
        guard let firstTransition = transitions.first, unixSeconds >= firstTransition else {
            // Before the first transition: the first standard type (RFC 8536 §3.2: type 0).
            return types.first ?? LocalType(offsetSeconds: 0, isDST: false, abbreviation: "UTC")
        }
        var lo = 0, hi = transitions.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if transitions[mid] <= unixSeconds { lo = mid } else { hi = mid }
        }
        return types[transitionTypes[lo]]
    }
}

/// A time zone that cannot be used. Exit 69 when it was needed.
public enum TimeZoneError: Error, Sendable, Equatable {
    case invalidName(String)
    case notInstalled(path: String)
    case unreadable(path: String)

    public var message: String {
        switch self {
        case .invalidName(let name): return "'\(argumentExcerpt(name))' is not a time zone name"
        case .notInstalled(let path): return "no time zone rules at \(sanitize(path)) (install the tzdata package)"
        case .unreadable(let path): return "\(sanitize(path)) is not a compiled time zone (TZif) file"
        }
    }
}

/// A POSIX TZ rule ("CET-1CEST,M3.5.0,M10.5.0/3"), as in a TZif footer: a standard time, and
/// optionally a daylight time with the rules of its start and end.
public struct PosixTimeZone: Sendable, Equatable {
    enum Day: Sendable, Equatable {
        /// Jn: day 1…365, February 29 never counted.
        case julian(Int)
        /// n: day 0…365, February 29 counted in leap years.
        case zeroBased(Int)
        /// Mm.w.d: day d (0 = Sunday) of week w (5 = last) of month m.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    struct Change: Sendable, Equatable {
        var day: Day
        /// Local time of day of the change, seconds (may be negative or past 24 h).
        var time: Int
    }

    var standard: TimeZoneRules.LocalType
    var daylight: TimeZoneRules.LocalType?
    var start: Change?
    var end: Change?

    /// Parses the rule; nil when malformed.
    public init?(_ text: String) {
        var p = Array(text.utf8)[...]
        func name() -> String? {
            if p.first == 0x3C {
                p = p.dropFirst()
                guard let close = p.firstIndex(of: 0x3E) else { return nil }
                let n = String(decoding: p[p.startIndex..<close], as: UTF8.self)
                p = p[(close + 1)...]
                return n.count >= 3 ? n : nil
            }
            let letters = p.prefix { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }
            guard letters.count >= 3 else { return nil }
            p = p.dropFirst(letters.count)
            return String(decoding: letters, as: UTF8.self)
        }
        func number() -> Int? {
            let digits = p.prefix { $0 >= 0x30 && $0 <= 0x39 }
            guard !digits.isEmpty, digits.count <= 3 else { return nil }
            p = p.dropFirst(digits.count)
            return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        /// [+-]hh[:mm[:ss]], seconds.
        func clock(signed: Bool = true) -> Int? {
            var sign = 1
            if signed, let c = p.first, c == 0x2B || c == 0x2D { sign = c == 0x2D ? -1 : 1; p = p.dropFirst() }
            guard let h = number(), h <= 167 else { return nil }
            var seconds = h * 3600
            for scale in [60, 1] {
                guard p.first == 0x3A else { break }
                p = p.dropFirst()
                guard let v = number(), v < 60 else { return nil }
                seconds += v * scale
            }
            return sign * seconds
        }
        func change() -> Change? {
            guard p.first == 0x2C else { return nil }
            p = p.dropFirst()
            let day: Day
            if p.first == 0x4A {
                p = p.dropFirst()
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else if p.first == 0x4D {
                p = p.dropFirst()
                guard let m = number(), (1...12).contains(m), p.first == 0x2E else { return nil }
                p = p.dropFirst()
                guard let w = number(), (1...5).contains(w), p.first == 0x2E else { return nil }
                p = p.dropFirst()
                guard let d = number(), d <= 6 else { return nil }
                day = .monthWeekDay(month: m, week: w, weekday: d)
            } else {
                guard let n = number(), n <= 365 else { return nil }
                day = .zeroBased(n)
            }
            var time = 7200
            if p.first == 0x2F {
                p = p.dropFirst()
                guard let t = clock() else { return nil }
                time = t
            }
            return Change(day: day, time: time)
        }
        guard let standardName = name(), let standardOffset = clock() else { return nil }
        // POSIX offsets are west of Greenwich; ours are east.
        standard = TimeZoneRules.LocalType(offsetSeconds: -standardOffset, isDST: false, abbreviation: standardName)
        if p.isEmpty { return }
        guard let daylightName = name() else { return nil }
        var daylightOffset = -standardOffset + 3600
        if let c = p.first, c != 0x2C {
            guard let o = clock() else { return nil }
            daylightOffset = -o
        }
        daylight = TimeZoneRules.LocalType(offsetSeconds: daylightOffset, isDST: true, abbreviation: daylightName)
        if p.isEmpty {
            // No rule given: POSIX leaves it to the implementation; the US rules are the usual one.
            start = Change(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
            end = Change(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
            return
        }
        guard let s = change(), let e = change(), p.isEmpty else { return nil }
        start = s
        end = e
    }

    /// The local time type in force at a Unix time.
    public func type(at unixSeconds: Int64) -> TimeZoneRules.LocalType {
        guard let daylight, let start, let end else { return standard }
        let t = Int(unixSeconds)
        // The year in standard local time; the changes of that year and its neighbours decide.
        let year = civilYear(days: floorDivide(t + standard.offsetSeconds, 86400))
        for y in [year + 1, year, year - 1] {
            // Start is given in standard local time, end in daylight local time.
            let daylightStarts = Self.unixTime(of: start, year: y) - standard.offsetSeconds
            let daylightEnds = Self.unixTime(of: end, year: y) - daylight.offsetSeconds
            if daylightStarts < daylightEnds {
                // Northern: daylight time inside the year.
                if t >= daylightEnds { return standard }
                if t >= daylightStarts { return daylight }
            } else {
                // Southern: daylight time across the new year.
                if t >= daylightStarts { return daylight }
                if t >= daylightEnds { return standard }
            }
        }
        return standard
    }

    /// Seconds from 1970-01-01T00:00 local to a change's moment in `year`, local clock.
    static func unixTime(of change: Change, year: Int) -> Int {
        let jan1 = ISO8601.daysFromCivil(year, 1, 1)
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days: Int
        switch change.day {
        case .julian(let n): days = jan1 + n - 1 + (leap && n >= 60 ? 1 : 0)
        case .zeroBased(let n): days = jan1 + n
        case .monthWeekDay(let month, let week, let weekday):
            let first = ISO8601.daysFromCivil(year, month, 1)
            // 1970-01-01 was a Thursday (4).
            let firstWeekday = ((first % 7) + 7 + 4) % 7
            var day = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let next = month == 12 ? ISO8601.daysFromCivil(year + 1, 1, 1) : ISO8601.daysFromCivil(year, month + 1, 1)
            while day >= next { day -= 7 }
            days = day
        }
        return days * 86400 + change.time
    }
}

/// Local date and time written as ISO 8601 with the zone's offset.
public enum LocalTime {
    /// "2026-06-20T02:40:00+02:00" (whole seconds).
    public static func format(_ unixSeconds: Double, offset: TimeZoneRules.LocalType) -> String {
        guard unixSeconds.isFinite else { return "" }
        let local = Int(unixSeconds.rounded(.down)) + offset.offsetSeconds
        let days = floorDivide(local, 86400)
        let (y, m, d) = ISO8601.civilFromDays(days)
        let s = local - days * 86400
        let o = abs(offset.offsetSeconds)
        var text = pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(s / 3600, 2) + ":" + pad(s / 60 % 60, 2)
            + ":" + pad(s % 60, 2) + (offset.offsetSeconds < 0 ? "-" : "+") + pad(o / 3600, 2) + ":" + pad(o / 60 % 60, 2)
        if o % 60 != 0 { text += ":" + pad(o % 60, 2) }
        return text
    }

    /// "02:40 CEST": the clock time and the zone's abbreviation.
    public static func clock(_ unixSeconds: Double, offset: TimeZoneRules.LocalType) -> String {
        let full = format(unixSeconds, offset: offset)
        guard full.count >= 16 else { return full }
        let hm = full.dropFirst(11).prefix(5)
        return String(hm) + (offset.abbreviation.isEmpty ? "" : " " + offset.abbreviation)
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}

func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

func civilYear(days: Int) -> Int { ISO8601.civilFromDays(days).year }
