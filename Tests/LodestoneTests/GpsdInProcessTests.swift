import Foundation
import Platform
import Testing
import TestSupport

/// `track`, `where`, `goto` and `regions` against gpsd's own reports, in process: the command line as
/// the binary runs it, on a manual clock, its gpsd client reading a `ScriptedGpsd` that serves the
/// JSON gpsd made for the fixtures' logs (their `.chk` files), or a port that refuses. The clock is
/// held until the client has everything (`holdUntilGNSSPauses`), so nothing here races the wall
/// clock. A real gpsd under gpsfake is still run end to end by GpsdIntegrationTests.
@Suite("track, where and the fix wait against gpsd's reports (in process)")
struct GpsdInProcessTests {
    /// Runs `arguments` (a command and its options, without --gpsd) against a scripted gpsd serving
    /// `chk`'s reports, until the command ends or `deadline` simulated seconds.
    func run(_ arguments: [String], chk: String, deadline: Double = 30) throws -> (result: RunResult, harness: SessionHarness) {
        try run(arguments, reports: try gpsdReports(chk: chk), in: try SessionHarness("gpsd-in-process", deadline: deadline))
    }

    /// Runs `arguments` in `harness` against a scripted gpsd serving `reports`.
    func run(_ arguments: [String], reports: [String], in harness: SessionHarness) throws -> (result: RunResult, harness: SessionHarness) {
        let gpsd = try ScriptedGpsd(lines: reports)
        harness.holdUntilGNSSPauses()
        let result = try withExtendedLifetime(gpsd) { try harness.lodestone(arguments + ["--gpsd", "127.0.0.1:\(gpsd.port)"]) }
        return (result, harness)
    }

    @Test func stationaryJitterIsReportedAsStationary() throws {
        let (run, _) = try run(["track", "--format", "csv", "--distance-filter", "0"], chk: "stationary-jitter.log.chk")
        #expect(run.status == 0, "\(run.stderr)")
        let rows = trackCSVRows(run.stdout)
        #expect(rows.count == 30)
        for row in rows.dropFirst() {
            #expect(row["stationary"] == "true")
            #expect(row["fix_direction"] == "stationary")
            #expect((row["fix_distance_m"].flatMap { Double($0) } ?? 99) < 5)
        }
    }

