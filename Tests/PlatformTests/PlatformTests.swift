import Foundation
import Linear
import Platform
import Testing

@Suite struct ISO8601Tests {
    @Test func formatsWithMilliseconds() {
        #expect(ISO8601.format(0) == "1970-01-01T00:00:00.000Z")
        #expect(ISO8601.format(1_700_000_000.25) == "2023-11-14T22:13:20.250Z")
        #expect(ISO8601.format(1_700_000_000.9996) == "2023-11-14T22:13:21.000Z")
        #expect(ISO8601.format(951_782_400) == "2000-02-29T00:00:00.000Z")
    }

    @Test func parsesWhatItFormatsAndOffsets() throws {
        for t in [0.0, 1_700_000_000.25, 4_102_444_799.999, 951_782_400] {
            let parsed = try #require(ISO8601.parse(ISO8601.format(t)))
            #expect(abs(parsed - t) < 0.0006)
        }
        #expect(ISO8601.parse("2023-11-14T23:13:20+01:00") == 1_700_000_000)
        #expect(ISO8601.parse("2023-11-14T22:13:20Z") == 1_700_000_000)
        for bad in ["", "2023-13-01T00:00:00Z", "2023-11-14 22:13", "2023-11-14T22:13:20", "2023-11-14T22:13:20.Z", "x023-11-14T22:13:20Z"] {
            #expect(ISO8601.parse(bad) == nil, "\(bad)")
        }
    }

    /// The date and time come from day arithmetic, not `gmtime_r`: the same text as the C library's
    /// calendar over years 1–9999, the edges of days, leap days and centuries included.
    @Test func agreesWithTheCLibraryCalendar() {
        var rng = SplitMix64(seed: 3)
        var times: [Double] = [0, -1, -86_400, -86_401, 86_399, 951_782_400, 4_107_542_400, -62_135_596_800, 253_402_300_799,
                               -2_208_988_800, 13_569_465_600]
        for _ in 0..<200_000 { times.append((-62_135_596_800 + rng.nextUnit() * 315_537_897_599).rounded(.down)) }
        for t in times {
            var c = time_t(t)
            var parts = tm()
            gmtime_r(&c, &parts)
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.000Z", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                                  Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
            let text = ISO8601.format(t)
            if text != expected { Issue.record("\(t): \(text), the C library \(expected)"); return }
        }
    }

    @Test("other resolutions: none, one place (a carry into the seconds), six places; year 0")
    func fractionDigits() {
        #expect(ISO8601.format(1_700_000_000.25, fractionDigits: 0) == "2023-11-14T22:13:20Z")
        #expect(ISO8601.format(1_700_000_000.25, fractionDigits: 1) == "2023-11-14T22:13:20.3Z")
        #expect(ISO8601.format(1_700_000_059.96, fractionDigits: 1) == "2023-11-14T22:14:20.0Z")
        #expect(ISO8601.format(1_700_000_000.012345, fractionDigits: 6) == "2023-11-14T22:13:20.012345Z")
        var out: [UInt8] = Array("x".utf8)
        ISO8601.append(-62_135_596_801, to: &out)   // year 0: its parts from gmtime_r, not the day arithmetic
        #expect(String(decoding: out, as: UTF8.self) == "x0000-12-31T23:59:59.000Z")
    }

    @Test func agreesWithFoundation() {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var t = 1_600_000_000.0
        for _ in 0..<50 {
            t += 12_345_678.125
            #expect(ISO8601.format(t) == f.string(from: Date(timeIntervalSince1970: t)))
        }
    }
}

@Suite struct SanitizeTests {
    @Test func stripsControlCharacters() {
        #expect(sanitize("\u{1B}[2J/dev/ttyUSB0") == "[2J/dev/ttyUSB0")
        #expect(sanitize("a\tb\nc\rd\u{7F}e\u{9B}f") == "abcdef")
        #expect(sanitize("北偏东30度 ok °") == "北偏东30度 ok °")
        #expect(sanitize("x\u{202E}y") == "xy")
    }
}

@Suite struct FilesTests {
    @Test func atomicWriteReplacesAndLeavesNoTemp() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plat-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("a.json").path
        try Files.writeAtomically(path, contents: "one")
        try Files.writeAtomically(path, contents: "two ✓")
        #expect(try Files.readText(path) == "two ✓")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a.json"])
        #expect(Files.exists(path))
        #expect(Files.list(dir.path) == ["a.json"])
    }

    @Test func errorsNameThePath() throws {
        #expect(throws: FileError.self) { try Files.readText("/nonexistent/x") }
        do {
            try Files.writeAtomically("/nonexistent-folder/x.json", contents: "x")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("/nonexistent-folder/x.json"))
            #expect(error.exitCode == .ioError)
        }
    }

    @Test func createFolders() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("plat-mk-\(getpid())")
        defer { try? FileManager.default.removeItem(at: base) }
        try Files.createFolders(base.path + "/a/b/c")
        var isDir: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: base.path + "/a/b/c", isDirectory: &isDir) && isDir.boolValue)
    }
}

@Suite struct NumberFormatTests {
    @Test func fixedRoundsHalfAwayFromZeroAndPads() {
        #expect(fixed(12.345, 2) == "12.35")
        #expect(fixed(2.675, 2) == "2.68")
        #expect(fixed(1.005, 2) == "1.01")
        #expect(fixed(12.5, 0) == "13")
        #expect(fixed(-12.5, 0) == "-13")
        #expect(fixed(0.5, 0) == "1")
        #expect(fixed(0.05, 0) == "0")
        #expect(fixed(-1.05, 1) == "-1.1")
        #expect(fixed(3, 3) == "3.000")
        #expect(fixed(0.06, 1) == "0.1")
        #expect(fixed(0.0015, 3) == "0.002")
        #expect(fixed(-123.456, 1) == "-123.5")
        #expect(fixed(7, 0) == "7")
        #expect(fixed(1.5e-5, 6) == "0.000015")
        #expect(fixed(2.5, -1) == "3")
    }

