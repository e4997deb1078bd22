import Foundation
import Glibc
import HeadingLog
import Places
import Platform
@testable import Session
import Testing
import TestSupport

/// Files and paths that are not what a command expects, in process: a password file given as a log
/// or a recording is described by line, never quoted; a profile or places file that is a FIFO is
/// refused at once (exit 65), without waiting for a writer; a terminal escape in the config folder
/// or a file's name never reaches standard output or error. (Moved from the spawned-binary suite
/// HostileStringsTests, which keeps the sweep of every command through the binary, and a profile
/// on standard input.)
@Suite("hostile files and paths, the commands' sessions in process")
struct HostileFilesInProcessTests {
    static let escape = HostileText.escape

    func expectClean(_ r: CommandRun, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(HostileText.streamsWithControl(stdout: r.stdout, stderr: r.stderr).isEmpty,
                "\(what): an escape byte: \(r.stdout.debugDescription) \(r.stderr.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func anEscapeInXDGConfigHomeOrACalibrationPathNeverReachesTheTerminal() throws {
        let h = try SessionHarness("hostile-paths")
        let config = h.folder.path + "/cfg" + Self.escape
        try FileManager.default.createDirectory(atPath: config + "/lodestone", withIntermediateDirectories: true)
        let env = ["XDG_CONFIG_HOME": config]

        let home = try UserPlace(name: "home", latitude: -33.87, longitude: 151.21)
        let added = h.run("places", environment: env) { try PlacesQuery(action: .add(home)).run(runtime: $0) }
        #expect(added.status == .success, "\(added.stderr)")
        #expect(FileManager.default.fileExists(atPath: config + "/lodestone/places.csv"), "the place was saved in the config folder")
        expectClean(added, "places add")
        let listed = h.run("places", environment: env) { try PlacesQuery(action: .list()).run(runtime: $0) }
        #expect(listed.stdout.hasPrefix("home  "), "\(listed.stdout)")
        expectClean(listed, "places list")

        // A corrupt default profile: its path (from XDG_CONFIG_HOME) is in the error.
        try "{ not json".write(toFile: config + "/lodestone/calibration.json", atomically: false, encoding: .utf8)
        let simulated = LiveRequest(sensors: SensorSelection(simulate: true))
        let watched = h.run("watch", environment: env) { try WatchSession.run(WatchRequest(live: simulated, once: true), runtime: $0) }
        #expect(watched.stderr.contains("calibration.json"), "the corrupt profile is named: \(watched.stderr)")
        expectClean(watched, "watch with a corrupt profile")

        let missing = h.folder.path + "/no" + Self.escape + ".json"
        var explicitRequest = simulated
        explicitRequest.calibrationPath = missing
        let explicit = h.run("watch", environment: env) {
            try WatchSession.run(WatchRequest(live: explicitRequest, once: true), runtime: $0)
        }
        #expect(explicit.status != .success)
        #expect(explicit.stderr.contains("]0;owned"), "the path is still named, without its control bytes: \(explicit.stderr)")
        expectClean(explicit, "--calibration with an escape")

        let analyzed = h.run("analyze", environment: env) {
            try LogAnalysisQuery(path: h.folder.path + "/missing" + Self.escape + ".csv").run(runtime: $0)
        }
        #expect(analyzed.status == .ioError, "\(analyzed.stderr)")
        expectClean(analyzed, "analyze of a missing file with an escape in its name")
    }

    /// A password file's line, which no message may repeat.
    static let secret = "root:$6$Zq9Xhidden.hash/value$abcdefghijklmnop:19700:0:99999:7:::"

    @Test func analyzeCalibrateAndLogDescribeAFileThatIsNotALogWithoutQuotingIt() throws {
        let h = try SessionHarness("shadow")
        let path = h.path("shadow")
        let before = Self.secret + "\ndaemon:*:19700:0:99999:7:::\n"
        try before.write(toFile: path, atomically: false, encoding: .utf8)
        let analyzed = h.run("analyze") { try LogAnalysisQuery(path: path).run(runtime: $0) }
        #expect(analyzed.status == .dataError, "\(analyzed.stderr)")
        #expect(!analyzed.stderr.contains("Zq9X") && !analyzed.stderr.contains("root:"), "\(analyzed.stderr)")
        #expect(analyzed.stderr.contains("line 1"), "\(analyzed.stderr)")
        #expect(analyzed.stderr.contains("time,"), "what was expected is named: \(analyzed.stderr)")

        let fitted = h.run("calibrate") { try calibrateFromFile(CalibrationFileRequest(path: path), runtime: $0) }
        #expect(fitted.status == .dataError, "\(fitted.stderr)")
        #expect(!fitted.stderr.contains("Zq9X") && !fitted.stderr.contains("root:"), "\(fitted.stderr)")
        #expect(fitted.stderr.contains("line 1") && fitted.stderr.contains("x,y,z"), "\(fitted.stderr)")

        // Logging into it is refused the same way: described, not quoted, and the file untouched.
        let request = LogRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none, distanceFilter: 0),
                                 file: LogSession.Options(path: path), duration: 0.3)
        let logged = h.run("log") { try LogRecording.run(request, runtime: $0) }
        #expect(logged.status == .dataError, "\(logged.stderr)")
        #expect(!logged.stderr.contains("Zq9X"), "\(logged.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
    }

    @Test func aProfileOrPlacesFileThatIsAFIFOIsExit65AtOnce() throws {
        let h = try SessionHarness("fifo")
        let fifo = h.path("profile.json")
        #expect(mkfifo(fifo, 0o644) == 0)
        let request = WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), calibrationPath: fifo, gnss: .none),
                                   once: true)
        let watched = h.run("watch") { try WatchSession.run(request, runtime: $0) }
        #expect(watched.status == .dataError, "\(watched.stderr)")
        #expect(watched.stderr.contains("not a regular file"), "\(watched.stderr)")
        #expect(watched.stdout.isEmpty, "no reading without the profile asked for: \(watched.stdout)")

        let config = h.folder.path + "/config/lodestone"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        #expect(mkfifo(config + "/places.csv", 0o644) == 0)
        let listed = h.run("places") { try PlacesQuery(action: .list()).run(runtime: $0) }
        #expect(listed.status == .dataError, "\(listed.stderr)")
    }
}
