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

    @Test("piped: plain heading lines that change and stay in [0, 360)")
    func pipedHeadings() throws {
        let result = try runLodestone(["watch", "--simulate"], timeout: 30, signalAfter: 2.5)
        #expect(result.status == 0, "exit \(result.status), stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count >= 15, "expected ≥ 10 Hz for ~2 s, got \(lines.count) lines")
        let headings = lines.compactMap(heading(of:))
        #expect(headings.count == lines.count, "every line is a heading: \(lines.prefix(3))")
        #expect(headings.allSatisfy { $0 >= 0 && $0 < 360 })
        #expect(Set(headings).count > 3, "headings change")
        let names: Set<String> = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        for line in lines {
            #expect(line.range(of: #"^\d{1,3}\.\d° [NESW]{1,3}"#, options: .regularExpression) != nil, "format: \(line)")
            let name = line.split(separator: " ")[1]
            #expect(names.contains(String(name)))
        }
        #expect(!result.stdout.contains("nan"))
    }

    @Test("--once prints exactly one reading")
    func once() throws {
        let result = try runLodestone(["watch", "--simulate", "--once"], timeout: 20)
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(heading(of: result.stdout) != nil)
    }

    @Test("no sensor: explains, suggests --simulate, exits 69")
    func noSensor() throws {
        let hasBus = (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.contains { $0.hasPrefix("i2c-") } ?? false
        try #require(!hasBus, "this machine has an I²C bus; the no-sensor path cannot be tested here")
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

@Suite("lodestone watch --log (end to end)")
struct WatchLogTests {
    /// Piped `watch --log`: each new fix's first row carries its distance and bearing from the fix
    /// logged before it, so the column sums to the distance travelled.
    @Test func newFixesCarryTheirLeg() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("watch.csv").path
        let result = try runLodestone(["watch", "--simulate", "--log", path], timeout: 30, signalAfter: 4.5)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let lat = try #require(header.firstIndex(of: "lat_deg")), lon = try #require(header.firstIndex(of: "lon_deg"))
        let distance = try #require(header.firstIndex(of: "fix_distance_m"))
        var previous: String?
        var newFixes = 0
        for line in lines.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(cells.count == header.count)
            let position = cells[lat] + "," + cells[lon]
            guard !cells[lat].isEmpty else { continue }
            if let previous, position != previous {
                newFixes += 1
                #expect(Double(cells[distance]) != nil, "a new fix without its leg: \(line)")
            } else {
                #expect(cells[distance].isEmpty, "a leg on a row that repeats the fix: \(line)")
            }
            previous = position
        }
        #expect(newFixes >= 2, "the simulated receiver gives a fix a second")
    }
}
