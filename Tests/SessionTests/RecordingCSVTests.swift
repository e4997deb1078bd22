import Foundation
import Platform
import Testing
import TestSupport
@testable import Session

/// The recording reader behind `calibrate --from-file` and `heading --from-file`: what it accepts,
/// and the reason it gives for what it refuses (issue: hostile inputs).
@Suite("recording CSV reader")
struct RecordingCSVTests {
    /// A steady field with `rows` rows as `t,x,y,z`.
    static func rows(_ count: Int, from start: Int = 0) -> String {
        (start..<start + count).map { "\(Double($0) / 10),\(20 + $0 % 7),-5,42" }.joined(separator: "\n") + "\n"
    }

    static func refusal(_ text: String) -> RecordingError? {
        do { _ = try Recording.parse(text, path: "bad.csv"); return nil } catch { return error }
    }

    @Test func aByteOrderMarkBeforeTheHeaderIsIgnored() throws {
        let text = "\u{FEFF}t,x,y,z\n" + Self.rows(20)
        let r = try Recording.parse(text, path: "bom.csv", requireTime: true)
        #expect(r.magnetic.count == 20 && r.badRowCount == 0)
        #expect(r.times?.first == 0)
    }

    @Test func aByteOrderMarkAndWindowsLineEndsTogether() throws {
        let text = "\u{FEFF}mx,my,mz\r\n1,2,3\r\n4,5,6\r\n"
        let r = try Recording.parse(text, path: "crlf.csv")
        #expect(r.magnetic.count == 2 && r.magnetic[1].z == 6)
        #expect(r.magneticColumns == ["mx", "my", "mz"])
    }

    @Test func aMissingTimeColumnIsNamedWhenTheTimeIsNeeded() throws {
        let text = "x,y,z\n1,2,3\n"
        #expect(throws: RecordingError.missingTime(path: "no-t.csv", line: 1)) {
            try Recording.parse(text, path: "no-t.csv", requireTime: true)
        }
        let message = RecordingError.missingTime(path: "no-t.csv", line: 1).message
        #expect(message.contains("no t column"))
        // Calibration does not need it.
        #expect(try Recording.parse(text, path: "no-t.csv").magnetic.count == 1)
    }

    /// A row without a usable time is a bad row by the same rule as a row without a field value.
    @Test func rowsWithoutATimeCountAsBadRows() throws {
        var text = "t,x,y,z\n" + Self.rows(18)
        text += ",1,2,3\nabc,1,2,3\n"      // 2 of 20: 10 %, not more
        let r = try Recording.parse(text, path: "t.csv", requireTime: true)
        #expect(r.badRowCount == 2 && r.magnetic.count == 18)
        #expect(r.badRows.map(\.reason) == ["column t (the time) is empty", "column t (the time) is not a number"])
        text += ",4,5,6\n"                 // 3 of 21: more than 10 %
        #expect(throws: RecordingError.self) { try Recording.parse(text, path: "t.csv", requireTime: true) }
    }

    @Test func theRuleIsOneForEveryKindOfBadRow() {
        #expect(!BadRowRule.rejects(bad: 10, rows: 100))
        #expect(BadRowRule.rejects(bad: 11, rows: 100))
        #expect(BadRowRule.rejects(bad: 1, rows: 1))
        #expect(BadRowRule.rejects(bad: 0, rows: 0))
    }

    @Test func aNulByteIsNotTextAndBadData() {
        let bytes = Array("t,x,y,z\n0,1,2,3\n".utf8) + [0, 0, 0, 10]
        #expect(throws: RecordingError.notText(path: "bin.csv", line: 3)) {
            try Recording.parse(bytes, path: "bin.csv")
        }
        #expect(RecordingError.notText(path: "bin.csv", line: 3).exitCode == .dataError)
        #expect(FileError.notText(path: "x").exitCode == .dataError)
    }

    @Test func devZeroIsRefusedAtOnce() {
        #expect(throws: RecordingError.notText(path: "/dev/zero", line: 1)) {
            try Recording.read(path: "/dev/zero")
        }
    }

    @Test func aHeaderLongerThanTheLineLimitIsNotAHeader() {
        let bytes = [UInt8](repeating: 44, count: Recording.maximumLineLength + 1) + [10]
        #expect(throws: RecordingError.lineTooLong(path: "c.csv", line: 1, limit: Recording.maximumLineLength)) {
            try Recording.parse(bytes, path: "c.csv")
        }
    }

    /// Bad rows are counted; only the first few are kept as examples, whatever their number.
    @Test func badRowsAreCountedAndOnlyAFewKept() throws {
        var text = "x,y,z\n"
        for _ in 0..<500 { text += "a,b,c\n" }
        let error = Self.refusal(text)
        #expect(error == .tooManyBadRows(path: "bad.csv", bad: 500, rows: 500,
                                         examples: (2...6).map { Recording.BadRow(line: $0, reason: "column x is not a number ('a')") }))
        text = "x,y,z\n" + String(repeating: "1,2,3\n", count: 1000) + String(repeating: "1,,3\n", count: 50)
        let r = try Recording.parse(text, path: "some.csv")
        #expect(r.badRowCount == 50 && r.badRows.count == Recording.keptBadRows)
    }

    /// A row with more fields than needed is split only as far as the columns used.
    @Test func fieldsBeyondTheUsedColumnsAreOnlyCounted() throws {
        let wide = "x,y,z\n1,2,3" + String(repeating: ",", count: 30_000) + "\n4,5\n" + String(repeating: "1,2,3\n", count: 20)
        let r = try Recording.parse(wide, path: "wide.csv")
        #expect(r.magnetic.count == 21)
        #expect(r.badRows.first?.reason == "2 values, but the header has 3 columns")
    }

    @Test func aRecordingLargerThanTheLimitIsRefusedBeforeReading() throws {
        let folder = try makeTemporaryFolder("recording")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("huge.csv").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x,y,z\n".utf8)))
        #expect(truncate(path, off_t(Recording.maximumFileSize) + 1) == 0)   // sparse: no disk used
        #expect(throws: RecordingError.tooLarge(path: path, bytes: Recording.maximumFileSize + 1)) {
            try Recording.read(path: path)
        }
    }
}

