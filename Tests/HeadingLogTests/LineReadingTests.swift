import Foundation
import HeadingLog
import Platform
import Testing

@Suite("chunked line reading")
struct LineReadingTests {
    /// Reads every line of a file with a small buffer, as (text, ending).
    func read(_ path: String, maximumLineLength: Int) throws -> [(String, LineEnding)] {
        var lines = try ChunkedLines(path: path, maximumLineLength: maximumLineLength)
        var out: [(String, LineEnding)] = []
        try lines.forEach { line, ending in
            out.append((String(decoding: line, as: UTF8.self), ending))
            return true
        }
        return out
    }

    @Test("lines across chunk boundaries, CRLF, an over-long line, a last line without its end")
    func boundaries() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/lines.txt"
        var expected: [String] = []
        var text = ""
        for i in 0..<300 {
            let line = String(repeating: Character(UnicodeScalar(97 + i % 26)!), count: (i * 37) % 700)
            expected.append(line)
            text += line + (i % 5 == 0 ? "\r\n" : "\n")
        }
        text += String(repeating: "x", count: 10_000) + "\n"   // longer than the 4096-byte buffer
        text += "after\n"
        text += "tail without end"
        try write(text, to: path)
        let got = try read(path, maximumLineLength: 4096)
        #expect(got.count == 303)
        #expect(zip(got.prefix(300), expected).allSatisfy { $0.0 == $1 && $0.1 == .newline })
        #expect(got[300].1 == .tooLong)
        #expect(got[301].0 == "after" && got[301].1 == .newline)
        #expect(got[302].0 == "tail without end" && got[302].1 == .endOfFile)
    }

    @Test("an over-long line in a log is one malformed line, and reading goes on")
    func longLineInLog() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/long.csv"
        let row = csvLine(["time": isoTime(1_700_000_000), "monotonic_s": "0", "heading_mag_deg": "1"])
        try write(LogSchema.header + "\n" + row + "\n" + String(repeating: "9", count: 3_000_000) + "\n" + row + "\n", to: path)
        var reported: [MalformedLine] = []
        let s = try LogAnalyzer.analyze(path: path) { reported.append($0) }.summary
        #expect(s.rows == 2)
        #expect(reported.map(\.line) == [3])
        #expect(reported.first?.problem == .tooLong)
    }
}

/// The batch line reader (standard input of `geod` and `declination`) holds at most one line of
/// `maximumLineLength` bytes: a longer one is bad data, not a growing buffer.
@Suite("line reader: bounded lines")
struct LineReaderBoundTests {
    func reader(for bytes: [UInt8], limit: Int) throws -> (LineReader, Int32) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(getpid())-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        unlink(path)
        return (LineReader(fd: fd, name: "standard input", maximumLineLength: limit), fd)
    }

    @Test func aLineAtTheLimitIsReadOneOverIsRefused() throws {
        var (ok, fd1) = try reader(for: Array(String(repeating: "7", count: 100).utf8) + [10, 49, 10], limit: 100)
        defer { close(fd1) }
        #expect(try ok.next()?.count == 100)
        #expect(try ok.next() == "1")
        #expect(try ok.next() == nil)
        var (long, fd2) = try reader(for: Array("1,2\n".utf8) + [UInt8](repeating: 44, count: 5_000_000), limit: 1 << 16)
        defer { close(fd2) }
        #expect(try long.next() == "1,2")
        #expect(throws: FileError.lineTooLong(path: "standard input", line: 2, limit: 1 << 16)) { try long.next() }
        #expect(FileError.lineTooLong(path: "x", line: 2, limit: 9).exitCode == .dataError)
        // The last line, without its line end, is held to the same bound.
        var (last, fd3) = try reader(for: [UInt8](repeating: 55, count: 101), limit: 100)
        defer { close(fd3) }
        #expect(throws: FileError.self) { try last.next() }
    }
}

/// A UTF-8 byte-order mark before the header (issue: hostile inputs) is dropped by every line reader.
@Suite("byte-order mark")
struct ByteOrderMarkTests {
    @Test func theChunkedReaderAndTheLineReaderDropIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bom-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bom.csv").path
        try Data([0xEF, 0xBB, 0xBF] + Array("a,b\r\n\u{FEFF}c\n".utf8)).write(to: URL(fileURLWithPath: path))
        var lines = try ChunkedLines(path: path)
        var got: [String] = []
        try lines.forEach { line, _ in got.append(String(decoding: line, as: UTF8.self)); return true }
        #expect(got == ["a,b", "\u{FEFF}c"], "only before the first line")
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        var reader = LineReader(fd: fd)
        #expect(try reader.next() == "a,b")
        #expect(try reader.next() == "\u{FEFF}c")
    }

    @Test func analyzeReadsALogWithOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bom-log-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("log.csv").path
        let row = LogSchema.header.split(separator: ",", omittingEmptySubsequences: false).map { name -> String in
            switch name {
            case "time": return "2026-12-01T09:00:00.000Z"
            case "monotonic_s": return "1"
            case "heading_mag_deg": return "90"
            case "declination_source": return "none"
            default: return ""
            }
        }.joined(separator: ",")
        try Data([0xEF, 0xBB, 0xBF] + Array((LogSchema.header + "\n" + row + "\n").utf8)).write(to: URL(fileURLWithPath: path))
        let analysis = try LogAnalyzer.analyze(path: path)
        #expect(analysis.summary.rows == 1)
    }
}
