import Testing
@testable import Terminal

/// The calibration screen and its coverage map (pure renderers).
@Suite("Calibration view")
struct CalibrationViewTests {
    static let layout = [1, 6, 11, 15, 17, 17, 15, 11, 6, 1]

    static func bands(_ value: (Int, Int) -> Int) -> [[Int]] {
        layout.enumerated().map { band, n in (0..<n).map { value(band, $0) } }
    }

    static var state: CalibrationViewState {
        var s = CalibrationViewState(title: "Lodestone calibration: QMC5883L (simulated)")
        s.bands = bands { band, _ in band < 5 ? 3 : 0 }
        s.progressPercent = 57
        s.sampleCount = 5642
        s.distinctCount = 450
        s.coveragePercent = 50
        s.gaps = 50
        s.spreadPercent = 2.14
        s.residualPercent = 1.42
        s.wobblePercent = 3.2
        s.fieldStrength = 57.12
        s.expectedFieldStrength = 57.0
        s.issue = "only 50 % of orientations covered (gap score 50.0); the field never pointed toward the board's top (-z): "
            + "turn the board upside down and keep turning"
        return s
    }

    @Test func fullScreenShowsEveryPart() {
        let lines = renderCalibrationView(Self.state, columns: 100, rows: 32, ascii: false)
        let text = lines.joined(separator: "\n")
        #expect(lines.count <= 32)
        #expect(lines.allSatisfy { $0.count <= 100 })
        #expect(text.contains("Turn it slowly through every orientation"))
        #expect(text.contains("upper: field out of the top (−z)"))
        #expect(text.contains("lower: field out of the bottom (+z)"))
        #expect(text.contains("57 %"))
        #expect(text.contains("samples 5642 (450 distinct)"))
        #expect(text.contains("spread of |B| 2.1 %"))
        #expect(text.contains("residual 1.4 %"))
        #expect(text.contains("wobble 3.2 %"))
        #expect(text.contains("field 57.1 µT (expected 57.0 µT)"))
        #expect(text.contains("▶ only 50 % of orientations covered"))
        #expect(text.contains("q or Esc: cancel"))
        // The lower hemisphere (bands 0–4) is full, the upper one empty.
        let mapRows = lines.filter { $0.contains("▓") || $0.contains("·") }
        #expect(mapRows.count >= 5)
        for row in mapRows where !row.contains("empty") {
            let middle = row.index(row.startIndex, offsetBy: min(row.count, 36))
            #expect(!row[..<middle].contains("▓"), "upper disc should be empty: \(row)")
        }
    }

    @Test func asciiFallbackUsesOnlyASCII() {
        let lines = renderCalibrationView(Self.state, columns: 80, rows: 24, ascii: true)
        let text = lines.joined(separator: "\n")
        #expect(text.unicodeScalars.allSatisfy { $0.isASCII }, "non-ASCII in: \(text)")
        #expect(text.contains("#"))
        #expect(text.contains("uT"))
    }

    @Test func smallWindowsKeepTheEssentials() {
        for (columns, rows) in [(40, 10), (30, 6), (100, 12), (20, 3)] {
            let lines = renderCalibrationView(Self.state, columns: columns, rows: rows, ascii: false)
            #expect(lines.count <= rows, "\(columns)x\(rows): \(lines.count) lines")
            #expect(lines.allSatisfy { $0.count <= columns })
            if rows >= 3 { #expect(lines.joined().contains("57 %")) }
        }
    }

    @Test func progressNeverShowsFullBeforeSuccess() {
        for p in [0, 1, 50, 99] {
            let bar = calibrationProgressBar(p, width: 40, ascii: true)
            #expect(bar.contains("-"), "\(p) % must leave the bar unfinished: \(bar)")
        }
        #expect(!calibrationProgressBar(100, width: 40, ascii: true).contains("-"))
        #expect(calibrationProgressBar(250, width: 40, ascii: true) == calibrationProgressBar(100, width: 40, ascii: true))
    }

    @Test func mapGlyphsFollowTheCounts() {
        let zero = renderCoverageMap(bands: Self.bands { _, _ in 0 }, discRows: 7, ascii: true, labels: false).joined()
        let one = renderCoverageMap(bands: Self.bands { _, _ in 1 }, discRows: 7, ascii: true, labels: false).joined()
        let many = renderCoverageMap(bands: Self.bands { _, _ in 5 }, discRows: 7, ascii: true, labels: false).joined()
        #expect(zero.contains(".") && !zero.contains("+") && !zero.contains("#"))
        #expect(one.contains("+") && !one.contains(".") && !one.contains("#"))
        #expect(many.contains("#") && !many.contains(".") && !many.contains("+"))
    }

    @Test func everyRegionIsDrawnAndPlacedByLongitude() {
        // Mark one region at a time; it must appear at least once, on the expected side.
        var seen = 0
        for band in 0..<Self.layout.count {
            for cell in 0..<Self.layout[band] {
                let map = renderCoverageMap(bands: Self.bands { b, c in b == band && c == cell ? 1 : 0 },
                                            discRows: 15, ascii: true, labels: false)
                if map.joined().contains("+") { seen += 1 }
            }
        }
        #expect(seen == 100, "\(seen) of 100 regions visible")
        // Band 4 (just below the equator on the +z side), longitude 0 (front): top of the right disc.
        let front = renderCoverageMap(bands: Self.bands { b, c in b == 4 && c == 0 ? 1 : 0 },
                                      discRows: 15, ascii: true, labels: false)
        let row = front.firstIndex { $0.contains("+") } ?? -1
        #expect(row >= 0 && row < 3, "front region drawn at row \(row)")
        #expect((front[row].firstIndex(of: "+")?.utf16Offset(in: front[row]) ?? 0) > 30)
    }

    @Test func keys() {
        #expect(calibrationKeys(for: Array("s".utf8)) == [.fitNow])
        #expect(calibrationKeys(for: [0x0D]) == [.fitNow])
        #expect(calibrationKeys(for: [0x0A]) == [.fitNow])
        #expect(calibrationKeys(for: Array("q".utf8)) == [.cancel])
        #expect(calibrationKeys(for: [0x1B]) == [.cancel])
        #expect(calibrationKeys(for: [0x1B, 0x5B, 0x41]) == [])
        #expect(calibrationKeys(for: [0x1B, 0x4F, 0x50]) == [])
        #expect(calibrationKeys(for: [0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x41, 0x71]) == [.cancel])
        #expect(calibrationKeys(for: Array("xyz".utf8)) == [])
    }

    @Test func wrapping() {
        let lines = wrapCalibrationText("one two three four five six", width: 9)
        #expect(lines == ["one two", "three", "four five", "six"])
        #expect(wrapCalibrationText("abcdefghijkl", width: 5) == ["abcde", "fghij", "kl"])
        #expect(calibrationNumber(2.149, decimals: 1) == "2.1")
        #expect(calibrationNumber(-0.04, decimals: 1) == "0.0")
        #expect(calibrationNumber(.nan, decimals: 1) == "-")
    }
}
