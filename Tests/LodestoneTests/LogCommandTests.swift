import Foundation
import Testing
import TestSupport

/// The v1 log header: the contract scripts and spreadsheets rely on.
let logHeaderV1 = "time,monotonic_s,raw_x_uT,raw_y_uT,raw_z_uT,cal_x_uT,cal_y_uT,cal_z_uT,field_uT,roll_deg,pitch_deg,"
    + "heading_mag_raw_deg,heading_mag_deg,declination_deg,declination_source,heading_true_deg,accuracy_deg,flags,"
    + "gnss_mode,lat_deg,lon_deg,alt_m,speed_mps,course_deg,eph_m,fix_distance_m,fix_bearing_deg"

/// What a log file looks like when checked against the rules every log must keep.
struct LogCheck {
    var rows: [[String]] = []
    var problems: [String] = []
    /// Runs, split where monotonic_s decreases.
    var runs: [[Double]] = []

    init(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else {
            problems.append("cannot read \(path)")
            return
        }
        let text = String(decoding: data, as: UTF8.self)
        if !text.hasSuffix("\n") { problems.append("the file does not end with a line end (partial line)") }
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        guard lines.first == logHeaderV1 else {
            problems.append("first line is not the header: \(lines.first ?? "")")
            return
        }
        var previousTime = ""
        var previousMonotonic = -Double.infinity
        for (i, line) in lines.enumerated().dropFirst() {
            if line == logHeaderV1 { problems.append("line \(i + 1): a second header"); continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 27 else { problems.append("line \(i + 1): \(fields.count) fields: \(line)"); continue }
            guard fields[0].count == 24, fields[0].hasSuffix("Z") else { problems.append("line \(i + 1): time \(fields[0])"); continue }
            if fields[0] < previousTime { problems.append("line \(i + 1): time goes back \(previousTime) → \(fields[0])") }
            previousTime = fields[0]
            guard let monotonic = Double(fields[1]) else { problems.append("line \(i + 1): monotonic_s \(fields[1])"); continue }
            if monotonic < previousMonotonic || runs.isEmpty { runs.append([]) }
            runs[runs.count - 1].append(monotonic)
            previousMonotonic = monotonic
            rows.append(fields)
        }
    }
}

/// A small fixed-seed generator (the test target has no Linear).
struct TestRandom {
    var state: UInt64
    mutating func unit() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) * 0x1.0p-53
    }
}

