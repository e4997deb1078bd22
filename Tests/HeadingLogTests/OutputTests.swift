import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HeadingLog
import Linear
import Platform
import Testing

/// Collects every element of an XML document (parsed with namespaces on).
final class XMLCollector: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var namespace: String?
        var attributes: [String: String]
        var path: [String]
        var text = ""
    }
    var elements: [Element] = []
    var stack: [Int] = []
    var error: Error?

    static func parse(_ data: Data) -> XMLCollector {
        let collector = XMLCollector()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = collector
        if !parser.parse() { collector.error = parser.parserError ?? NSError(domain: "xml", code: 1) }
        return collector
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let path = stack.map { elements[$0].name }
        elements.append(Element(name: name, namespace: namespaceURI, attributes: attributes, path: path))
        stack.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let top = stack.last { elements[top].text += string }
    }

    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }
}

/// The commands of an SVG path `d` ("M x y L x y …") as (command, x, y).
func pathCommands(_ d: String) -> [(Character, Double, Double)] {
    var out: [(Character, Double, Double)] = []
    let tokens = d.split(separator: " ")
    var i = 0
    while i + 1 < tokens.count {
        let head = tokens[i]
        guard let c = head.first, let x = Double(head.dropFirst()), let y = Double(tokens[i + 1]) else { return out }
        out.append((c, x, y))
        i += 2
    }
    return out
}

@Suite("SVG plot and GPX track")
struct OutputTests {
    /// A log turning steadily through north twice, with true = magnetic + 12°, a square GNSS walk
    /// (200 m sides) with a 60 s pause in the fixes half-way.
    func turningLog(_ path: String) throws {
        var text = LogSchema.header + "\n"
        let start = 1_717_200_000.0
        let metresPerDegree = 111_320.0
        for i in 0..<4000 {
            let t = start + Double(i) * 0.25
            let magnetic = (300 + Double(i) * 0.12).truncatingRemainder(dividingBy: 360)
            var v: [String: String] = ["time": isoTime(t), "monotonic_s": plain(Double(i) * 0.25),
                                       "heading_mag_deg": plain((magnetic * 1000).rounded() / 1000),
                                       "heading_true_deg": plain(((magnetic + 12).truncatingRemainder(dividingBy: 360) * 1000).rounded() / 1000),
                                       "field_uT": plain(50 + sin(Double(i) / 50) * 3)]
            if i % 4 == 0 && !(1800..<2100).contains(i) {
                let s = Double(i) / 4000 * 800   // metres along the square
                let (east, north): (Double, Double) = s < 200 ? (s, 0) : s < 400 ? (200, s - 200) : s < 600 ? (600 - s, 200) : (0, 800 - s)
                let lat = -33.9 + north / metresPerDegree
                let lon = 151.2 + east / (metresPerDegree * cos(33.9 * .pi / 180))
                v["gnss_mode"] = "3d"
                v["lat_deg"] = plain((lat * 1e8).rounded() / 1e8)
                v["lon_deg"] = plain((lon * 1e8).rounded() / 1e8)
                v["alt_m"] = "21.5"
            }
            text += csvLine(v) + "\n"
        }
        try write(text, to: path)
    }

