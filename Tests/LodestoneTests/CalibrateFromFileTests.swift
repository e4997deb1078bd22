import Foundation
import Testing
import TestSupport

/// `lodestone calibrate --from-file`'s option parsing, in process as the binary runs it. What the fit does with a
/// recording is tested in process (SessionTests: CalibrateFromFileInProcessTests); the binary's
/// wiring of --from-file to it is also run by HostileInputTests (under a memory limit).
@Suite("lodestone calibrate --from-file (options, in process)")
struct CalibrateFromFileTests {
    @Test("options that need a sensor are refused with --from-file (exit 64)")
    func conflicts() throws {
        let r = try runInProcess(["calibrate", "--from-file", "x.csv", "--simulate"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--simulate cannot be used with --from-file"), "\(r.stderr)")
        let u = try runInProcess(["calibrate", "--from-file", "x.csv", "--unit", "furlongs"])
        #expect(u.status == 64)
    }
}
