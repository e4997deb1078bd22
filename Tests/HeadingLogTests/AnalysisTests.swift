import Foundation
import Geodesy
import HeadingLog
import Linear
import Platform
import Testing

@Suite("analysis: statistics, gaps, robust reading")
struct AnalysisTests {
    @Test("circular mean of 350° and 10° is 0°; spread of equal angles is 0")
    func circularMean() throws {
        var s = CircularStatistics()
        s.add(350)
        s.add(10)
        let mean = try #require(s.mean)
        #expect(abs(angleDifference(mean, 0)) < 1e-9)
        #expect(mean >= 0 && mean < 360)
        var same = CircularStatistics()
        for _ in 0..<10 { same.add(123.4) }
        #expect(abs((same.mean ?? 0) - 123.4) < 1e-9)
        #expect((same.standardDeviation ?? 1) < 1e-6)
    }

    @Test("circular spread: ±a gives √(−2 ln cos a); opposite angles have no mean")
    func circularSpread() throws {
        for a in [5.0, 20, 60] {
            var s = CircularStatistics()
            s.add(90 - a)
            s.add(90 + a)
            let expected = (-2 * log(cos(a * .pi / 180))).squareRoot() * 180 / .pi
            #expect(abs((s.standardDeviation ?? 0) - expected) < 1e-9)
            #expect(abs((s.mean ?? 0) - 90) < 1e-9)
        }
        var opposite = CircularStatistics()
        opposite.add(0)
        opposite.add(180)
        #expect(opposite.mean == nil && opposite.standardDeviation == nil)
        opposite.add(.nan)
        #expect(opposite.count == 2)
    }

    @Test("interval histogram: median, gaps above 3× median, longest")
    func histogram() {
        var h = IntervalHistogram()
        for i in 0..<1000 { h.add(milliseconds: 100 + Int64(i % 3) - 1, start: Int64(i) * 100) }
        h.add(milliseconds: 350, start: 5)
        h.add(milliseconds: 2500, start: 7)
        h.add(milliseconds: 90_000, start: 9)
        #expect(h.median == 100)
        let gaps = h.gaps(above: 300)
        #expect(gaps.count == 3)
        #expect(gaps.longest == 90_000)
        #expect(h.longest?.start == 9)
    }

