import Foundation
import Testing
import TestSupport

@Suite("lodestone detect (end to end)")
struct DetectCommandTests {
    static let machineHasI2C =
        (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.contains { $0.hasPrefix("i2c-") } ?? false

    @Test("no I²C on this machine: how to enable it on a Pi, exit 69",
          .enabled(if: !machineHasI2C, "this machine has an I²C bus, so the no-bus path cannot be seen here"))
    func noBus() throws {
        let result = try runLodestone(["detect"])
        #expect(result.status == 69, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("dtparam=i2c_arm=on"))
        #expect(result.stderr.contains("raspi-config"))
        #expect(result.stderr.contains("--simulate"))
        #expect(result.stdout.isEmpty)
        let json = try runLodestone(["detect", "--json"])
        #expect(json.status == 69)
        let one = try runLodestone(["detect", "--bus", "3"])
        #expect(one.status == 69)
        #expect(one.stderr.contains("/dev/i2c-3 does not exist"))
    }
}
