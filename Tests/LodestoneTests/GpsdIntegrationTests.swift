import Foundation
import Platform
import Testing
import TestSupport

/// `lodestone track` and `log` against a real gpsd fed by gpsfake: the end-to-end proof that the
/// binary reads a real gpsd (every distinct fix, gpsd's exact positions, a gpsd killed and
/// restarted). Each test uses its own free port and its own TMPDIR. They are skipped (with a
/// message) only when gpsfake is missing. What track and where make of gpsd's reports (stationary
/// jitter, a course reversal, where's accuracy and timeout, a refused port) runs in process against
/// the same reports: GpsdInProcessTests.
@Suite("gpsd integration (gpsfake)", .enabled(if: gpsfakePath != nil, Comment(rawValue: gpsfakeMissingMessage)))
struct GpsdIntegrationTests {
    /// Replays `log` through gpsfake and runs `lodestone track` with `arguments` until the log ends.
    func trackWhileReplaying(_ log: String, _ arguments: [String]) throws -> (output: String, errors: String, status: Int32, fake: GpsFake) {
        let port = freeTCPPort()
        let fake = try GpsFake(log: log, port: port)
        try #require(fake.waitUntilListening(), "gpsd under gpsfake did not start listening on \(port)")
        let track = try BackgroundLodestone(["track", "--gpsd", "127.0.0.1:\(port)"] + arguments)
        #expect(fake.waitUntilFinished(timeout: 40), "gpsfake did not finish \(log)")
        // The client flushes the last epoch when gpsd closes; give it a moment, then stop it.
        Thread.sleep(forTimeInterval: 1.0)
        let status = track.stop()
        return (track.stdout, track.stderr, status, fake)
    }

    @Test(arguments: ["bt451.log", "haicom-305N.log", "nl2008u.log"])
    func csvHasOneRowPerDistinctFixWithGpsdsExactPositions(log: String) throws {
        let replayed = Date()
        let run = try trackWhileReplaying(log, ["--format", "csv", "--distance-filter", "0"])
        let ended = Date()
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n")
        #expect(lines.first == "time,gnss_mode,lat_deg,lon_deg,alt_m,speed_mps,course_deg,eph_m,fix_distance_m,fix_bearing_deg,fix_direction,total_m,stationary")
        let rows = trackCSVRows(run.output)
        #expect(rows.count == (try distinctFixTimes(chk: log + ".chk")), "stderr: \(run.errors)")

        // Every row is one of gpsd's epochs: bit-identical latitude and longitude; the receiver's
        // time text when it can be trusted (the system clock is not synchronised and the log's time
        // is within a day of it), else the system's time at arrival, during the replay.
        let synchronised = SystemTime().wallIsSynchronised == true
        let window = (replayed.timeIntervalSince1970 - 1)...(ended.timeIntervalSince1970 + 1)
        let reference = referenceEpochs(run.fake.referenceLines())
        #expect(rows.count == reference.count)
        for (row, epoch) in zip(rows, reference) {
            let receiverTrusted = !synchronised
                && ISO8601.parse(epoch.time).map { abs($0 - replayed.timeIntervalSince1970) <= 86_400 } == true
            if receiverTrusted {
                #expect(row["time"] == epoch.time)
            } else {
                #expect(row["time"].flatMap(ISO8601.parse).map(window.contains) == true, "\(row["time"] ?? "-") for \(epoch.time)")
            }
            // Degrees at the log's resolution, 1e-8° (about 1 mm).
            #expect(row["lat_deg"].flatMap { Double($0) }.map { abs($0 - epoch.lat) <= 0.5e-8 } == true)
            #expect(row["lon_deg"].flatMap { Double($0) }.map { abs($0 - epoch.lon) <= 0.5e-8 } == true)
        }

        // Distances and bearings against Vincenty's formula. The running total is the odometer's: it
        // never decreases and never exceeds the sum of the legs (jitter and jumps are not travel).
        #expect(rows.first?["fix_distance_m"] == "")
        var total = 0.0
        var previousSum = 0.0
        for k in rows.indices.dropFirst() {
            guard let lat1 = rows[k - 1]["lat_deg"].flatMap({ Double($0) }), let lon1 = rows[k - 1]["lon_deg"].flatMap({ Double($0) }),
                  let lat2 = rows[k]["lat_deg"].flatMap({ Double($0) }), let lon2 = rows[k]["lon_deg"].flatMap({ Double($0) }),
                  let distance = rows[k]["fix_distance_m"].flatMap({ Double($0) }),
                  let sum = rows[k]["total_m"].flatMap({ Double($0) })
            else { Issue.record("row \(k) incomplete: \(rows[k])"); continue }
            let check = vincentyInverse(lat1, lon1, lat2, lon2)
            #expect(abs(distance - check.distance) < 0.002, "row \(k): \(distance) vs \(check.distance)")
            if check.distance > 1, let bearing = rows[k]["bearing_deg"].flatMap({ Double($0) }) {
                #expect(abs(remainder(bearing - check.azimuth, 360)) < 0.01, "row \(k)")
            }
            total += check.distance
            #expect(sum >= previousSum - 1e-9, "row \(k): the total went back from \(previousSum) to \(sum)")
            #expect(sum <= total + 0.01, "row \(k): total \(sum) exceeds the legs' sum \(total)")
            previousSum = sum
        }
    }