    @Test func roundingCarriesIntoANewDigit() {
        #expect(fixed(9.96, 1) == "10.0")
        #expect(fixed(-9.96, 1) == "-10.0")
        #expect(fixed(99.995, 2) == "100.00")
        #expect(fixed(0.96, 1) == "1.0")
        #expect(fixed(999_999.5, 0) == "1000000")
        #expect(plain(9.9996, decimals: 3) == "10")
    }

    @Test func nonFiniteAndNegativeZeroFollowOneRule() {
        for (value, text) in [(Double.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf")] {
            #expect(fixed(value, 1) == text)
            #expect(fixed(value, 0) == text)
            #expect(plain(value) == text)
            #expect(plain(value, decimals: 3) == text)
        }
        #expect(roundedToDecimals(.nan, 2).isNaN)
        #expect(roundedToDecimals(-.infinity, 2) == -.infinity)
        #expect(fixed(-0.0, 1) == "0.0")
        #expect(fixed(-0.0, 0) == "0")
        #expect(fixed(-0.04, 1) == "0.0")
        #expect(fixed(-0.001, 1) == "0.0")
        #expect(plain(-0.0) == "0")
        #expect(plain(-0.0004, decimals: 3) == "0")
        #expect(roundedToDecimals(-0.0004, 3).sign == .plus)
    }

    @Test func largeValuesAreWrittenInFull() {
        #expect(fixed(1e20, 1) == "100000000000000000000.0")
        #expect(fixed(-1.5e16, 2) == "-15000000000000000.00")
        #expect(fixed(9_007_199_254_740_993, 0) == "9007199254740992")
        #expect(fixed(123_456_789_012.345_6, 3) == "123456789012.346")
        #expect(plain(1e21) == "1000000000000000000000")
        #expect(plain(-2.5e15) == "-2500000000000000")
        #expect(plain(Double.greatestFiniteMagnitude).count == 309)
        #expect(!fixed(Double.greatestFiniteMagnitude, 2).contains("e"))
    }

    @Test func fixedAgreesWithTheDigitsItRounds() {
        // Against an independent path: integer arithmetic on the printed digits of values with
        // at most six decimals, whose shortest form is exactly those digits.
        var rng = SplitMix64(seed: 7)
        for _ in 0..<3000 {
            let micro = Int64(rng.next() % 2_000_000_000_000) - 1_000_000_000_000
            let value = Double(micro) / 1e6
            let decimals = Int(rng.next() % 5)
            var divisor: Int64 = 1
            for _ in 0..<(6 - decimals) { divisor *= 10 }
            var units = abs(micro) / divisor
            if abs(micro) % divisor * 2 >= divisor { units += 1 }
            var scale: Int64 = 1
            for _ in 0..<decimals { scale *= 10 }
            var expected = String(units / scale)
            if decimals > 0 {
                let f = String(units % scale)
                expected += "." + String(repeating: "0", count: decimals - f.count) + f
            }
            if micro < 0 && units != 0 { expected = "-" + expected }
            #expect(fixed(value, decimals) == expected, "\(value) to \(decimals)")
        }
    }

    @Test func plainRoundTrips() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<2000 {
            let v = Double.random(in: -1000...1000, using: &rng) * [1, 1e-6, 1e-3, 1e4, 1e300, 1e-300].randomElement(using: &rng)!
            let s = plain(v)
            #expect(Double(s) == v, "\(v) → \(s)")
            #expect(!s.contains("e"), "\(s)")
        }
        #expect(plain(3) == "3")
        #expect(plain(-33.8694) == "-33.8694")
        #expect(plain(1.5e-5) == "0.000015")
    }

    @Test func plainWithDecimalsIsFixedWithoutTrailingZeros() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<2000 {
            let v = Double.random(in: -400...400, using: &rng)
            let d = Int(rng.next() % 9)
            var f = fixed(v, d)
            if f.contains(".") {
                while f.hasSuffix("0") { f.removeLast() }
                if f.hasSuffix(".") { f.removeLast() }
            }
            if f == "-0" { f = "0" }
            #expect(plain(v, decimals: d) == f)
            #expect(plain(roundedToDecimals(v, d)) == f)
        }
        #expect(plain(151.19949, decimals: 3) == "151.199")
        #expect(plain(2.5, decimals: 3) == "2.5")
        #expect(roundedToDecimals(151.19949, 3) == 151.199)
    }
}


@Suite struct ClosestMatchTests {
    @Test func editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        #expect(editDistance("kitten", "sitting") == 3)
        #expect(editDistance("", "abc") == 3)
        #expect(editDistance("abc", "") == 3)
        #expect(editDistance("watch", "watch") == 0)
        #expect(editDistance("北东", "北西") == 1)
    }

    @Test func suggestsTheNearestCandidateWithinTheLimit() {
        #expect(closestMatch(to: "wach", in: ["watch", "track"]) == "watch")
        #expect(closestMatch(to: "zzzzzz", in: ["watch", "track"]) == nil)
        #expect(closestMatch(to: "x-forwrd-z-up", in: ["x-forward-z-down", "x-forward-z-up"]) == "x-forward-z-up")
        #expect(closestMatch(to: "ab", in: ["cd", "ce"]) == "cd")   // a tie: the first wins
        #expect(closestMatch(to: "anything", in: []) == nil)
    }
}