/// `heading --from-file` and `calibrate --from-file` on recordings that cannot give a result.
@Suite("from-file commands refuse what they cannot use")
struct FromFileRefusalTests {
    /// Every row read, none giving a heading (a field too large to be finite when squared): 65,
    /// where it used to print a header and exit 0.
    @Test func headingExitsWithBadDataWhenNoRowGivesAHeading() throws {
        let h = try SessionHarness("heading-none")
        let path = h.path("huge.csv")
        let rows = (0..<20).map { "\(Double($0) / 10),1e300,1e300,1e300" }.joined(separator: "\n")
        try ("t,x,y,z\n" + rows + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try HeadingReplay(path: path).run(runtime: h.runtime("heading"))
            Issue.record("accepted")
        } catch let error as HeadingReplayError {
            #expect(error == .tooFewUsable(path: path, unusable: 20, rows: 20))
            #expect(error.exitCode == .dataError)
        }
    }

    @Test func headingNamesAMissingTimeColumn() throws {
        let h = try SessionHarness("heading-no-t")
        let path = h.path("no-t.csv")
        try "x,y,z\n1,2,3\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: RecordingError.missingTime(path: path, line: 1)) {
            try HeadingReplay(path: path).run(runtime: h.runtime("heading"))
        }
    }

    @Test func calibrateRefusesToOverwriteItsRecording() throws {
        let h = try SessionHarness("calibrate-self")
        let path = h.path("raw.csv")
        let original = "x,y,z\n1,2,3\n"
        try original.write(toFile: path, atomically: true, encoding: .utf8)
        for output in [path, h.folder.path + "/./raw.csv"] {
            do {
                _ = try calibrateFromFile(CalibrationFileRequest(path: path, output: output), runtime: h.runtime("calibrate"))
                Issue.record("accepted")
            } catch let error as InvalidRequest {
                #expect(error.message.contains("would overwrite the recording"))
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == original)
    }
}

/// Outputs that would overwrite an input, or each other, are refused before anything is read.
@Suite("analyze refuses outputs that collide")
struct AnalyzeOutputCollisionTests {
    @Test func svgAndGpxOnOneFileOrOnTheLogAreRefused() throws {
        let h = try SessionHarness("analyze-collide")
        let log = h.path("heading.csv")
        try "not read\n".write(toFile: log, atomically: true, encoding: .utf8)
        let cases: [(LogAnalysisQuery, String)] = [
            (LogAnalysisQuery(path: log, svgPath: h.path("x.out"), gpxPath: h.path("x.out")), "name the same file"),
            (LogAnalysisQuery(path: log, svgPath: log), "would overwrite the log"),
            (LogAnalysisQuery(path: log, gpxPath: h.folder.path + "/./heading.csv"), "would overwrite the log"),
        ]
        for (query, reason) in cases {
            do {
                _ = try query.run(runtime: h.runtime("analyze"))
                Issue.record("accepted")
            } catch let error as InvalidRequest {
                #expect(error.message.contains(reason), "\(error.message)")
            }
        }
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "not read\n")
    }
}
