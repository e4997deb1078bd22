import Foundation
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

    @Test func decimalYear() {
        #expect(abs(ISO8601.decimalYear(1_735_689_600) - 2025.0) < 1e-12)   // 2025-01-01
        let mid = ISO8601.decimalYear(Double(ISO8601.daysFromCivil(2024, 7, 2)) * 86400)
        #expect(abs(mid - (2024 + 183.0 / 366)) < 1e-12)
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
