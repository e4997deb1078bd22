import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Platform
@testable import Session
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

/// `analyze` as the command runs it, in process: the summary, its JSON, the SVG and GPX files,
/// malformed rows, and the files it refuses. (Moved from the spawned-binary suite, which keeps the
/// argument checks.)
@Suite("analyze, the command's query in process")
struct AnalyzeInProcessTests {
    /// A small log with a GNSS walk east: 20 rows at 10 Hz, a fix every row.
    static func walkLog(_ path: String, rows: Int = 20) throws {
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

    func analyze(_ h: SessionHarness, _ query: LogAnalysisQuery) -> CommandRun {
        h.run("analyze") { try query.run(runtime: $0) }
    }

    @Test("--json: one object with the summary's numbers")
    func json() throws {
        let h = try SessionHarness("analyze-json")
        let path = h.path("walk.csv")
        try Self.walkLog(path)
        let result = analyze(h, LogAnalysisQuery(path: path, json: true))
        #expect(result.status == .success, "\(result.stderr)")
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
        let h = try SessionHarness("analyze-svg")
        let path = h.path("walk.csv")
        let svg = URL(fileURLWithPath: h.path("walk.svg")), gpx = URL(fileURLWithPath: h.path("walk.gpx"))
        try Self.walkLog(path)
        let result = analyze(h, LogAnalysisQuery(path: path, svgPath: svg.path, gpxPath: gpx.path))
        #expect(result.status == .success, "stderr: \(result.stderr)")
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
        let h = try SessionHarness("analyze-malformed")
        let path = h.path("bad.csv")
        try Self.walkLog(path)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        for i in 0..<15 { text += "garbage \(i),x\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = analyze(h, LogAnalysisQuery(path: path))
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stderr.contains("line 22: expected 27 fields, found 2"), "\(result.stderr)")
        #expect(result.stderr.contains("line 31: expected 27 fields, found 2"))
        #expect(!result.stderr.contains("line 32:"))
        #expect(result.stderr.contains("5 more malformed lines"))
        #expect(result.stdout.contains("rows       20 (15 malformed lines skipped)"), "\(result.stdout)")
    }

    @Test("not a log: exit 65; nothing readable: exit 65; missing file: exit 74; an output onto the log: exit 64, the log untouched")
    func failures() throws {
        let h = try SessionHarness("analyze-failures")
        let other = try h.file("other.csv", "a,b\n1,2\n")
        let r1 = analyze(h, LogAnalysisQuery(path: other))
        #expect(r1.status == .dataError, "\(r1.stderr)")
        #expect(r1.stderr.contains("not a Lodestone log"), "\(r1.stderr)")
        let junk = try h.file("junk.csv", logHeaderV1 + "\nx\ny\n")
        let r2 = analyze(h, LogAnalysisQuery(path: junk))
        #expect(r2.status == .dataError, "\(r2.stderr)")
        #expect(r2.stderr.contains("line 2: expected 27 fields, found 1"), "\(r2.stderr)")
        let r3 = analyze(h, LogAnalysisQuery(path: h.path("missing.csv")))
        #expect(r3.status == .ioError, "\(r3.stderr)")
        #expect(r3.stderr.contains("cannot open"), "\(r3.stderr)")
        let walk = h.path("walk.csv")
        try Self.walkLog(walk)
        let same = analyze(h, LogAnalysisQuery(path: walk, gpxPath: walk))
        #expect(same.status == .usage, "\(same.stderr)")
        #expect(try String(contentsOfFile: walk, encoding: .utf8).hasPrefix(logHeaderV1), "the log is untouched")
    }
}