    @Test("SVG: well-formed, the expected groups and paths, no line across the 0/360 wrap")
    func svg() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/turn & <walk>.csv"
        try turningLog(path)
        let analysis = try LogAnalyzer.analyze(path: path, options: .init(plot: true))
        let plot = try #require(analysis.plot)
        let svg = SVGPlot.render(plot)
        let xml = XMLCollector.parse(Data(svg.utf8))
        #expect(xml.error == nil, "\(String(describing: xml.error))")
        let root = try #require(xml.elements.first)
        #expect(root.name == "svg" && root.namespace == "http://www.w3.org/2000/svg")
        #expect(Set(xml.all("g").compactMap { $0.attributes["id"] }).isSuperset(of: ["heading", "field", "track"]))
        #expect(xml.all("title").first?.text == "Lodestone log turn & <walk>.csv")
        let paths = Dictionary(xml.all("path").compactMap { e in e.attributes["id"].map { ($0, e.attributes["d"] ?? "") } },
                               uniquingKeysWith: { a, _ in a })
        for id in ["heading-true", "heading-magnetic"] {
            let commands = pathCommands(try #require(paths[id]))
            #expect(commands.count > 100, "\(id) has points")
            let top = 52.0, bottom = 312.0
            var moves = 0
            for (a, b) in zip(commands, commands.dropFirst()) {
                #expect(b.1 >= a.1 - 0.11, "\(id): time runs left to right")
                if b.0 == "M" {
                    moves += 1
                    // A break at the wrap: the line ended at one edge and restarts at the other.
                    #expect((abs(a.2 - top) < 0.11 && abs(b.2 - bottom) < 0.11) || (abs(a.2 - bottom) < 0.11 && abs(b.2 - top) < 0.11),
                            "\(id): break at \(a) → \(b)")
                    continue
                }
                #expect(abs(b.2 - a.2) < (bottom - top) / 2, "\(id): segment \(a) → \(b) jumps across the plot")
            }
            #expect(moves == 2 || moves == 3, "\(id) crosses north two or three times, found \(moves)")
        }
        let field = pathCommands(try #require(paths["field-strength"]))
        #expect(field.allSatisfy { $0.2 >= 364 - 0.11 && $0.2 <= 524 + 0.11 })
        let track = pathCommands(try #require(paths["track-path"]))
        let xs = track.map(\.1), ys = track.map(\.2)
        let width = (xs.max() ?? 0) - (xs.min() ?? 0), height = (ys.max() ?? 0) - (ys.min() ?? 0)
        #expect(height > 100)
        #expect(abs(width / height - 1) < 0.02, "a square walk stays square: \(width) × \(height)")
    }

    @Test("SVG stays small for a long, noisy log (downsampled per pixel column)")
    func svgSize() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/big.csv"
        var rng = SplitMix64(seed: 9)
        try writeLog(path, rows: 100_000) { i in
            var row = LogRow(time: 1_700_000_000 + Double(i) * 0.01, monotonic: Double(i) * 0.01)
            row.magneticHeading = rng.nextUnit() * 360
            row.fieldStrength = 50 + rng.nextGaussian()
            return row
        }
        let analysis = try LogAnalyzer.analyze(path: path, options: .init(plot: true))
        let svg = SVGPlot.render(try #require(analysis.plot))
        #expect(svg.utf8.count < 400_000, "\(svg.utf8.count) bytes")
        #expect(XMLCollector.parse(Data(svg.utf8)).error == nil)
    }

    @Test("the wrap break splits a crossing at the edge, both ways")
    func wrapBreakUnit() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/w.csv"
        var text = LogSchema.header + "\n"
        for (i, h) in [350.0, 355, 5, 10, 5, 355, 350].enumerated() {
            text += csvLine(["time": isoTime(1_700_000_000 + Double(i)), "monotonic_s": plain(Double(i)), "heading_mag_deg": plain(h)]) + "\n"
        }
        try write(text, to: path)
        let plot = try #require(try LogAnalyzer.analyze(path: path, options: .init(plot: true)).plot)
        let commands = pathCommands(try #require(XMLCollector.parse(Data(SVGPlot.render(plot).utf8)).all("path")
            .first { $0.attributes["id"] == "heading-magnetic" }?.attributes["d"]))
        #expect(commands.filter { $0.0 == "M" }.count == 3, "start + two crossings: \(commands)")
        #expect(commands.filter { $0.0 == "L" }.count == 8)
    }

    @Test("GPX 1.1: namespace, version, creator, trk/trkseg/trkpt with valid lat, lon, ele and time")
    func gpx() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/walk.csv", gpxPath = dir + "/walk.gpx"
        try turningLog(path)
        let analysis = try LogAnalyzer.analyze(path: path, options: .init(gpxPath: gpxPath))
        let data = try Data(contentsOf: URL(fileURLWithPath: gpxPath))
        let xml = XMLCollector.parse(data)
        #expect(xml.error == nil)
        let root = try #require(xml.elements.first)
        #expect(root.name == "gpx")
        #expect(root.namespace == "http://www.topografix.com/GPX/1/1")
        #expect(root.attributes["version"] == "1.1")
        #expect(root.attributes["creator"] == "lodestone")
        #expect(xml.all("trk").count == 1)
        #expect(xml.all("trkseg").count == 2, "the 75 s pause in the fixes starts a new segment")
        let points = xml.all("trkpt")
        #expect(points.count == analysis.summary.distinctFixes)
        #expect(points.count == analysis.gpxPoints)
        #expect(points.count > 800)
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for p in points {
            #expect(p.path == ["gpx", "trk", "trkseg"])
            let lat = try #require(Double(p.attributes["lat"] ?? ""))
            let lon = try #require(Double(p.attributes["lon"] ?? ""))
            #expect((-90...90).contains(lat) && lon >= -180 && lon < 180)
        }
        let times = xml.all("time").filter { $0.path.last == "trkpt" }
        #expect(times.count == points.count)
        #expect(times.allSatisfy { iso.date(from: $0.text) != nil })
        #expect(xml.all("ele").allSatisfy { $0.text == "21.5" })
        #expect(!FileManager.default.fileExists(atPath: gpxPath + ".tmp-\(getpid())"))
    }

    @Test("XML escaping")
    func escaping() {
        #expect(xmlEscaped("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;")
        #expect(xmlEscaped("bell\u{07}") == "bell")
    }
}