    @Test("summary of a generated log: rows, rate, gaps, heading, field, disturbance, distance")
    func summary() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/s.csv"
        let start = 1_717_200_000.0
        var points: [GeoPoint] = []
        var text = LogSchema.header + "\n"
        var t = start
        for i in 0..<600 {
            if i == 300 { t += 5 }   // one gap of 5 s
            var v: [String: String] = ["time": isoTime(t), "monotonic_s": plain(t - start)]
            v["heading_mag_deg"] = plain(Double((i % 2 == 0) ? 350 : 10))
            v["field_uT"] = plain(50 + Double(i % 10))
            if i % 10 == 0 { v["flags"] = "tiltHeld|disturbed" }
            if i % 10 == 5 { v["flags"] = "disturbedish" }
            if i % 10 == 0 {   // a fix every second, walking north 1e-5° (≈1.1 m) at a time
                let lat = -33.9 + Double(i / 10) * 1e-5
                v["gnss_mode"] = "3d"; v["lat_deg"] = plain(lat); v["lon_deg"] = "151.2"
                points.append(try GeoPoint(latitude: lat, longitude: 151.2))
            }
            text += csvLine(v) + "\n"
            t += 0.1
        }
        try write(text, to: path)
        let s = try LogAnalyzer.analyze(path: path).summary
        #expect(s.rows == 600)
        #expect(s.malformedRows == 0)
        #expect(abs(s.duration - (59.9 + 5)) < 1e-6)
        #expect(abs((s.medianInterval ?? 0) - 0.1) < 1e-9)
        #expect(s.gapCount == 1)
        #expect(abs((s.longestGap ?? 0) - 5.1) < 1e-9)
        #expect(s.headingColumn == "heading_mag_deg")
        #expect(abs(angleDifference(s.headingMean ?? 180, 0)) < 1e-6)
        #expect(s.fieldMin == 50 && s.fieldMax == 59)
        #expect(s.disturbedRows == 60)
        #expect(abs(s.disturbedTime - 6) < 1e-9)
        #expect(s.fixRows == 60 && s.distinctFixes == 60)
        var expected = 0.0
        for (a, b) in zip(points, points.dropFirst()) { expected += Geodesic.inverse(a, b).distance }
        #expect(abs(s.distance - expected) < 1e-6)
        #expect(s.runs == 1)
        #expect(s.text.contains("gaps       1 longer than 0.300 s"))
    }

    @Test("true heading is summarised when present; runs are counted where monotonic_s restarts")
    func trueHeadingAndRuns() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/t.csv"
        var text = LogSchema.header + "\n"
        for i in 0..<30 {
            let v = ["time": isoTime(1_700_000_000 + Double(i)), "monotonic_s": plain(Double(i % 10)),
                     "heading_mag_deg": "100", "heading_true_deg": plain(110 + Double(i % 3) - 1)]
            text += csvLine(v) + "\n"
        }
        try write(text, to: path)
        let s = try LogAnalyzer.analyze(path: path).summary
        #expect(s.headingColumn == "heading_true_deg")
        #expect(abs((s.headingMean ?? 0) - 110) < 1e-9)
        #expect(s.runs == 3)
    }

    @Test("a restart of the logger breaks the track: no distance, no line and a new GPX segment across it")
    func restartBreaksTheTrack() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/runs.csv", gpx = dir + "/runs.gpx"
        // Two runs two seconds apart, each walking 10 steps east from a place 5 km from the other.
        var text = LogSchema.header + "\n"
        var expected = 0.0
        for run in 0..<2 {
            let startLon = 151.2 + Double(run) * 0.05
            var previous: GeoPoint?
            for i in 0..<10 {
                let lon = startLon + Double(i) * 1e-5
                let point = try GeoPoint(latitude: -33.9, longitude: lon)
                if let previous { expected += Geodesic.inverse(previous, point).distance }
                previous = point
                let v = ["time": isoTime(1_700_000_000 + Double(run * 12 + i)), "monotonic_s": plain(Double(i)),
                         "lat_deg": "-33.9", "lon_deg": plain(lon), "gnss_mode": "3d"]
                text += csvLine(v) + "\n"
            }
        }
        try write(text, to: path)
        let analysis = try LogAnalyzer.analyze(path: path, options: LogAnalyzer.Options(plot: true, gpxPath: gpx))
        let s = analysis.summary
        #expect(s.runs == 2)
        #expect(abs(s.distance - expected) < 1e-6, "\(s.distance) m: the 4.6 km jump between runs must not count (\(expected) m)")
        let plot = try #require(analysis.plot)
        let breaks = plot.track.pointsWithLast.filter(\.startsSegment).count
        #expect(breaks == 1, "one break in the plotted track")
        let svg = SVGPlot.render(plot)
        let track = try #require(svg.components(separatedBy: "id=\"track-path\" d=\"").last?.split(separator: "\"").first)
        #expect(track.filter { $0 == "M" }.count == 2, "two moves in the track path: \(track.prefix(80))")
        let gpxText = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(gpxText.components(separatedBy: "<trkseg>").count - 1 == 2, "two GPX segments")
    }

    @Test("a longitude beyond ±540° makes the row bad, as a latitude beyond ±90° does")
    func absurdLongitude() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/lon.csv"
        var text = LogSchema.header + "\n"
        for (i, lon) in ["151.2", "511.2", "1e300", "-541"].enumerated() {
            text += csvLine(["time": isoTime(1_700_000_000 + Double(i)), "monotonic_s": plain(Double(i)),
                             "lat_deg": "-33.9", "lon_deg": lon]) + "\n"
        }
        try write(text, to: path)
        var problems: [String] = []
        let s = try LogAnalyzer.analyze(path: path) { problems.append("\($0)") }.summary
        #expect(s.rows == 2, "151.2 and 511.2 (normalised) are read")
        #expect(s.malformedRows == 2)
        #expect(problems.allSatisfy { $0.contains("lon_deg") }, "\(problems)")
    }

    @Test("a field strength below 0 or above 0.1 T makes the row bad; a plot of one far field value has no NaN")
    func absurdFieldStrength() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/field.csv"
        var text = LogSchema.header + "\n"
        for (i, field) in ["48.2", "1.7e308", "-1.7e308", "-0.5", "100000.5", "99999"].enumerated() {
            text += csvLine(["time": isoTime(1_700_000_000 + Double(i)), "monotonic_s": plain(Double(i)),
                             "field_uT": field, "heading_mag_deg": "10"]) + "\n"
        }
        try write(text, to: path)
        var problems: [String] = []
        let analysis = try LogAnalyzer.analyze(path: path, options: .init(plot: true)) { problems.append("\($0)") }
        #expect(analysis.summary.rows == 2, "48.2 and 99999 are read")
        #expect(analysis.summary.malformedRows == 4)
        #expect(problems.count == 4 && problems.allSatisfy { $0.contains("field_uT") }, "\(problems)")
        #expect(analysis.summary.fieldMax == 99999)
        let svg = SVGPlot.render(try #require(analysis.plot))
        #expect(!hasNonFiniteWord(svg), "a plot with NaN or inf")

        // One row far from zero: the plot's margin must not vanish in the value's rounding.
        let one = dir + "/one.csv"
        try write(LogSchema.header + "\n" + csvLine(["time": isoTime(1_700_000_000), "monotonic_s": "0",
                                                     "field_uT": "99999.9"]) + "\n", to: one)
        let single = SVGPlot.render(try #require(try LogAnalyzer.analyze(path: one, options: .init(plot: true)).plot))
        #expect(!hasNonFiniteWord(single), "a plot with NaN or inf")
    }

    /// True when a word of the text is "nan" or "inf", as a non-finite number prints.
    private func hasNonFiniteWord(_ text: String) -> Bool {
        text.lowercased().split { !$0.isLetter }.contains { $0 == "nan" || $0 == "inf" || $0 == "infinity" }
    }

    @Test("the plotted track keeps its breaks when it is thinned")
    func thinnedTrackKeepsBreaks() {
        var track = TrackSample(capacity: 8)
        for i in 0..<100 { track.add(latitude: 0, longitude: Double(i) * 1e-4, newSegment: i == 37 || i == 71) }
        let points = track.pointsWithLast
        #expect(points.count <= 9)
        #expect(points.filter(\.startsSegment).count == 2, "\(points.map(\.startsSegment))")
        #expect(!(points.first?.startsSegment ?? true))
    }

    @Test("malformed rows are reported by line number and skipped; a partial last line is named as such")
    func malformed() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/m.csv"
        let good = csvLine(["time": isoTime(1_700_000_000), "monotonic_s": "0", "heading_mag_deg": "10"])
        var text = LogSchema.header + "\n"
        text += good + "\n"                                  // line 2
        text += "a,b,c,d,e,f,g\n"                            // line 3
        text += good.replacingOccurrences(of: ",10,", with: ",1O,") + "\n"   // line 4: letter O
        text += "\n"                                         // line 5: blank, ignored
        text += good + "\n"                                  // line 6
        text += String(good.prefix(30))                      // line 7: cut short
        try write(text, to: path)
        var reported: [MalformedLine] = []
        let s = try LogAnalyzer.analyze(path: path) { reported.append($0) }.summary
        #expect(s.rows == 2)
        #expect(s.malformedRows == 3)
        #expect(reported.map(\.line) == [3, 4, 7])
        #expect(reported[0].description == "line 3: expected \(LogSchema.fieldCount) fields, found 7")
        #expect(reported[1].description.contains("heading_mag_deg '1O' is not a number"))
        #expect(reported[2].problem == .incompleteLastLine)
    }

    @Test("a file that is not a log, an empty file, a header without rows, a missing file")
    func rejected() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let other = dir + "/o.csv", empty = dir + "/e.csv", headerOnly = dir + "/h.csv", junk = dir + "/j.csv"
        try write("name,value\nx,1\n", to: other)
        try write("", to: empty)
        try write(LogSchema.header + "\n", to: headerOnly)
        try write(LogSchema.header + "\nnonsense\nmore nonsense\n", to: junk)
        #expect(throws: LogError.notALog(path: other, found: "line 1 is not a Lodestone log header (it has 2 fields, the header has \(LogSchema.fieldCount))")) {
            try LogAnalyzer.analyze(path: other)
        }
        #expect(throws: LogError.notALog(path: empty, found: "the file is empty")) { try LogAnalyzer.analyze(path: empty) }
        #expect(throws: LogError.nothingReadable(path: headerOnly, malformed: 0)) { try LogAnalyzer.analyze(path: headerOnly) }
        #expect(throws: LogError.nothingReadable(path: junk, malformed: 2)) { try LogAnalyzer.analyze(path: junk) }
        do {
            _ = try LogAnalyzer.analyze(path: dir + "/missing.csv")
            Issue.record("expected an error")
        } catch {
            #expect(error.exitCode == .ioError)
            #expect(error.message.contains("cannot open"))
        }
        #expect(LogError.notALog(path: other, found: "").exitCode == .dataError)
    }

    @Test("a later schema version (more columns at the end) is read")
    func laterVersion() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/v2.csv"
        var text = LogSchema.header + ",future_a,future_b\n"
        for i in 0..<5 {
            text += csvLine(["time": isoTime(1_700_000_000 + Double(i)), "monotonic_s": plain(Double(i)), "heading_mag_deg": "45"]) + ",1,2\n"
        }
        text += csvLine(["time": isoTime(1_700_000_010), "monotonic_s": "10"]) + "\n"   // a v1-width row is malformed here
        try write(text, to: path)
        var reported: [MalformedLine] = []
        let s = try LogAnalyzer.analyze(path: path) { reported.append($0) }.summary
        #expect(s.rows == 5)
        #expect(reported.first?.description == "line 7: expected \(LogSchema.fieldCount + 2) fields, found \(LogSchema.fieldCount)")
    }

    @Test("writer and reader agree: a log written by LogSession reads back row for row")
    func writeThenRead() throws {
        let dir = try scratchFolder(); defer { removeFolder(dir) }
        let path = dir + "/w.csv"
        var rng = SplitMix64(seed: 5)
        var rows: [LogRow] = []
        for i in 0..<500 { rows.append(sampleRow(&rng, time: 1_700_000_000 + Double(i) * 0.1)) }
        try writeLog(path, rows: rows.count) { rows[$0] }
        let parser = LogRowParser()
        let back = try lines(path).dropFirst().map { try parser.parse($0) }
        #expect(back.count == rows.count)
        for (a, b) in zip(rows, back) {
            var expected = a
            expected.monotonic = b.monotonic   // the session writes it relative to its first row
            #expect(expected == b)
        }
        let s = try LogAnalyzer.analyze(path: path).summary
        #expect(s.rows == 500)
        #expect(s.disturbedRows == rows.filter { $0.flags.contains("disturbed") }.count)
    }
}
