import Foundation
import Glibc
import Platform
import Testing
import TestSupport

/// The `lodestone` binary against a gpsd stand-in (`StreamingGpsd`): a receiver whose time is 30
/// years off is said on stderr and flagged in the log, and never stamps a row; region hooks stay
/// bounded when a fix flaps across a region's edge 200 times a second, and a hook that runs too
/// long is stopped.
@Suite("receiver times and region hooks, end to end", .serialized)
struct ReceiverTimeAndHookTests {
    static let thirtyYears = 30 * 365.25 * 86_400

    /// The CSV's rows as fields, by the header's column names.
    func table(_ text: String) -> (columns: [String: Int], rows: [[String]]) {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return ([:], []) }
        return (Dictionary(header.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a }), Array(lines.dropFirst()))
    }

    @Test func aReceiverThirtyYearsBehindIsSaidAndFlaggedInTheLogAndNeverStampsServesFixes() throws {
        let dir = try makeTemporaryFolder("gnss-time"); defer { try? FileManager.default.removeItem(at: dir) }
        let behind = Clock.wall() - Self.thirtyYears
        let gpsd = try StreamingGpsd(rate: 5) { n in
            StreamingGpsd.tpv(time: behind + Double(n) * 0.2, lat: -33.87 + Double(n) * 1e-5, lon: 151.2)
        }
        defer { gpsd.stop() }
        let log = dir.path + "/heading.csv"
        let r = try runLodestone(["log", "--simulate", "--gpsd", "127.0.0.1:\(gpsd.port)", "--output", log,
                                  "--rate", "5", "--duration", "4"], timeout: 40)
        #expect(r.status == 0, "\(r.stderr)")
        let said = r.stderr.components(separatedBy: "30 years behind the system clock").count - 1
        #expect(said == 1, "said once on stderr: \(r.stderr)")
        let (columns, rows) = table(try String(contentsOfFile: log, encoding: .utf8))
        let lat = try #require(columns["lat_deg"]), flags = try #require(columns["flags"]), time = try #require(columns["time"])
        let carrying = rows.filter { !$0[lat].isEmpty }
        try #require(carrying.count >= 3, "no row carried a fix: \(r.stderr)")
        #expect(carrying.allSatisfy { $0[flags].split(separator: "|").contains("gnssTimeOff") }, "\(carrying.map { $0[flags] })")
        #expect(rows.allSatisfy { !$0[time].hasPrefix("1996") && !$0[time].hasPrefix("1997") }, "a row stamped by the receiver")

        let json = dir.path + "/serve.jsonl"
        let s = try runLodestone(["serve", "--simulate", "--gpsd", "127.0.0.1:\(gpsd.port)", "--json", json,
                                  "--rate", "5", "--duration", "3"], timeout: 40)
        #expect(s.status == 0, "\(s.stderr)")
        #expect(s.stderr.contains("30 years behind the system clock"), "\(s.stderr)")
        let objects = try String(contentsOfFile: json, encoding: .utf8)
        try #require(objects.contains(#""fix":{"#), "no fix was published: \(s.stderr)")
        #expect(!objects.contains(#""time":"1996"#) && !objects.contains(#""time":"1997"#), "a fix stamped by the receiver")
    }

    @Test func trackSaysAReceiverThirtyYearsAheadAndStampsItsRowsWithTheSystemsTime() throws {
        let ahead = Clock.wall() + Self.thirtyYears
        let gpsd = try StreamingGpsd(rate: 5) { n in
            StreamingGpsd.tpv(time: ahead + Double(n) * 0.2, lat: -33.87 + Double(n) * 1e-4, lon: 151.2)
        }
        defer { gpsd.stop() }
        let r = try runLodestone(["track", "--gpsd", "127.0.0.1:\(gpsd.port)", "--format", "csv", "--duration", "3"], timeout: 40)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("30 years ahead of the system clock"), "\(r.stderr)")
        let (columns, rows) = table(r.stdout)
        let time = try #require(columns["time"])
        try #require(!rows.isEmpty, "no report: \(r.stderr)")
        let year = String(ISO8601.format(Clock.wall()).prefix(4))
        #expect(rows.allSatisfy { $0[time].hasPrefix(year) || $0[time].hasPrefix(String(Int(year)! + 1)) }, "\(rows.map { $0[time] })")
    }

    /// Ends what a failed test left (processes with the test's own marker), by their ids.
    func endLeftovers(_ marker: String) {
        for pid in processes(withCommandLineContaining: marker) { kill(pid, SIGKILL) }
    }

    @Test func aRegionCrossed200TimesASecondWith30SecondHooksNeverRunsMoreThan16AndLeavesNoneAfterExit() throws {
        let marker = "30.0\(getpid() % 1000)91"
        defer { endLeftovers(marker) }
        let start = Clock.wall()
        // Every fix on the other side of a 50 m region's edge: at its centre, then 300 m north.
        let gpsd = try StreamingGpsd(rate: 200) { n in
            StreamingGpsd.tpv(time: start + Double(n) * 0.005, lat: -33.87 + (n % 2 == 0 ? 0 : 0.0027), lon: 151.2)
        }
        defer { gpsd.stop() }
        // The marker reaches the hooks through the environment, so only the hooks' `sleep` has it
        // on its command line (not lodestone's own).
        let regions = try BackgroundLodestone(executable: lodestoneBinaryPath, [
            "regions", "--gpsd", "127.0.0.1:\(gpsd.port)", "--region", "edge:-33.87,151.2,50",
            "--on-enter", "sleep $HOOK_SECONDS", "--on-exit", "sleep $HOOK_SECONDS", "--hook-timeout", "30",
        ], environment: ["HOOK_SECONDS": marker])
        var peak = 0
        let watching = Clock.monotonic()
        while Clock.monotonic() - watching < 4 {
            peak = max(peak, processes(withCommandLineContaining: marker).count)
            usleep(20_000)
        }
        let events = regions.stdout.split(separator: "\n").filter { $0.contains(",enter,") || $0.contains(",exit,") }.count
        #expect(events >= 100, "the region was not crossed often enough to test anything: \(events) events, \(regions.stderr)")
        #expect(peak >= 1, "no hook ran: \(regions.stderr)")
        #expect(peak <= 16, "\(peak) hook processes at once")
        // Exit by SIGTERM: within a second, and no hook left 5 s later.
        kill(regions.process.processIdentifier, SIGTERM)
        let stopped = Clock.monotonic()
        #expect(pollUntil(3) { !regions.process.isRunning }, "regions did not end on SIGTERM")
        let ended = Clock.monotonic()
        #expect(ended - stopped < 1.5, "took \(ended - stopped) s to end")
        var left = processes(withCommandLineContaining: marker).count
        while left > 0 && Clock.monotonic() - ended < 5 { usleep(50_000); left = processes(withCommandLineContaining: marker).count }
        #expect(left == 0, "\(left) hook processes left 5 s after exit")
        endLeftovers(marker)
        regions.stop()
        #expect(regions.stderr.contains("coalesced"), "the coalescing is counted on stderr: \(regions.stderr)")
    }

    @Test func aSleep1000HookWithATwoSecondTimeoutIsGoneWithinFourSeconds() throws {
        let marker = "1000.\(getpid() % 1000)3"
        defer { endLeftovers(marker) }
        let start = Clock.wall()
        // Outside for the first second, then inside for good: one enter, one hook.
        let gpsd = try StreamingGpsd(rate: 10) { n in
            StreamingGpsd.tpv(time: start + Double(n) * 0.1, lat: -33.87 + (n < 10 ? 0.0027 : 0), lon: 151.2)
        }
        defer { gpsd.stop() }
        let regions = try BackgroundLodestone(executable: lodestoneBinaryPath, [
            "regions", "--gpsd", "127.0.0.1:\(gpsd.port)", "--region", "home:-33.87,151.2,50",
            "--on-enter", "sleep $HOOK_SECONDS", "--hook-timeout", "2",
        ], environment: ["HOOK_SECONDS": marker])
        defer { regions.stop() }
        #expect(pollUntil(20) { !processes(withCommandLineContaining: marker).isEmpty }, "the hook never started: \(regions.stderr)")
        let seen = Clock.monotonic()
        #expect(pollUntil(8) { processes(withCommandLineContaining: marker).isEmpty })
        let gone = Clock.monotonic() - seen
        #expect(gone < 4, "gone \(gone) s after it was first seen")
        #expect(gone > 1.5, "gone after \(gone) s: before its timeout?")
        #expect(regions.process.isRunning, "regions goes on: \(regions.stderr)")
        #expect(pollUntil(2) { regions.stderr.contains("ran longer than --hook-timeout 2 s") }, "\(regions.stderr)")
    }
}
