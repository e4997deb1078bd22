import Foundation
import Testing
import TestSupport

/// `lodestone detect` on a machine without I²C, in process as the binary runs it.
@Suite("lodestone detect (the command line, in process)")
struct DetectCommandTests {
    static let machineHasI2C =
        (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.contains { $0.hasPrefix("i2c-") } ?? false

    @Test("no I²C on this machine: how to enable it on a Pi, exit 69",
          .enabled(if: !machineHasI2C, "this machine has an I²C bus, so the no-bus path cannot be seen here"))
    func noBus() throws {
        let result = try runInProcess(["detect"])
        #expect(result.status == 69, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("dtparam=i2c_arm=on"))
        #expect(result.stderr.contains("raspi-config"))
        #expect(result.stderr.contains("--simulate"))
        #expect(result.stdout.isEmpty)
        let json = try runInProcess(["detect", "--json"])
        #expect(json.status == 69)
        let one = try runInProcess(["detect", "--bus", "3"])
        #expect(one.status == 69)
        #expect(one.stderr.contains("/dev/i2c-3 does not exist"))
    }
}
