import Foundation
import Testing
import TestSupport

/// `lodestone analyze`'s command line, in process (the dispatcher, parser and command as the binary
/// runs them): its arguments, and one log summarised (the wiring). What the summary, the SVG and the
/// GPX hold is tested on the session (SessionTests: AnalyzeInProcessTests).
@Suite("lodestone analyze (the command line, in process)")
struct AnalyzeCommandTests {
    @Test("a log is summarised as JSON; no file or two files: exit 64")
    func wiringAndArguments() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("walk.csv").path
        var text = logHeaderV1 + "\n"
        for i in 0..<5 {
            var f = [String](repeating: "", count: 27)
            f[0] = String(format: "2024-06-01T12:00:00.%03dZ", i * 100)
            f[1] = String(Double(i) / 10)
            f[8] = "50"
            f[12] = "10"
            text += f.joined(separator: ",") + "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runInProcess(["analyze", path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["rows"] as? Int == 5)
        #expect(try runInProcess(["analyze"]).status == 64)
        #expect(try runInProcess(["analyze", path, path]).status == 64)
    }
}
