import Foundation
import Options
import Platform
import Session
import Testing
import TestSupport
@testable import lodestone

/// `lodestone watch`'s command line and its first failure, in process: the dispatcher's exit codes
/// for bad arguments (refused before anything runs), the help and version texts it prints, and the
/// session's error when there is no sensor (what the dispatcher prints after "lodestone watch: ").
@Suite("lodestone watch: usage, help, no sensor (in process)")
struct WatchCommandTests {
    /// True when this machine has an I²C bus (a Pi): the no-sensor path cannot be seen there.
    static let hasI2CBus = (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.contains { $0.hasPrefix("i2c-") } ?? false

    @Test("no sensor: explains, suggests --simulate, exits 69",
          .enabled(if: !hasI2CBus, "this machine has an I²C bus, so the no-bus path cannot be seen here"))
    func noSensor() throws {
        let folder = try makeTemporaryFolder("watch-no-sensor")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock(0, wallAtZero: 1_795_000_000)
        let runtime = Runtime(time: clock, events: ScriptedEvents(clock: clock, deadline: 30), output: CapturedOutput(),
                              diagnostics: CapturedOutput(), terminal: nil, interactiveInput: false,
                              environment: EnvironmentValues(["HOME": folder.path, "XDG_CONFIG_HOME": folder.path]),
                              command: "watch")
        do {
            _ = try WatchSession.run(WatchRequest(live: LiveRequest(sensors: SensorSelection())), runtime: runtime)
            Issue.record("watch without a sensor must fail")
        } catch let error as any UserFacingError {
            #expect(error.exitCode == .unavailable, "\(error.message)")
            #expect(error.message.contains("i2c_arm=on"), "\(error.message)")
            #expect(error.message.contains("--simulate"), "\(error.message)")
        }
        #expect(clock.now() == 0, "refused before any waiting")
    }

    /// The usage error watch gives for `arguments` (parsed and read by its option groups), if any.
    /// Only for arguments that must be refused: valid ones run the command (in process).
    func usageMessage(_ arguments: [String]) -> String? {
        guard let command = Dispatcher.find("watch"), let harness = try? SessionHarness("watch-usage", deadline: 5) else { return nil }
        do {
            _ = try command.run(try parseArguments(arguments, spec: command.spec), in: harness.context())
            return nil
        } catch {
            return (error as? UsageError)?.message
        }
    }

    @Test("bad arguments exit 64 with a message, before anything runs")
    func usage() throws {
        #expect(try runInProcess(["watch", "--rate", "fast"]).status == 64)
        let rate = usageMessage(["--rate", "fast"])
        #expect(rate?.contains("--rate") == true, "\(rate ?? "no usage error")")
        #expect(try runInProcess(["wach"]).status == 64)
        #expect(Dispatcher.find("wach") == nil)
        let unknown = UsageError.unknownCommand("wach", suggestion: closestMatch(to: "wach", in: allCommands.map { $0.spec.name }))
        #expect(unknown.message.contains("did you mean 'watch'"), "\(unknown.message)")
        #expect(try runInProcess(["watch", "--bogus"]).status == 64)
    }

    @Test("--help and --version")
    func helpAndVersion() throws {
        #expect(Dispatcher.overview().contains("watch"))
        #expect(helpText(for: try #require(Dispatcher.find("watch")).spec).contains("--simulate"))
        #expect(versionText().hasPrefix("lodestone "))
    }
}
