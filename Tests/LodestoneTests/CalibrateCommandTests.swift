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
