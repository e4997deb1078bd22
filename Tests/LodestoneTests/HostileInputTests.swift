import Foundation
import Testing
import TestSupport

/// Inputs made to hurt (issue: hostile inputs): bounded memory, the right exit code and message.
@Suite("hostile inputs, end to end")
struct HostileInputTests {
    /// The data limit every run here must finish within: 160 MB, about three times what the binary
    /// needs for a small recording (the 10 MB line used to cost 579 MB).
    static let limitKiB = 160_000

    /// A file of `size` bytes of `byte` (no newline) in a new scratch folder.
    func fill(_ name: String, byte: UInt8, size: Int) throws -> (folder: URL, path: String) {
        let folder = try makeTemporaryFolder("hostile")
        let url = folder.appendingPathComponent(name)
        try Data(repeating: byte, count: size).write(to: url)
        return (folder, url.path)
    }

    /// A 10 MB line of commas cost 579 MB when the whole file was read and split: now one line
    /// buffer of 64 KiB, so the process stays near its ordinary size.
    @Test(arguments: [["calibrate", "--from-file"], ["heading", "--from-file"]])
    func aTenMegabyteLineOfCommasCostsLittleMemory(command: [String]) throws {
        let (folder, path) = try fill("commas.csv", byte: UInt8(ascii: ","), size: 10_000_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try runLodestoneLimited(command + [path], dataLimitKiB: Self.limitKiB)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("longer than 65536 bytes"), "\(run.stderr)")
    }

    /// `/dev/zero` was read to 1 GB before failing as I/O (74): it is not text, seen at once (65).
    @Test(arguments: [["calibrate", "--from-file"], ["heading", "--from-file"]])
    func devZeroIsNotTextAndIsNotReadToTheEnd(command: [String]) throws {
        let run = try runLodestoneLimited(command + ["/dev/zero"], dataLimitKiB: Self.limitKiB, timeout: 20)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("is not a text file"), "\(run.stderr)")
    }

    /// `-` is standard input for the recordings, as for the log's output (in process: the command's
    /// standard input, a file as its descriptor).
    @Test func aRecordingFromStandardInput() throws {
        let rows = (0..<50).map { i in "\(Double(i) / 10),\(20 + i % 7),-5,42" }.joined(separator: "\n")
        let result = try runInProcess(["heading", "--from-file", "-"], stdin: "t,x,y,z\n" + rows + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 51)
    }

    /// A header, then rows made mostly of long garbage lines: each bad line is counted, not kept.
    @Test func manyLongBadRowsAreCountedNotKept() throws {
        let folder = try makeTemporaryFolder("hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("rows.csv")
        var text = "t,x,y,z\n"
        let garbage = String(repeating: "x", count: 60_000) + "\n"
        for _ in 0..<300 { text += garbage }
        try text.write(to: url, atomically: true, encoding: .utf8)
        let run = try runLodestoneLimited(["calibrate", "--from-file", url.path], dataLimitKiB: Self.limitKiB)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("300 of 300 rows are unusable"), "\(run.stderr)")
    }
}

/// The limit leaves room for an ordinary run (python3 -c "bytearray(300 << 20)" under it fails).
@Suite("memory-limited runs")
struct LimitedRunTests {
    @Test func aGoodRecordingFitsWithinTheLimit() throws {
        let folder = try makeTemporaryFolder("limited")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("good.csv").path
        let rows = (0..<200).map { i in "\(Double(i) / 10),\(20 + i % 7),-5,42" }.joined(separator: "\n")
        try ("t,x,y,z\n" + rows + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try runLodestoneLimited(["heading", "--from-file", path], dataLimitKiB: HostileInputTests.limitKiB).status == 0)
    }
}
