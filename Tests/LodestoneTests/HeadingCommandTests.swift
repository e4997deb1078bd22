import Foundation
import Testing
import TestSupport

/// `lodestone heading` and `watch --deviation show`'s command lines, in process: their arguments (exit 64).
/// What the replay and the card show is tested in process (SessionTests: HeadingReplayInProcessTests);
/// the binary's wiring of --from-file is also run by HostileInputTests.
@Suite("lodestone heading --from-file (the command line, in process)")
struct HeadingCommandTests {
    @Test func usageErrors() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let noT = dir.appendingPathComponent("not.csv")
        try "x,y,z\n1,2,3\n".write(to: noT, atomically: true, encoding: .utf8)
        #expect(try runInProcess(["heading"]).status == 64)
        #expect(try runInProcess(["heading", "--from-file", noT.path, "--format", "xml"]).status == 64)
    }
}

@Suite("lodestone watch --deviation show (the command line, in process)")
struct DeviationShowTests {
    @Test func withoutACardItSaysSoAndAnUnknownModeIsAUsageError() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let empty = try runInProcess(["watch", "--simulate", "--deviation", "show"],
                                     environment: ["XDG_CONFIG_HOME": dir.path])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.contains("no deviation card"))
        #expect(try runInProcess(["watch", "--simulate", "--deviation", "sometimes"]).status == 64)
    }
}
