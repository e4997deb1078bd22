import Foundation
import HeadingLog
import Linear
import Platform
import Testing

/// A clock the test moves by hand.
final class TestClock: @unchecked Sendable {
    var now = 100.0
}

@Suite("append-safe writer")
struct WriterTests {
    func row(_ i: Int, base: Double = 1_700_000_000) -> LogRow {
        var r = LogRow(time: base + Double(i) * 0.1, monotonic: 50 + Double(i) * 0.1)
        r.rawField = Vector3(20, Double(i % 7), -40)
        r.magneticHeading = Double(i % 360)
        return r
    }

    @Test("a new file gets one header; reopening appends without another")
    func headerOnce() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/a.csv"
        for run in 0..<3 {
            let s = try LogSession(.init(path: path))
            for i in 0..<5 { try s.append(row(run * 5 + i)) }
            try s.close()
            #expect(s.rowsWritten == 5)
        }
        let all = lines(path)
        #expect(all.count == 16)
        #expect(all.first == LogSchema.header)
        #expect(all.filter { $0 == LogSchema.header }.count == 1)
        #expect(all[1].hasPrefix("2023-11-14T22:13:20.000Z,0,"), "monotonic_s starts at 0 in each run: \(all[1])")
        #expect(all[6].hasPrefix("2023-11-14T22:13:20.500Z,0,"))
    }

    @Test("a file in an earlier layout (27 columns, then 33) keeps it when appended to, and reads back",
          arguments: LogSchema.earlierColumnCounts)
    func earlierLayout(columns count: Int) throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/old.csv"
        var old = row(0)
        old.acceleration = Vector3(0, 0, -1)
        var oldLine: [UInt8] = []
        LogRowFormat.append(old, to: &oldLine, columns: count)
        try write(LogSchema.header(columns: count) + "\n" + String(decoding: oldLine, as: UTF8.self), to: path)
        #expect(LogSchema.match(header: Array(LogSchema.header(columns: count).utf8)) == .extended(knownColumns: count, fieldCount: count))
        let s = try LogSession(.init(path: path))
        var new = row(1)
        new.acceleration = Vector3(0.01, 0, -0.99)
        new.rotationRate = Vector3(1, 2, 3)
        new.rollAccuracy = 0.5
        new.pitchAccuracy = 0.25
        try s.append(new)
        try s.close()
        let all = lines(path)
        #expect(all.count == 3)
        #expect(all.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == count },
                "every line keeps the file's \(count) columns")
        let summary = try LogAnalyzer.analyze(path: path).summary
        #expect(summary.rows == 2 && summary.malformedRows == 0)
        let parsedOld = try LogRowParser(fieldCount: count, knownColumns: count).parse(all[2])
        #expect(parsedOld.rollAccuracy == nil && parsedOld.magneticHeading == new.magneticHeading)
        #expect((parsedOld.rotationRate != nil) == (count >= LogSchema.inertialReleaseColumnCount))
        // A new file gets every column, the inertial ones and the attitude's accuracies at the end.
        let fresh = dir + "/new.csv"
        let t = try LogSession(.init(path: fresh))
        try t.append(new)
        try t.close()
        #expect(lines(fresh).first == LogSchema.header)
        #expect(lines(fresh).last?.hasSuffix(",0.5,0.25") == true, "\(lines(fresh))")
        let back = try LogRowParser().parse(lines(fresh)[1])
        #expect(back.acceleration == Vector3(0.01, 0, -0.99) && back.rotationRate == Vector3(1, 2, 3))
        #expect(back.rollAccuracy == 0.5 && back.pitchAccuracy == 0.25)
    }

    @Test("a file with another header is refused: exit 65, names the file, suggests a new name or --overwrite")
    func otherSchema() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/other.csv"
        try write("time,lat,lon\n1,2,3\n", to: path)
        do {
            _ = try LogSession(.init(path: path))
            Issue.record("expected an error")
        } catch {
            #expect(error.exitCode == .dataError)
            #expect(error.message.contains(path))
            // Described (line 1, 3 fields), never quoted: the file may be anyone's.
            #expect(!error.message.contains("time,lat,lon"))
            #expect(error.message.contains("line 1") && error.message.contains("3 fields"), "\(error.message)")
            #expect(error.message.contains("--overwrite"))
            #expect(error.message.contains(dir + "/other-2.csv"))
        }
        #expect(contents(path) == "time,lat,lon\n1,2,3\n", "the file is untouched")
        let s = try LogSession(.init(path: path, overwrite: true))
        try s.append(row(0))
        try s.close()
        #expect(lines(path) == [LogSchema.header, String(LogRowFormat.line(row(0)).dropLast()).replacingOccurrences(of: ",50,", with: ",0,")])
    }

    @Test("an incomplete last row left by a kill is dropped before appending")
    func partialLineRepair() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/p.csv"
        let s = try LogSession(.init(path: path))
        for i in 0..<3 { try s.append(row(i)) }
        try s.close()
        let whole = contents(path)
        let partial = String(LogRowFormat.line(row(3)).prefix(40))
        try write(whole + partial, to: path)
        let again = try LogSession(.init(path: path))
        #expect(again.notes.count == 1)
        #expect(again.notes.first?.contains("\(partial.utf8.count) bytes") == true)
        try again.append(row(4))
        try again.close()
        let all = lines(path)
        #expect(all.count == 5)
        #expect(contents(path).hasPrefix(whole))
        #expect(all.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == LogSchema.fieldCount })
    }

    @Test("a header cut short (or zeros from a power cut) is rewritten")
    func partialHeader() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        for junk in [String(LogSchema.header.prefix(30)), String(repeating: "\0", count: 100)] {
            let path = dir + "/h.csv"
            try write(junk, to: path)
            let s = try LogSession(.init(path: path))
            try s.append(row(0))
            try s.close()
            #expect(lines(path).count == 2)
            #expect(lines(path).first == LogSchema.header)
        }
    }

    @Test("rows reach the file on the flush cadence, and all of them on close")
    func cadence() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/c.csv"
        let clock = TestClock()
        let s = try LogSession(.init(path: path, fsyncInterval: 2, flushInterval: 0.5), monotonicClock: { clock.now })
        for i in 0..<4 { try s.append(row(i)); clock.now += 0.1 }
        #expect(lines(path).count == 1, "nothing written before the flush interval")
        clock.now += 0.2
        try s.tick()
        #expect(lines(path).count == 5)
        try s.append(row(4))
        #expect(lines(path).count == 5)
        try s.close()
        #expect(lines(path).count == 6)
    }

    @Test("a full disk is exit 74 with a clear message (/dev/full)")
    func diskFull() throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"))
        do {
            _ = try LogSession(.init(path: "/dev/full"))
            Issue.record("expected an error")
        } catch {
            #expect(error.exitCode == .ioError)
            #expect(error.message.contains("/dev/full"))
            #expect(error.message.contains("disk is full"))
        }
    }

    @Test("a second writer on the same file is refused")
    func busy() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/b.csv"
        let first = try LogSession(.init(path: path))
        #expect(throws: LogError.busy(path: path)) { _ = try LogSession(.init(path: path)) }
        try first.close()
        let second = try LogSession(.init(path: path))
        try second.close()
    }

    @Test("rotation by size: numbered files, each with a header, none over the limit; a new run resumes the last")
    func rotateBySize() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/r.csv"
        let limit = 1000
        let s = try LogSession(.init(path: path, rotation: .size(bytes: limit)))
        for i in 0..<40 { try s.append(row(i)) }
        try s.close()
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(names.count >= 3, "\(names)")
        #expect(names.contains("r.csv") && names.contains("r.1.csv") && names.contains("r.2.csv"))
        var total = 0
        for name in names {
            let file = dir + "/" + name
            let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            #expect(size <= limit, "\(name): \(size)")
            #expect(lines(file).first == LogSchema.header)
            total += lines(file).count - 1
        }
        #expect(total == 40)
        let last = LogRotation.numberedPath(path, names.count - 1)
        let resumed = try LogSession(.init(path: path, rotation: .size(bytes: limit)))
        #expect(resumed.currentPath == last || resumed.currentPath == LogRotation.numberedPath(path, names.count))
        try resumed.close()
    }

    @Test("daily rotation: one file per UTC day, named by date")
    func rotateDaily() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/d.csv"
        let midnight = 1_717_200_000.0   // 2024-06-01T00:00:00Z
        let s = try LogSession(.init(path: path, rotation: .daily), wall: midnight - 5)
        for i in 0..<100 { try s.append(row(i, base: midnight - 5)) }
        try s.close()
        let a = dir + "/d-20240531.csv", b = dir + "/d-20240601.csv"
        #expect(lines(a).count == 51)
        #expect(lines(b).count == 51)
        #expect(lines(b).first == LogSchema.header)
        #expect(lines(b)[1].hasPrefix("2024-06-01T00:00:00.000Z"))
    }

    @Test("--keep: a rotated log keeps its newest N files, says what it removed, and a new run resumes the newest")
    func keepBySize() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/k.csv"
        // Files that are not this log's are never touched, whatever their names look like.
        for other in ["k.notes.csv", "k.1.csv.bak", "kk.5.csv", "k.+7.csv"] {
            FileManager.default.createFile(atPath: dir + "/" + other, contents: Data("x".utf8))
        }
        let s = try LogSession(.init(path: path, rotation: .size(bytes: 1000), keep: 2))
        for i in 0..<60 { try s.append(row(i)) }
        let said = s.takeNews()
        try s.close()
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        let logs = LogRotation.existingFiles(path, rotation: .size(bytes: 1000))
        #expect(logs.count == 2, "\(names)")
        let newest = try #require(logs.last)
        #expect(newest.key >= 3 && logs.first?.key == newest.key - 1, "\(names)")
        #expect(said.count == newest.key - 1 && said.allSatisfy { $0.hasPrefix("removed the old log file") }, "\(said)")
        for other in ["k.notes.csv", "k.1.csv.bak", "kk.5.csv", "k.+7.csv"] { #expect(names.contains(other)) }
        // The next run appends to the highest number, though the ones below it are gone.
        let resumed = try LogSession(.init(path: path, rotation: .size(bytes: 1000), keep: 2))
        #expect(resumed.currentPath == newest.path || resumed.currentPath == LogRotation.numberedPath(path, newest.key + 1))
        try resumed.close()
        // Daily files by their date, oldest first.
        let daily = dir + "/d.csv"
        for day in ["20240530", "20240601", "20240531"] {
            FileManager.default.createFile(atPath: dir + "/d-" + day + ".csv", contents: Data())
        }
        #expect(LogRotation.existingFiles(daily, rotation: .daily).map(\.key) == [20240530, 20240531, 20240601])
        let midnight = 1_717_200_000.0   // 2024-06-01T00:00:00Z
        let d = try LogSession(.init(path: daily, rotation: .daily, keep: 1), wall: midnight + 5)
        #expect(d.notes.count == 2, "\(d.notes)")
        try d.close()
        #expect(LogRotation.existingFiles(daily, rotation: .daily).map(\.key) == [20240601])
    }

    @Test("file names for rotation")
    func names() {
        #expect(LogRotation.numberedPath("/var/lib/lodestone/heading.csv", 0) == "/var/lib/lodestone/heading.csv")
        #expect(LogRotation.numberedPath("/var/lib/lodestone/heading.csv", 3) == "/var/lib/lodestone/heading.3.csv")
        #expect(LogRotation.numberedPath("log", 2) == "log.2")
        #expect(LogRotation.numberedPath("./a.b/log", 1) == "./a.b/log.1")
        #expect(LogRotation.datedPath("heading.csv", day: 19875) == "heading-20240601.csv")
    }
}