@Suite("lodestone log (end to end)", .serialized)
struct LogCommandTests {
    @Test("a log killed five times with SIGKILL and appended to again is one valid CSV with monotonic time")
    func killedFiveTimes() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("kill.csv").path
        var random = TestRandom(state: 20_250_601)
        for run in 0..<5 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: lodestoneBinaryPath)
            process.arguments = ["log", "--simulate", "--output", path, "--rate", "50"]
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: 0.3 + 1.2 * random.unit())
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "run \(run) was killed")
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

    @Test("SIGTERM flushes and exits 0 with the file intact")
    func sigterm() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("term.csv").path
        let result = try runLodestone(["log", "--simulate", "--output", path, "--rate", "50"], timeout: 20, signalAfter: 1.5)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.timedOut)
        let check = LogCheck(path: path)
        #expect(check.problems.isEmpty, "\(check.problems.prefix(5))")
        #expect(check.rows.count >= 30, "\(check.rows.count) rows in ~1.5 s at 50 Hz")
        #expect(result.stderr.contains("\(check.rows.count) rows written"))
        #expect(check.rows.allSatisfy { Double($0[11]).map { $0 >= 0 && $0 < 360 } == true }, "a heading on every row")
    }

    @Test("--duration 1 stops by itself after about 1 s of rows")
    func duration() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("d.csv").path
        let started = Date()
        let result = try runLodestone(["log", "--simulate", "--output", path, "--rate", "20", "--duration", "1"], timeout: 20)
        #expect(result.status == 0)
        #expect(Date().timeIntervalSince(started) < 8)
        let check = LogCheck(path: path)
        #expect(check.problems.isEmpty)
        #expect((15...20).contains(check.rows.count), "\(check.rows.count) rows, one per 50 ms slot")
        if let first = check.runs.first, let last = first.last {
            #expect(last > 0.8 && last < 1.0, "rows span the second: last at \(last) s")
            let intervals = zip(first, first.dropFirst()).map { $1 - $0 }
            #expect(intervals.allSatisfy { $0 > 0.02 && $0 < 0.2 }, "about 50 ms apart: \(intervals)")
        }
    }

    @Test("an existing file with another header: exit 65, untouched, with a way out")
    func otherHeader() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("other.csv").path
        try "date,value\n2024-01-01,3\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runLodestone(["log", "--simulate", "--output", path, "--duration", "0.5"], timeout: 20)
        #expect(result.status == 65)
        #expect(result.stderr.contains(path))
        #expect(result.stderr.contains("--overwrite"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "date,value\n2024-01-01,3\n")
        let again = try runLodestone(["log", "--simulate", "--output", path, "--duration", "0.3", "--overwrite"], timeout: 20)
        #expect(again.status == 0)
        #expect(LogCheck(path: path).problems.isEmpty)
    }

    @Test("a folder that cannot be written: exit 74 with a message")
    func readOnlyFolder() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        var path = dir.appendingPathComponent("ro/log.csv").path
        if getuid() == 0 {
            path = "/sys/lodestone-log-test.csv"   // root writes through permissions; sysfs refuses new files
        } else {
            let ro = dir.appendingPathComponent("ro")
            try FileManager.default.createDirectory(at: ro, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: ro.path)
        }
        let result = try runLodestone(["log", "--simulate", "--output", path, "--duration", "0.5"], timeout: 20)
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot open \(path)"))
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test("a write error part-way (file size limit): exit 74, and the file still holds whole rows only")
    func writeErrorKeepsWholeRows() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("limit.csv").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -f 64 && exec \"$0\" log --simulate --output \"$1\" --rate 1000 --duration 30",
                             lodestoneBinaryPath, path]
        let errPipe = Pipe()
        process.standardError = errPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 74, "stderr: \(stderr)")
        #expect(stderr.contains("cannot write \(path)"))
        #expect(stderr.contains("intact up to its last whole row"))
        let check = LogCheck(path: path)
        #expect(check.problems.isEmpty, "\(check.problems.prefix(3))")
        #expect(check.rows.count > 50)
    }

    @Test("--rotate daily writes FILE-YYYYMMDD.csv for the UTC day, with its header")
    func rotateDaily() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let base = dir.appendingPathComponent("day.csv").path
        let result = try runLodestone(["log", "--simulate", "--output", base, "--rotate", "daily", "--duration", "0.5"], timeout: 20)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(names.count == 1)
        let name = try #require(names.first)
        #expect(name.range(of: #"^day-20\d{6}\.csv$"#, options: .regularExpression) != nil, "\(name)")
        let check = LogCheck(path: dir.appendingPathComponent(name).path)
        #expect(check.problems.isEmpty)
        #expect(check.rows.first.map { $0[0].replacingOccurrences(of: "-", with: "").hasPrefix(String(name.dropFirst(4).prefix(8))) } == true)
    }

    @Test("bad arguments exit 64")
    func usage() throws {
        let noOutput = try runLodestone(["log", "--simulate"])
        #expect(noOutput.status == 64)
        #expect(noOutput.stderr.contains("--output"))
        #expect(try runLodestone(["log", "--simulate", "-o", "x.csv", "--rotate", "weekly"]).status == 64)
        #expect(try runLodestone(["log", "--simulate", "-o", "x.csv", "--rotate", "daily", "--rotate-size", "5"]).status == 64)
        #expect(try runLodestone(["log", "--simulate", "-o", "x.csv", "--rate", "0"]).status == 64)
    }
}
