import Foundation
@testable import Platform
import Testing

@Suite struct TimeZoneTests {
    @Test func posixRuleNorthern() throws {
        let cet = try #require(PosixTimeZone("CET-1CEST,M3.5.0,M10.5.0/3"))
        // 2026: daylight time from 29 March 01:00 UTC to 25 October 01:00 UTC.
        #expect(cet.type(at: 1_774_746_000 - 1) == .init(offsetSeconds: 3600, isDST: false, abbreviation: "CET"))
        #expect(cet.type(at: 1_774_746_000) == .init(offsetSeconds: 7200, isDST: true, abbreviation: "CEST"))
        #expect(cet.type(at: 1_792_890_000 - 1).offsetSeconds == 7200)
        #expect(cet.type(at: 1_792_890_000).offsetSeconds == 3600)
        let us = try #require(PosixTimeZone("EST5EDT,M3.2.0,M11.1.0"))
        #expect(us.type(at: 1_772_953_200 - 1).offsetSeconds == -18000)
        #expect(us.type(at: 1_772_953_200).offsetSeconds == -14400)
    }

    @Test func posixRuleSouthernAndOddOffsets() throws {
        let sydney = try #require(PosixTimeZone("AEST-10AEDT,M10.1.0,M4.1.0/3"))
        // 2026: daylight time ends 4 April 16:00 UTC, starts again 3 October 16:00 UTC.
        #expect(sydney.type(at: 1_775_318_400 - 1) == .init(offsetSeconds: 39600, isDST: true, abbreviation: "AEDT"))
        #expect(sydney.type(at: 1_775_318_400) == .init(offsetSeconds: 36000, isDST: false, abbreviation: "AEST"))
        #expect(sydney.type(at: 1_791_043_200 - 1).offsetSeconds == 36000)
        #expect(sydney.type(at: 1_791_043_200).offsetSeconds == 39600)
        #expect(sydney.type(at: 1_767_225_600).isDST)   // 1 January 2026
        let tehran = try #require(PosixTimeZone("<+0330>-3:30"))
        #expect(tehran.type(at: 0) == .init(offsetSeconds: 12600, isDST: false, abbreviation: "+0330"))
        let newfoundland = try #require(PosixTimeZone("NST3:30NDT,M3.2.0,M11.1.0"))
        #expect(newfoundland.type(at: 1_767_225_600).offsetSeconds == -12600)
        #expect(PosixTimeZone("UTC0")?.type(at: 5).offsetSeconds == 0)
        for bad in ["", "X1", "CET", "CET-1CEST,M13.1.0,M10.5.0", "CET-1CEST,M3.5.0", "CET-1CEST,M3.5.0,M10.5.0/3x", "<+03"] {
            #expect(PosixTimeZone(bad) == nil, "\(bad)")
        }
    }

