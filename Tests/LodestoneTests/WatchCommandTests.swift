import Foundation
import Testing
import TestSupport

@Suite("lodestone watch (end to end)")
struct WatchCommandTests {
    /// Parses "123.4° SE" into the heading, or nil.
    func heading(of line: String) -> Double? {
        guard let degree = line.firstIndex(of: "°") else { return nil }
        return Double(line[..<degree])
    }

    /// True when this machine has an I²C bus (a Pi): the no-sensor path cannot be seen there.
    static let hasI2CBus = (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.contains { $0.hasPrefix("i2c-") } ?? false

    @Test("no sensor: explains, suggests --simulate, exits 69",
          .enabled(if: !hasI2CBus, "this machine has an I²C bus, so the no-bus path cannot be seen here"))
    func noSensor() throws {
        let result = try runLodestone(["watch"], timeout: 20)
        #expect(result.status == 69)
        #expect(result.stderr.contains("i2c_arm=on"))
        #expect(result.stderr.contains("--simulate"))
    }

    @Test("bad arguments exit 64 with a message")
    func usage() throws {
        let r1 = try runLodestone(["watch", "--rate", "fast"])
        #expect(r1.status == 64)
        #expect(r1.stderr.contains("--rate"))
        let r2 = try runLodestone(["wach"])
        #expect(r2.status == 64)
        #expect(r2.stderr.contains("did you mean 'watch'"))
        let r3 = try runLodestone(["watch", "--bogus"])
        #expect(r3.status == 64)
    }

    @Test("--help and --version")
    func helpAndVersion() throws {
        let help = try runLodestone(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("watch"))
        let watchHelp = try runLodestone(["watch", "--help"])
        #expect(watchHelp.status == 0)
        #expect(watchHelp.stdout.contains("--simulate"))
        let version = try runLodestone(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("lodestone "))
    }
}
