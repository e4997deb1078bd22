import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// Checks that data is well-formed XML and returns the root element's name and attributes.
final class RootElement: NSObject, XMLParserDelegate {
    var name: String?
    var namespace: String?
    var attributes: [String: String] = [:]
    var counts: [String: Int] = [:]

    static func parse(_ url: URL) -> RootElement? {
        guard let parser = XMLParser(contentsOf: url) else { return nil }
        let root = RootElement()
        parser.shouldProcessNamespaces = true
        parser.delegate = root
        return parser.parse() ? root : nil
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if name == nil {
            name = elementName
            namespace = namespaceURI
            self.attributes = attributes
        }
        counts[elementName, default: 0] += 1
    }
}

@Suite("lodestone analyze (end to end)", .serialized)
struct AnalyzeCommandTests {
    /// A small log with a GNSS walk east: 20 rows at 10 Hz, a fix every row.
    func walkLog(_ path: String, rows: Int = 20) throws {
        var text = logHeaderV1 + "\n"
        for i in 0..<rows {
            let time = String(format: "2024-06-01T12:00:%02d.%03dZ", i / 10, (i % 10) * 100)
            var f = [String](repeating: "", count: 27)
            f[0] = time
            f[1] = String(Double(i) / 10)
            f[8] = "50"
            f[12] = i % 2 == 0 ? "350" : "10"
            f[17] = i < 5 ? "disturbed" : ""
            f[18] = "3d"
            f[19] = "-33.9"
            f[20] = String(151.2 + Double(i) * 1e-5)
            f[21] = "20"
            text += f.joined(separator: ",") + "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("--json: one object with the summary's numbers")
    func json() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("walk.csv").path
        try walkLog(path)
        let result = try runLodestone(["analyze", path, "--json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["rows"] as? Int == 20)
        #expect(object["gaps"] as? Int == 0)
        #expect(abs((object["heading_mean_deg"] as? Double ?? 99) - 0) < 1e-6 || abs((object["heading_mean_deg"] as? Double ?? 99) - 360) < 1e-6)
        #expect(abs((object["disturbed_s"] as? Double ?? 0) - 0.5) < 1e-9)
        #expect(object["gnss_positions"] as? Int == 20)
        let distance = try #require(object["distance_m"] as? Double)
        #expect(abs(distance - 19 * 0.924) < 0.1, "19 steps of 1e-5° of longitude at 33.9° S: \(distance)")
        #expect(object["first_time"] as? String == "2024-06-01T12:00:00.000Z")
    }

    @Test("--svg and --gpx write well-formed files")
    func svgAndGPX() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("walk.csv").path
        let svg = dir.appendingPathComponent("walk.svg"), gpx = dir.appendingPathComponent("walk.gpx")
        try walkLog(path)
        let result = try runLodestone(["analyze", path, "--svg", svg.path, "--gpx", gpx.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let svgRoot = try #require(RootElement.parse(svg))
        #expect(svgRoot.name == "svg")
        #expect((svgRoot.counts["path"] ?? 0) >= 3, "magnetic heading, field, track")
        let gpxRoot = try #require(RootElement.parse(gpx))
        #expect(gpxRoot.name == "gpx" && gpxRoot.namespace == "http://www.topografix.com/GPX/1/1")
        #expect(gpxRoot.attributes["version"] == "1.1")
        #expect(gpxRoot.counts["trkpt"] == 20)
    }

    @Test("malformed rows: listed by line number (at most 10), counted, not fatal")
    func malformed() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.csv").path
        try walkLog(path)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        for i in 0..<15 { text += "garbage \(i),x\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runLodestone(["analyze", path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("line 22: expected 27 fields, found 2"))
        #expect(result.stderr.contains("line 31: expected 27 fields, found 2"))
        #expect(!result.stderr.contains("line 32:"))
        #expect(result.stderr.contains("5 more malformed lines"))
        #expect(result.stdout.contains("rows       20 (15 malformed lines skipped)"))
    }

    @Test("not a log: exit 65; nothing readable: exit 65; missing file: exit 74; no file: exit 64")
    func failures() throws {
        let dir = try makeTemporaryFolder(); defer { try? FileManager.default.removeItem(at: dir) }
        let other = dir.appendingPathComponent("other.csv").path
        try "a,b\n1,2\n".write(toFile: other, atomically: true, encoding: .utf8)
        let r1 = try runLodestone(["analyze", other])
        #expect(r1.status == 65)
        #expect(r1.stderr.contains("not a Lodestone log"))
        let junk = dir.appendingPathComponent("junk.csv").path
        try (logHeaderV1 + "\nx\ny\n").write(toFile: junk, atomically: true, encoding: .utf8)
        let r2 = try runLodestone(["analyze", junk])
        #expect(r2.status == 65)
        #expect(r2.stderr.contains("line 2: expected 27 fields, found 1"))
        let r3 = try runLodestone(["analyze", dir.appendingPathComponent("missing.csv").path])
        #expect(r3.status == 74)
        #expect(r3.stderr.contains("cannot open"))
        let walk = dir.appendingPathComponent("walk.csv").path
        try walkLog(walk)
        let same = try runLodestone(["analyze", walk, "--gpx", walk])
        #expect(same.status == 64)
        #expect(try String(contentsOfFile: walk, encoding: .utf8).hasPrefix(logHeaderV1), "the log is untouched")
        #expect(try runLodestone(["analyze"]).status == 64)
        #expect(try runLodestone(["analyze", other, other]).status == 64)
    }
}