    /// A TZif version 2 file made here: two transitions, then the footer's rule.
    @Test func readsTZifBytes() throws {
        var b: [UInt8] = []
        func u32(_ v: Int) { b += [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func i64(_ v: Int64) { for k in (0..<8).reversed() { b.append(UInt8(truncatingIfNeeded: v >> (8 * Int64(k)))) } }
        func header(times: Int, types: Int, chars: Int) {
            b += Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
            for v in [0, 0, 0, times, types, chars] { u32(v) }
        }
        // Version 1 block: no transitions, one type.
        header(times: 0, types: 1, chars: 4)
        u32(0); b += [0, 0]
        b += Array("UTC\0".utf8)
        // Version 2 block.
        header(times: 2, types: 2, chars: 10)
        i64(1_000_000); i64(2_000_000)
        b += [1, 0]
        u32(3600); b += [0, 0]
        u32(7200); b += [1, 4]
        b += Array("ONE\0TWO\0\0\0".utf8)
        b += Array("\nCET-1CEST,M3.5.0,M10.5.0/3\n".utf8)
        let rules = try #require(TimeZoneRules(tzif: b))
        #expect(rules.offset(at: 0).abbreviation == "ONE")
        #expect(rules.offset(at: 1_500_000) == .init(offsetSeconds: 7200, isDST: true, abbreviation: "TWO"))
        #expect(rules.offset(at: 2_000_000).offsetSeconds == 3600)
        #expect(rules.offset(at: 1_774_746_000).abbreviation == "CEST")
        // Damaged: cut short, wrong magic.
        #expect(TimeZoneRules(tzif: Array(b.prefix(60))) == nil)
        var wrong = b
        wrong[0] = 0x58
        #expect(TimeZoneRules(tzif: wrong) == nil)
        #expect(TimeZoneRules(tzif: []) == nil)
    }

    @Test func zoneNamesStayInTheFolder() throws {
        #expect(TimeZoneRules.isValidName("Europe/Amsterdam"))
        #expect(TimeZoneRules.isValidName("America/Argentina/Buenos_Aires"))
        #expect(TimeZoneRules.isValidName("Etc/GMT+5"))
        for bad in ["", "../etc/passwd", "/etc/passwd", "Europe/../../x", "Europe//Paris", "Europe/Par\u{1B}is", "a b"] {
            #expect(!TimeZoneRules.isValidName(bad), "\(bad)")
            #expect(throws: TimeZoneError.invalidName(bad)) { try TimeZoneRules.load(bad) }
        }
        let folder = NSTemporaryDirectory() + "lodestone-tz-\(getpid())"
        #expect(throws: TimeZoneError.notInstalled(path: folder + "/Europe/Amsterdam")) {
            try TimeZoneRules.load("Europe/Amsterdam", folder: folder)
        }
        #expect(TimeZoneError.notInstalled(path: "/x").message.contains("install the tzdata package"))
        #expect(TimeZoneRules.folder(environment: EnvironmentValues(["TZDIR": "/opt/zoneinfo"])) == "/opt/zoneinfo")
        #expect(TimeZoneRules.folder(environment: EnvironmentValues([:])) == "/usr/share/zoneinfo")
    }

    /// The system's own rules, when tzdata is installed.
    @Test func systemZones() throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Amsterdam") else { return }
        let amsterdam = try TimeZoneRules.load("Europe/Amsterdam", folder: "/usr/share/zoneinfo")
        #expect(amsterdam.offset(at: 1_767_225_600) == .init(offsetSeconds: 3600, isDST: false, abbreviation: "CET"))
        #expect(amsterdam.offset(at: 1_782_000_000) == .init(offsetSeconds: 7200, isDST: true, abbreviation: "CEST"))
        #expect(amsterdam.offset(at: 4_118_083_200).offsetSeconds == 7200)   // 1 July 2100, from the rule
        let shanghai = try TimeZoneRules.load("Asia/Shanghai", folder: "/usr/share/zoneinfo")
        #expect(shanghai.offset(at: 1_782_000_000) == .init(offsetSeconds: 28800, isDST: false, abbreviation: "CST"))
        let kolkata = try TimeZoneRules.load("Asia/Kolkata", folder: "/usr/share/zoneinfo")
        #expect(kolkata.offset(at: 1_782_000_000).offsetSeconds == 19800)
    }

    @Test func formatsLocalTime() {
        let cest = TimeZoneRules.LocalType(offsetSeconds: 7200, isDST: true, abbreviation: "CEST")
        #expect(LocalTime.format(1_782_000_000, offset: cest) == "2026-06-21T02:00:00+02:00")
        #expect(LocalTime.clock(1_782_000_000, offset: cest) == "02:00 CEST")
        let st = TimeZoneRules.LocalType(offsetSeconds: -12600, isDST: false, abbreviation: "NST")
        #expect(LocalTime.format(-100_000, offset: st) == "1969-12-30T16:43:20-03:30")
        #expect(LocalTime.format(.nan, offset: st) == "")
    }
}
