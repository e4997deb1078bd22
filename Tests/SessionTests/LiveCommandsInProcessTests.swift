import Foundation
import HeadingLog
import JSON
import Platform
@testable import Session
import Testing
import TestSupport

/// What the spawned-binary tests of `log` and `serve` checked, now in process on the manual clock:
/// the same sessions the commands run, their errors and exit codes, their output. (The dispatcher
/// prints an error's message after "lodestone COMMAND: " and exits with its code.)
@Suite("log and serve in process: headers, unwritable folders, JSON files")
struct LiveCommandsInProcessTests {
    /// The log session tests' request: simulated, no GNSS, every row.
    static func logRequest(_ path: String, overwrite: Bool = false) -> LogRequest {
        var request = LogSessionTests().request(path, rate: 10, duration: 0.5)
        request.file.overwrite = overwrite
        return request
    }

    @Test("log into an existing file with another header: exit 65, the file untouched, --overwrite named; with it, a valid log")
    func otherHeader() throws {
        let h = try SessionHarness("log-other-header")
        let path = h.path("other.csv")
        let before = "date,value\n2024-01-01,3\n"
        try before.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try LogRecording.run(Self.logRequest(path), runtime: h.runtime("log"))
            Issue.record("a file with another header must be refused")
        } catch let error as any UserFacingError {
            #expect(error.exitCode == .dataError, "\(error.message)")
            #expect(error.message.contains(path) && error.message.contains("--overwrite"), "\(error.message)")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
        #expect(h.clock.now() < 0.5, "refused before logging: \(h.clock.now())")
        #expect(try LogRecording.run(Self.logRequest(path, overwrite: true), runtime: h.runtime("log")) == .success)
        let check = LogCheck(path: path)
        #expect(check.problems.isEmpty, "\(check.problems.prefix(3))")
        #expect(check.rows.count == 5, "10 rows a second for 0.5 s: \(check.rows.count)")
    }

    @Test("log into a folder that cannot be written: exit 74 naming the file, nothing logged")
    func unwritableFolder() throws {
        let h = try SessionHarness("log-readonly")
        var path = h.path("ro/log.csv")
        if getuid() == 0 {
            path = "/sys/lodestone-log-test.csv"   // root writes through permissions; sysfs refuses new files
        } else {
            try FileManager.default.createDirectory(atPath: h.path("ro"), withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: h.path("ro"))
        }
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: h.path("ro")) }
        do {
            _ = try LogRecording.run(Self.logRequest(path), runtime: h.runtime("log"))
            Issue.record("an unwritable folder must be an error")
        } catch let error as any UserFacingError {
            #expect(error.exitCode == .ioError, "\(error.message)")
            #expect(error.message.contains("cannot open \(path)"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("serve --json FILE --duration 1.5 at 20 Hz: one JSON object per update in the file, their number said")
    func serveJSONFile() throws {
        let h = try SessionHarness("serve-json-file")
        let path = h.path("out.jsonl")
        let request = ServeRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none),
                                   rate: 20, duration: 1.5, json: [path])
        let summary = try ServeSession.run(request, runtime: h.runtime("serve"))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect((29...30).contains(lines.count), "20 Hz for 1.5 s: \(lines.count) lines")
        #expect(lines.count == summary.updates)
        for line in lines { #expect(try JSONValue.parse(String(line))["heading_mag_deg"]?.double != nil) }
        #expect(h.diagnostics.text.contains("\(lines.count) updates published"), "\(h.diagnostics.text)")
    }
}