    /// Replays `log` through gpsfake while `lodestone log --simulate` logs from that gpsd; returns the
    /// rows that carry a position, as column → text. The replay is slowed (0.1 s between sentences,
    /// about 0.3 s an epoch) so that the 20 Hz log sees every fix, as it does with a 1 Hz receiver.
    func logWhileReplaying(_ log: String) throws -> [[String: String]] {
        let folder = try makeTemporaryFolder("log-gpsfake")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("replay.csv").path
        let port = freeTCPPort()
        let fake = try GpsFake(log: log, port: port, cycle: 0.1)
        try #require(fake.waitUntilListening(), "gpsd under gpsfake did not start listening on \(port)")
        let logger = try BackgroundLodestone(["log", "--simulate", "--gpsd", "127.0.0.1:\(port)", "--output", path, "--rate", "20"])
        #expect(fake.waitUntilFinished(timeout: 40), "gpsfake did not finish \(log)")
        Thread.sleep(forTimeInterval: 1.0)
        #expect(logger.stop() == 0, "\(logger.stderr)")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }.filter { !($0["lat_deg"] ?? "").isEmpty }
    }

    @Test("log through a real gpsd: a receiver standing still logs no distance however its fixes wander")
    func logOfAStillReceiver() throws {
        let rows = try logWhileReplaying("stationary-jitter.log")
        try #require(rows.count >= 10, "rows with a fix: \(rows.count)")
        let distances = rows.compactMap { $0["fix_distance_m"].flatMap { Double($0) } }
        #expect(!distances.isEmpty, "new fixes carry their leg")
        #expect(distances.reduce(0, +) <= 2, "a still receiver logged \(distances.reduce(0, +)) m")
        #expect(rows.allSatisfy { ($0["fix_bearing_deg"] ?? "").isEmpty }, "no direction while stationary")
    }

    @Test("log through a real gpsd: moving legs carry a distance no larger than the straight lines, and a direction",
          arguments: ["course-reversal.log"])
    func logOfAMovingReceiver(log: String) throws {
        let rows = try logWhileReplaying(log)
        try #require(rows.count >= 10, "rows with a fix: \(rows.count)")
        var previous: (Double, Double)?
        var straight = 0.0, logged = 0.0, legs = 0, withDirection = 0
        for row in rows {
            guard let lat = row["lat_deg"].flatMap(Double.init), let lon = row["lon_deg"].flatMap(Double.init) else { continue }
            if let distance = row["fix_distance_m"].flatMap(Double.init), let p = previous {
                straight += vincentyInverse(p.0, p.1, lat, lon).distance
                logged += distance
                legs += 1
                if !(row["fix_bearing_deg"] ?? "").isEmpty { withDirection += 1 }
            }
            if row["fix_distance_m"].flatMap(Double.init) != nil || previous == nil { previous = (lat, lon) }
        }
        #expect(legs >= 5)
        #expect(logged > 0, "the receiver moved")
        // The odometer integrates speed between fixes: about the straight-line sum on a steady track,
        // and never the jitter on top of it.
        #expect(logged <= straight * 1.1 + 1, "logged \(logged) m against \(straight) m of straight lines")
        #expect(withDirection > 0)
    }

    @Test func survivesGpsdBeingKilledAndRestarted() throws {
        let port = freeTCPPort()
        var fake = try GpsFake(log: "haicom-305N.log", port: port, cycle: 0.02)
        try #require(fake.waitUntilListening())
        let track = try BackgroundLodestone(["track", "--gpsd", "127.0.0.1:\(port)", "--format", "csv", "--distance-filter", "0"])
        #expect(pollUntil(20) { trackCSVRows(track.stdout).count >= 5 }, "no rows before the kill: \(track.stderr)")
        fake.kill()
        let rowsBefore = trackCSVRows(track.stdout).count
        #expect(pollUntil(5) { track.stderr.contains("lost the connection to gpsd at 127.0.0.1:\(port)") })

        // A new gpsd on the same port, replaying another log: the client finds it by itself.
        fake = try GpsFake(log: "nl2008u.log", port: port)
        try #require(fake.waitUntilListening())
        #expect(fake.waitUntilFinished(timeout: 40))
        #expect(pollUntil(5) { trackCSVRows(track.stdout).contains { $0["lat_deg"]?.hasPrefix("48.2") == true } })
        let status = track.stop()
        #expect(status == 0)
        let rows = trackCSVRows(track.stdout)
        #expect(rowsBefore < 67)
        #expect(rows.prefix(rowsBefore).allSatisfy { $0["lat_deg"]?.hasPrefix("-27.2") == true })
        #expect(rows.dropFirst(rowsBefore).contains { $0["lat_deg"] == "48.2208" && $0["lon_deg"] == "8.42188167" })
        let errors = track.stderr
        if let lost = errors.range(of: "lost the connection") {
            #expect(errors[lost.upperBound...].contains("connected to gpsd at 127.0.0.1:\(port)"))
        }
    }
}