    @Test func courseReversalInChinese() throws {
        let (run, _) = try run(["track", "--lang", "zh"], chk: "course-reversal.log.chk")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 25, "\(run.stdout)\n\(run.stderr)")
        #expect(lines.first?.hasSuffix("起点") == true)
        // 12 legs due north, then 12 due south, 25 m each (the log places fixes 25 m apart).
        #expect(lines.dropFirst().prefix(12).allSatisfy { $0.contains("正北 移动了25米") })
        #expect(lines.dropFirst(13).allSatisfy { $0.contains("正南 移动了25米") })
        #expect(lines.last?.contains("累计600米") == true)
        #expect(lines.last?.contains("航向正南") == true)
    }

    @Test func courseReversalInCSV() throws {
        let (run, _) = try run(["track", "--format", "csv", "--distance-filter", "0"], chk: "course-reversal.log.chk")
        let rows = trackCSVRows(run.stdout)
        #expect(rows.count == 25, "\(run.stderr)")
        #expect(rows.dropFirst().prefix(12).allSatisfy { $0["fix_direction"] == "N" && $0["fix_bearing_deg"] == "0" })
        #expect(rows.dropFirst(13).allSatisfy { $0["fix_direction"] == "S" && $0["fix_bearing_deg"] == "180" })
        #expect(rows.first?["lat_deg"] == rows.last?["lat_deg"])
    }

    @Test func whereFindsTheFirstGoodEnoughFix() throws {
        // nl2008u's fixes carry eph 13.3 m until the last epoch (11.4 m).
        let (result, _) = try run(["where", "--accuracy", "12", "--json", "--timeout", "30"], chk: "nl2008u.log.chk", deadline: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let fix = object?["fix"] as? [String: Any]
        #expect(fix?["lat_deg"] as? Double == 48.2208)
        #expect(fix?["lon_deg"] as? Double == 8.42188167)
        #expect(fix?["eph_m"] as? Double == 11.4)
        #expect(fix?["gnss_mode"] as? String == "3d")
    }

    @Test func whereSaysTheFixesWereTooPoor() throws {
        let (result, harness) = try run(["where", "--accuracy", "2", "--timeout", "8"], chk: "nl2008u.log.chk", deadline: 60)
        #expect(result.status == 69)
        #expect(result.stderr.contains("was good enough"))
        #expect(result.stderr.contains("the best with a horizontal error of 11.4 m"), "\(result.stderr)")
        #expect(harness.clock.now() >= 8 && harness.clock.now() < 9, "gave up at \(harness.clock.now()) s, not after --timeout 8")
    }

    /// A port that refuses: the commands that wait for a fix end with 69 within the grace after the
    /// refusal, on the session's clock, whatever --timeout says; and say what to do.
    @Test("where, track, goto and regions end with 69 soon after gpsd refuses, whatever the timeout",
          arguments: [["where"], ["track"], ["goto", "52.6,5.0"], ["regions", "--region", "home:52.37,4.89,100"]])
    func refusedGpsd(command: [String]) throws {
        let refusing = RefusingPort()
        let harness = try SessionHarness("gpsd-refused", deadline: 120)
        harness.holdUntilGNSSPauses()
        let result = try harness.lodestone(command + ["--gpsd", "127.0.0.1:\(refusing.port)", "--timeout", "60"])
        #expect(result.status == 69, "\(command): \(result.stderr)")
        #expect(harness.clock.now() < 5, "\(command) took \(harness.clock.now()) s")
        #expect(result.stderr.contains("cannot reach gpsd at 127.0.0.1:\(refusing.port)"), "\(result.stderr)")
    }

    /// A port that accepts and answers with something else than gpsd (another service): the
    /// commands give up on it as on a refused port (69 within the grace), saying it is not gpsd,
    /// instead of waiting the whole --timeout for a fix from "a gpsd without a fix".
    @Test("where, track, goto and regions end with 69 soon when the port is not gpsd",
          arguments: [["where"], ["track"], ["goto", "52.6,5.0"], ["regions", "--region", "home:52.37,4.89,100"]])
    func notGpsd(command: [String]) throws {
        let other = try ScriptedGpsd(lines: ["SSH-2.0-OpenSSH_9.2p1 Debian-2"], greets: false)
        let harness = try SessionHarness("gpsd-not-gpsd", deadline: 120)
        harness.holdUntilGNSSPauses()
        let result = try withExtendedLifetime(other) {
            try harness.lodestone(command + ["--gpsd", "127.0.0.1:\(other.port)", "--timeout", "60"])
        }
        #expect(result.status == 69, "\(command): \(result.stderr)")
        #expect(harness.clock.now() < 5, "\(command) took \(harness.clock.now()) s")
        #expect(result.stderr.contains("127.0.0.1:\(other.port) accepted the connection but answered with something other than gpsd's JSON"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("has no fix yet"), "\(result.stderr)")
    }

    /// `watch --once` does not wait its --timeout for a true heading from a port that is not gpsd,
    /// as it does not for a refused one.
    @Test func watchOnceDoesNotWaitForAPortThatIsNotGpsd() throws {
        let other = try ScriptedGpsd(lines: ["SSH-2.0-OpenSSH_9.2p1 Debian-2"], greets: false)
        let harness = try SessionHarness("watch-once-not-gpsd", deadline: 120)
        harness.holdUntilGNSSPauses()
        let result = try withExtendedLifetime(other) {
            try harness.lodestone(["watch", "--simulate", "--once", "--timeout", "60", "--gpsd", "127.0.0.1:\(other.port)"])
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(harness.clock.now() < 10, "waited \(harness.clock.now()) s")
        #expect(result.stderr.contains("no true heading: ") && result.stderr.contains("is not gpsd"), "\(result.stderr)")
    }

    @Test func whereTimesOutWithExit69AndSaysGpsdIsUnreachable() throws {
        let refusing = RefusingPort()
        let harness = try SessionHarness("where-refused", deadline: 120)
        harness.holdUntilGNSSPauses()
        let result = try harness.lodestone(["where", "--gpsd", "127.0.0.1:\(refusing.port)", "--timeout", "1"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("cannot reach gpsd at 127.0.0.1:\(refusing.port): is it running?"), "\(result.stderr)")
        #expect(result.stderr.contains("--simulate"))
        #expect(result.stdout.isEmpty)
        #expect(harness.clock.now() < 4)
    }

    @Test func trackGivesUpWithExit69WhenGpsdNeverAnswered() throws {
        let refusing = RefusingPort()
        let harness = try SessionHarness("track-refused", deadline: 120)
        harness.holdUntilGNSSPauses()
        let result = try harness.lodestone(["track", "--gpsd", "127.0.0.1:\(refusing.port)", "--duration", "1"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("cannot reach gpsd at 127.0.0.1:\(refusing.port)"))
    }

    /// Every distinct fix of nl2008u gives a row; distance and bearing to the target agree with
    /// Vincenty's formula to 1 mm and 1e-6°; the arrival at the log's last position is said.
    @Test func gotoCSVFollowsEveryFix() throws {
        let (run, _) = try run(["goto", "48.2208,8.421881667", "--radius", "20", "--format", "csv"], chk: "nl2008u.log.chk")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "time,lat_deg,lon_deg,distance_m,bearing_deg,relative_bearing_deg,vmg_mps,eta_s,xte_m,arrived")
        let rows = trackCSVRows(run.stdout)
        #expect(rows.count == (try distinctFixTimes(chk: "nl2008u.log.chk")), "\(run.stderr)")
        let reference = referenceEpochs(try gpsdReports(chk: "nl2008u.log.chk"))
        // The log's times (2035, a receiver's week rollover) are not believed: said once, and the
        // rows carry the system's time instead.
        #expect(run.stderr.contains("the receiver's time is"), "\(run.stderr)")
        for (row, epoch) in zip(rows, reference) {
            #expect(row["time"] != epoch.time && row["time"]?.hasPrefix("20") == true, "\(row)")
            let check = vincentyInverse(epoch.lat, epoch.lon, 48.2208, 8.421881667)
            let distance = try #require(row["distance_m"].flatMap { Double($0) })
            #expect(abs(distance - check.distance) < 0.001, "\(row)")
            if check.distance > 1 {
                #expect(abs(remainder(try #require(row["bearing_deg"].flatMap { Double($0) }) - check.azimuth, 360)) < 1e-6)
            }
            #expect(row["relative_bearing_deg"] == "")
        }
        #expect(run.stderr.contains("arrived at 48.2208,8.421881667"), "\(run.stderr)")
    }

    /// haicom-305N wanders with errors of 20–400 m around one spot. A region of 10 m round it is
    /// crossed by the raw positions several times; the events are the first state and one enter,
    /// and the --on-enter command gets the event in its environment.
    @Test func regionsDoNotFlapOnARealLog() throws {
        let folder = try makeTemporaryFolder("regions-gpsd")
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = folder.appendingPathComponent("events.txt").path
        let centre = (-27.21076, 153.051975)
        let (run, _) = try run([
            "regions", "--region", "spot:\(centre.0),\(centre.1),10", "--region", "far:-27.3,153.1,50",
            "--on-enter", "printf '%s %s %s\\n' \"$LODESTONE_REGION\" \"$LODESTONE_EVENT\" \"$LODESTONE_DISTANCE_M\" >> '\(record)'",
        ], chk: "haicom-305N.log.chk")
        #expect(run.status == 0, "\(run.stderr)")
        let rows = trackCSVRows(run.stdout)
        let events = rows.map { ($0["region"] ?? "", $0["event"] ?? "") }
        #expect(events.filter { $0.0 == "spot" }.map(\.1) == ["outside", "enter"], "\(run.stdout)")
        #expect(events.filter { $0.0 == "far" }.map(\.1) == ["outside"])
        // The raw positions cross the 10 m boundary more than twice: the test would see flapping.
        let reference = referenceEpochs(try gpsdReports(chk: "haicom-305N.log.chk"))
        let inside = reference.map { vincentyInverse(centre.0, centre.1, $0.lat, $0.lon).distance <= 10 }
        #expect(zip(inside, inside.dropFirst()).filter { $0 != $1 }.count > 2)
        // The hook has run by the time the command ends (hooks still running are waited for or ended).
        #expect(pollUntil(5) { FileManager.default.fileExists(atPath: record) })
        let recorded = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        #expect(recorded.hasPrefix("spot enter "), "\(recorded)")
    }

    static let thirtyYears = 30 * 365.25 * 86_400

    /// The CSV's rows as fields, by the header's column names.
    func table(_ text: String) -> (columns: [String: Int], rows: [[String]]) {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return ([:], []) }
        return (Dictionary(header.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a }), Array(lines.dropFirst()))
    }

    /// A receiver 30 years behind the (session's) system clock, as gpsd reports it: said once on
    /// stderr, every log row carrying its fix flagged, no row and no served fix stamped with its time.
    @Test func aReceiverThirtyYearsBehindIsSaidAndFlaggedInTheLogAndNeverStampsServesFixes() throws {
        let harness = try SessionHarness("gnss-time-behind", deadline: 60)
        let behind = harness.clock.wall() - Self.thirtyYears
        let reports = (0..<20).map { n in StreamingGpsd.tpv(time: behind + Double(n) * 0.2, lat: -33.87 + Double(n) * 1e-5, lon: 151.2) }
        let log = harness.path("heading.csv")
        let (r, _) = try run(["log", "--simulate", "--output", log, "--rate", "5", "--duration", "4"], reports: reports, in: harness)
        #expect(r.status == 0, "\(r.stderr)")
        let said = r.stderr.components(separatedBy: "30 years behind the system clock").count - 1
        #expect(said == 1, "said once on stderr: \(r.stderr)")
        let (columns, rows) = table(try String(contentsOfFile: log, encoding: .utf8))
        let lat = try #require(columns["lat_deg"]), flags = try #require(columns["flags"]), time = try #require(columns["time"])
        let carrying = rows.filter { !$0[lat].isEmpty }
        try #require(carrying.count >= 3, "no row carried a fix: \(r.stderr)")
        #expect(carrying.allSatisfy { $0[flags].split(separator: "|").contains("gnssTimeOff") }, "\(carrying.map { $0[flags] })")
        #expect(rows.allSatisfy { !$0[time].hasPrefix("1996") && !$0[time].hasPrefix("1997") }, "a row stamped by the receiver")

        // A harness of its own starts on the same wall time: the same reports are as far behind.
        let served = try SessionHarness("gnss-time-behind-serve", deadline: 60)
        let json = served.path("serve.jsonl")
        let (s, _) = try run(["serve", "--simulate", "--json", json, "--rate", "5", "--duration", "3"],
                             reports: reports, in: served)
        #expect(s.status == 0, "\(s.stderr)")
        #expect(s.stderr.contains("30 years behind the system clock"), "\(s.stderr)")
        let objects = try String(contentsOfFile: json, encoding: .utf8)
        try #require(objects.contains(#""fix":{"#), "no fix was published: \(s.stderr)")
        #expect(!objects.contains(#""time":"1996"#) && !objects.contains(#""time":"1997"#), "a fix stamped by the receiver")
    }

    @Test func trackSaysAReceiverThirtyYearsAheadAndStampsItsRowsWithTheSystemsTime() throws {
        let harness = try SessionHarness("gnss-time-ahead", deadline: 60)
        let ahead = harness.clock.wall() + Self.thirtyYears
        let reports = (0..<15).map { n in StreamingGpsd.tpv(time: ahead + Double(n) * 0.2, lat: -33.87 + Double(n) * 1e-4, lon: 151.2) }
        let (r, _) = try run(["track", "--format", "csv", "--duration", "3"], reports: reports, in: harness)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("30 years ahead of the system clock"), "\(r.stderr)")
        let (columns, rows) = table(r.stdout)
        let time = try #require(columns["time"])
        try #require(!rows.isEmpty, "no report: \(r.stderr)")
        let year = String(ISO8601.format(harness.clock.wall()).prefix(4))
        #expect(rows.allSatisfy { $0[time].hasPrefix(year) }, "\(rows.map { $0[time] })")
    }
}
