import Foundation
import Testing
import TestSupport

/// `lodestone places`, `goto` and `regions` as a user runs them: the command line in process (its
/// wiring and its usage errors), and the binary with a real gpsd under gpsfake replaying the
/// project's logs.
@Suite("places, goto, regions (the command line, in process)")
struct PlacesCommandTests {
    /// The wiring: places near and find through the command line. What they print is tested in process
    /// (SessionTests: PlacesSessionTests, PlacesInProcessTests).
    @Test func nearAndFindThroughTheBinary() throws {
        let near = try runInProcess(["places", "near", "--lat", "52.52", "--lon", "5.07"])
        #expect(near.status == 0 && near.stdout.hasPrefix("1.73 km ENE of Edam, NL  "), "\(near.stdout)\(near.stderr)")
        let find = try runInProcess(["places", "find", "北京"])
        #expect(find.status == 0 && find.stdout.hasPrefix("北京 → Beijing, Beijing, CN  "), "\(find.stdout)\(find.stderr)")
    }

    /// The option parsers' usage errors, through the dispatcher.
    @Test func usageErrorsExit64WithAHint() throws {
        for (arguments, hint) in [
            (["places", "near", "--lat", "91", "--lon", "0"], "--lat"),
            (["places", "near", "--lat", "1"], "give both --lat and --lon"),
            (["places", "nera"], "did you mean 'near'?"),
            (["places", "add", "x", "--lat", "1", "--lon", "2", "--radius", "0"], "--radius"),
            (["regions", "--region", "a:1,2,-5", "--simulate"], "--region"),
            (["where", "--location", "31.23,121.47"], "--location only applies with --simulate"),
            (["where", "--simulate", "--location", "91,0"], "--location"),
            (["track", "--simulate", "--location", "1"], "--location"),
        ] {
            let folder = try makeTemporaryFolder("places-usage")
            defer { try? FileManager.default.removeItem(at: folder) }
            // "Did you mean" for an action compares it with five words; for a place name it compares
            // the name with all 234,908 places, which the sessions' tests check in process
            // (PlacesSessionTests, PlacesInProcessTests).
            let result = try runInProcess(arguments, environment: ["XDG_CONFIG_HOME": folder.path])
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(hint), "\(arguments): \(result.stderr)")
        }
    }
}

/// `goto` and `regions` against gpsd under gpsfake.
@Suite("goto and regions with gpsd (gpsfake)", .enabled(if: gpsfakePath != nil, Comment(rawValue: gpsfakeMissingMessage)))
struct PlacesGpsdTests {
    func replay(_ log: String, _ arguments: [String]) throws -> (output: String, errors: String, fake: GpsFake) {
        let port = freeTCPPort()
        let fake = try GpsFake(log: log, port: port)
        try #require(fake.waitUntilListening(), "gpsd under gpsfake did not start listening on \(port)")
        let process = try BackgroundLodestone(arguments + ["--gpsd", "127.0.0.1:\(port)"])
        #expect(fake.waitUntilFinished(timeout: 40), "gpsfake did not finish \(log)")
        Thread.sleep(forTimeInterval: 1.0)
        let status = process.stop()
        #expect(status == 0, "\(process.stderr)")
        return (process.stdout, process.stderr, fake)
    }

    /// Every distinct fix of nl2008u gives a row; distance and bearing to the target agree with
    /// Vincenty's formula to 1 mm and 1e-6°; the arrival at the log's last position is said.
    @Test func gotoCSVFollowsEveryFix() throws {
        let run = try replay("nl2008u.log", ["goto", "48.2208,8.421881667", "--radius", "20", "--format", "csv"])
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "time,lat_deg,lon_deg,distance_m,bearing_deg,relative_bearing_deg,vmg_mps,eta_s,xte_m,arrived")
        let rows = trackCSVRows(run.output)
        #expect(rows.count == (try distinctFixTimes(chk: "nl2008u.log.chk")), "\(run.errors)")
        let reference = referenceEpochs(run.fake.referenceLines())
        // The log's times (2035, a receiver's week rollover) are not believed: said once, and the
        // rows carry the system's time instead.
        #expect(run.errors.contains("the receiver's time is"), "\(run.errors)")
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
        #expect(run.errors.contains("arrived at 48.2208,8.421881667"), "\(run.errors)")
    }

    /// haicom-305N wanders with errors of 20–400 m around one spot. A region of 10 m round it is
    /// crossed by the raw positions several times; the events are the first state and one enter,
    /// and the --on-enter command gets the event in its environment.
    @Test func regionsDoNotFlapOnARealLog() throws {
        let folder = try makeTemporaryFolder("regions-gpsd")
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = folder.appendingPathComponent("events.txt").path
        let centre = (-27.21076, 153.051975)
        let run = try replay("haicom-305N.log", [
            "regions", "--region", "spot:\(centre.0),\(centre.1),10", "--region", "far:-27.3,153.1,50",
            "--on-enter", "printf '%s %s %s\\n' \"$LODESTONE_REGION\" \"$LODESTONE_EVENT\" \"$LODESTONE_DISTANCE_M\" >> '\(record)'",
        ])
        let rows = trackCSVRows(run.output)
        let events = rows.map { ($0["region"] ?? "", $0["event"] ?? "") }
        #expect(events.filter { $0.0 == "spot" }.map(\.1) == ["outside", "enter"], "\(run.output)")
        #expect(events.filter { $0.0 == "far" }.map(\.1) == ["outside"])
        // The raw positions cross the 10 m boundary more than twice: the test would see flapping.
        let reference = referenceEpochs(run.fake.referenceLines())
        let inside = reference.map { vincentyInverse(centre.0, centre.1, $0.lat, $0.lon).distance <= 10 }
        #expect(zip(inside, inside.dropFirst()).filter { $0 != $1 }.count > 2)
        #expect(pollUntil(5) { FileManager.default.fileExists(atPath: record) })
        let recorded = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        #expect(recorded.hasPrefix("spot enter "), "\(recorded)")
    }
}
