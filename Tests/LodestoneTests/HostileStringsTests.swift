import Foundation
import Glibc
import Testing
import TestSupport

/// Paths and environment values that hold terminal escapes (ESC, an OSC title sequence ended by
/// BEL) never reach standard output or error as such (the binary's messages, its dispatcher's
/// sanitising included), for every command. Each session's own handling (an escape in the config
/// folder or a calibration path, files that are not logs or recordings, FIFOs) is tested in process:
/// HostileFilesInProcessTests.
@Suite("hostile paths, environment values and files")
struct HostileStringsTests {
    static let escape = HostileText.escape

    func assertClean(_ r: RunResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(HostileText.streamsWithControl(stdout: r.stdout, stderr: r.stderr).isEmpty,
                "\(what): an escape byte: \(r.stdout.debugDescription) \(r.stderr.debugDescription)", sourceLocation: sourceLocation)
    }

    /// Every command that names a file in its messages, with a file whose name holds the escapes,
    /// and the environment values that reach a message (the home folder, units, terminal, locale):
    /// no ESC or BEL on either stream.
    @Test func noCommandPassesAnEscapeFromAPathOrTheEnvironmentToTheTerminal() throws {
        let dir = try makeTemporaryFolder("hostile-all"); defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.path + "/home" + Self.escape
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let env = ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "GPSD_UNITS": "furlongs" + Self.escape,
                   "TERM": "xterm" + Self.escape, "LANG": "en_US" + Self.escape, "LC_ALL": "C" + Self.escape]
        let p = dir.path + "/f" + Self.escape
        let runs: [(String, [String])] = [
            ("log", ["log", "--simulate", "--no-gnss", "--output", p + ".csv", "--duration", "0.5"]),
            ("analyze --svg --gpx", ["analyze", p + ".csv", "--svg", p + ".svg", "--gpx", p + ".gpx"]),
            ("analyze --json", ["analyze", p + ".csv", "--json", "--svg", p + "2.svg"]),
            ("calibrate --record", ["calibrate", "--simulate", "--record", p + "-raw.csv", "--duration", "1", "--sim-speed", "20"]),
            ("calibrate --record again", ["calibrate", "--simulate", "--record", p + "-raw.csv", "--duration", "1"]),
            ("calibrate --from-file", ["calibrate", "--from-file", p + "-raw.csv", "--output", p + ".json", "--force"]),
            ("calibrate --simulate --output", ["calibrate", "--simulate", "--output", p + "-wizard.json", "--sim-speed", "50"]),
            ("watch --calibration", ["watch", "--simulate", "--once", "--calibration", p + ".json"]),
            ("watch --log", ["watch", "--simulate", "--no-gnss", "--once", "--log", p + "-watch.csv"]),
            ("serve --json", ["serve", "--simulate", "--no-gnss", "--json", p + ".jsonl", "--duration", "0.5"]),
            ("heading --from-file", ["heading", "--from-file", p + "-raw.csv"]),
            ("track", ["track", "--simulate", "--duration", "1.5"]),
            ("places add", ["places", "add", "home" + Self.escape, "--lat", "-33.87", "--lon", "151.21"]),
            ("places list", ["places", "list"]),
            ("regions", ["regions", "--simulate", "--duration", "1.5"]),
            ("log into a folder that is not there", ["log", "--simulate", "--no-gnss", "--output", p + "/none/x.csv", "--duration", "0.3"]),
        ]
        for (what, arguments) in runs {
            let r = try runInProcess(arguments, environment: env, deadline: 120)
            assertClean(r, what)
        }
        #expect(FileManager.default.fileExists(atPath: p + ".csv") && FileManager.default.fileExists(atPath: p + ".svg"),
                "the commands ran: their files are there")
    }

    /// A profile on standard input ("-") is read from the command's standard input (in process: a
    /// file as its descriptor). (A profile or places file that is a FIFO: SessionTests,
    /// HostileFilesInProcessTests.)
    @Test func aProfileOnStandardInput() throws {
        let dir = try makeTemporaryFolder("stdin-profile"); defer { try? FileManager.default.removeItem(at: dir) }
        // "-" is the exception: the profile comes on standard input (and is never saved back as a file "-").
        let profile = dir.path + "/simulated.json"
        let made = try runInProcess(["calibrate", "--simulate", "--output", profile, "--sim-speed", "50"])
        try #require(made.status == 0, "\(made.stderr)")
        let piped = try runInProcess(["watch", "--simulate", "--once", "--no-gnss", "--calibration", "-"],
                                     stdin: try String(contentsOfFile: profile, encoding: .utf8))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stderr.contains("calibration: -"), "\(piped.stderr)")
        #expect(piped.stdout.contains("°"), "\(piped.stdout)")
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/-"))
    }
}
