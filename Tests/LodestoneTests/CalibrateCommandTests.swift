import Foundation
import Testing
import TestSupport

/// `lodestone calibrate --record` as a real process: a signal ends it. The recording's rows, the
/// round trip through --from-file and the refusal to overwrite are tested in process
/// (SessionTests: CalibrateRecordInProcessTests).
@Suite("lodestone calibrate (simulator, end to end)")
struct CalibrateCommandTests {
    @Test("SIGTERM ends --record with whole rows, exit 0")
    func recordEndsOnSIGTERM() throws {
        let folder = try makeTemporaryFolder("calibrate-record2")
        defer { try? FileManager.default.removeItem(at: folder) }
        let second = folder.appendingPathComponent("raw2.csv").path
        let s = try runLodestone(["calibrate", "--simulate", "--record", second], timeout: 20, signalAfter: 1.5)
        #expect(s.status == 0, "exit \(s.status): \(s.stderr)")
        let text = try String(contentsOfFile: second, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n")
        #expect(lines.count > 50, "\(lines.count) lines in 1.5 s")
        let width = lines[0].split(separator: ",").count
        #expect(lines.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == width })
    }
}

@Suite("calibrate --record when the disk fills")
struct CalibrateRecordWriteErrorTests {
    @Test("a write error part-way (file size limit): exit 74, said with the samples kept, and the file holds whole rows only")
    func writeErrorKeepsWholeRows() throws {
        let folder = try makeTemporaryFolder("calibrate-record-limit")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("raw.csv").path
        // 8 blocks of 512 bytes: about 70 rows, which the simulator makes in well under a second.
        let child = try lodestoneUnderFileSizeLimit(blocks: 8, ["calibrate", "--simulate", "--record", path, "--duration", "30"])
        let status = child.wait()
        let stderr = child.stderr
        #expect(status == 74, "stderr: \(stderr)")
        #expect(stderr.contains("cannot write \(path)"), "\(stderr)")
        #expect(stderr.contains("samples recorded before it are intact"), "\(stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"), "the cut row was taken back: \(text.suffix(80))")
        let lines = text.split(separator: "\n")
        #expect(lines.count > 20)
        let width = lines[0].split(separator: ",").count
        #expect(lines.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == width })
    }
}
