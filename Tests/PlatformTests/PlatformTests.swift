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
    @Test func fixedRoundsAndPads() {
        #expect(fixed(12.345, 2) == "12.35" || fixed(12.345, 2) == "12.34")
        #expect(fixed(12.5, 0) == "13")
        #expect(fixed(-0.001, 1) == "0.0")
        #expect(fixed(-1.05, 1) == "-1.1" || fixed(-1.05, 1) == "-1.0")
        #expect(fixed(3, 3) == "3.000")
        #expect(fixed(0.06, 1) == "0.1")
        #expect(fixed(-123.456, 1) == "-123.5")
        #expect(fixed(.nan, 1) == "nan")
    }

    @Test func plainRoundTrips() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<2000 {
            let v = Double.random(in: -1000...1000, using: &rng) * [1, 1e-6, 1e-3, 1e4].randomElement(using: &rng)!
            let s = plain(v)
            #expect(Double(s) == v, "\(v) → \(s)")
            #expect(!s.contains("e"), "\(s)")
        }
        #expect(plain(3) == "3")
        #expect(plain(-33.8694) == "-33.8694")
        #expect(plain(.nan) == "")
    }
}

