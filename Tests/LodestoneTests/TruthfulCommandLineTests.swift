import Foundation
import Testing
import TestSupport

/// The command line tells the truth (issue #26), in process: unknown commands and help topics are
/// usage errors, `watch` stops after `--duration`. (A gpsd that refuses ends the commands that wait
/// for it: GpsdInProcessTests.)
@Suite("a truthful command line (in process)")
struct TruthfulCommandLineTests {
    @Test("an unknown help topic exits 64 with a did-you-mean; a known one prints its help")
    func helpTopics() throws {
        let bogus = try runInProcess(["help", "bogus"])
        #expect(bogus.status == 64)
        #expect(bogus.stdout.isEmpty)
        #expect(bogus.stderr.contains("unknown command 'bogus'"), "\(bogus.stderr)")
        let near = try runInProcess(["help", "wach"])
        #expect(near.status == 64)
        #expect(near.stderr.contains("did you mean 'watch'?"), "\(near.stderr)")
        let known = try runInProcess(["help", "where"])
        #expect(known.status == 0)
        #expect(known.stdout.contains("--timeout"))
        let command = try runInProcess(["wehre"])
        #expect(command.status == 64)
        #expect(command.stderr.contains("did you mean 'where'?"), "\(command.stderr)")
    }

    @Test("--timeout is refused where it makes no sense and checked where it does")
    func timeoutValues() throws {
        #expect(try runInProcess(["track", "--simulate", "--timeout", "0"]).status == 64)
        #expect(try runInProcess(["goto", "52.6,5.0", "--simulate", "--timeout", "x"]).status == 64)
    }

    @Test("watch --duration stops the plain lines after the duration, exit 0 (in process, on a manual clock)")
    func watchDuration() throws {
        let harness = try SessionHarness("watch-duration", deadline: 600)
        let result = try harness.lodestone(["watch", "--simulate", "--duration", "1.5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(harness.clock.now() >= 1.5 && harness.clock.now() < 2.5, "ended at \(harness.clock.now()) s, not after 1.5 s")
        #expect(result.stdout.split(separator: "\n").count >= 3)
        #expect(try runInProcess(["watch", "--simulate", "--duration", "-1"]).status == 64)
    }
}
