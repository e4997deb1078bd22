import Foundation
import Linear
import Testing
import TestSupport

@Suite("lodestone log (end to end)", .serialized)
struct LogCommandTests {
    @Test("a log killed five times with SIGKILL and appended to again is one valid CSV with monotonic time")
    func killedFiveTimes() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("kill.csv").path
        var random = SplitMix64(seed: 20_250_601)
        for run in 0..<5 {
            let child = try PipedChild(lodestoneBinaryPath, ["log", "--simulate", "--output", path, "--rate", "50"])
            Thread.sleep(forTimeInterval: 0.3 + 1.2 * random.nextUnit())
            kill(child.pid, SIGKILL)
            #expect(child.wait() == SIGKILL && child.wasSignalled, "run \(run) was killed")
        }
        // A torn write, as a kill inside write() or a power cut can leave.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("2001-01-01T00:00:00.000Z,12.5,33.1".utf8))
        try handle.close()

        let last = try runLodestone(["log", "--simulate", "--output", path, "--rate", "50", "--duration", "1"], timeout: 20)
        #expect(last.status == 0, "stderr: \(last.stderr)")
        #expect(last.stderr.contains("incomplete last row"))
        let check = LogCheck(path: path)
        #expect(check.problems.isEmpty, "\(check.problems.prefix(5))")
        #expect(check.rows.count >= 60, "rows from the killed runs and the last one: \(check.rows.count)")
        #expect(check.runs.count >= 2 && check.runs.count <= 6, "\(check.runs.count) runs")
        for run in check.runs {
            #expect(run.first.map { $0 < 0.5 } == true, "each run starts at monotonic 0: \(run.prefix(3))")
            #expect(zip(run, run.dropFirst()).allSatisfy { $0 <= $1 }, "monotonic_s never decreases within a run")
        }
        #expect(check.runs.last?.count ?? 0 >= 40, "the final run logged ~50 rows in 1 s at 50 Hz")
    }

    @Test("--output - writes the log to standard output: the header, then rows")
    func outputToStandardOutput() throws {
        // End to end: the log file layer writes "-" to the process's own descriptor 1.
        let result = try runLodestone(["log", "--simulate", "--output", "-", "--rate", "10", "--duration", "0.5"], timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("time,monotonic_s,") == true, "\(result.stdout.prefix(200))")
        #expect(lines.count >= 3)
    }

    @Test("a write error part-way (file size limit): exit 74, and the file still holds whole rows only")
    func writeErrorKeepsWholeRows() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("limit.csv").path
        let child = try lodestoneUnderFileSizeLimit(blocks: 64, ["log", "--simulate", "--output", path, "--rate", "1000", "--duration", "30"])
        let status = child.wait()
        let stderr = child.stderr
        #expect(status == 74, "stderr: \(stderr)")
        #expect(stderr.contains("cannot write \(path)"))
        #expect(stderr.contains("intact up to its last whole row"))
        let check = LogCheck(path: path)
        #expect(check.problems.isEmpty, "\(check.problems.prefix(3))")
        #expect(check.rows.count > 50)
    }
}
