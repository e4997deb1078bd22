import Foundation
import Geodesy
import Linear
import Testing
@testable import Terminal

/// Geometry properties of the rose that hold at every heading and size.
@Suite("rose geometry")
struct RosePropertyTests {
    /// The character cells of a line (a wide character and its continuation as one entry plus nil).
    func cells(_ line: String) -> [Character?] {
        var out: [Character?] = []
        for character in line {
            out.append(character)
            if displayWidth(String(character)) == 2 { out.append(nil) }
        }
        return out
    }

    /// Where the geometry says a bearing's label is centred, computed here from first principles:
    /// heading-up, clockwise, x scaled by the cell aspect.
    func predicted(_ g: RoseGeometry, bearing: Double, heading: Double) -> (column: Int, row: Int) {
        let theta = (bearing - heading) * .pi / 180
        let x = Double(g.centerColumn) + 0.5 + g.aspect * g.cardinalRadius * sin(theta)
        let y = Double(g.centerRow) + 0.5 - g.cardinalRadius * cos(theta)
        return (Int(floor(x)), Int(floor(y)))
    }

    @Test("N, E, S, W sit where the geometry predicts", arguments: [0.0, 17.3, 30, 45, 90, 135.5, 200, 271, 359.6])
    func cardinalsAtPredictedCells(heading: Double) throws {
        for (columns, rows) in [(45, 22), (25, 12), (15, 8), (61, 30), (80, 40)] {
            let g = RoseGeometry(columns: columns, rows: rows)
            try #require(g.form == .card)
            let lines = renderRose(heading: heading, columns: columns, rows: rows)
            for (i, letter) in ["N", "E", "S", "W"].enumerated() {
                let p = predicted(g, bearing: Double(i * 90), heading: heading)
                let row = cells(lines[p.row])
                #expect(row[p.column] == Character(letter),
                        "\(letter) at heading \(heading), \(columns)×\(rows): expected column \(p.column) row \(p.row)\n\(lines.joined(separator: "\n"))")
            }
        }
    }

    @Test("北 starts at the predicted cell in Chinese")
    func chineseNorth() {
        for heading in [0.0, 30, 90, 359.6] {
            let g = RoseGeometry(columns: 45, rows: 22)
            let lines = renderRose(heading: heading, columns: 45, rows: 22, options: RoseOptions(language: .zh))
            let p = predicted(g, bearing: 0, heading: heading)
            #expect(cells(lines[p.row])[p.column] == "北")
        }
    }

    @Test("N is left of centre at 90°, right at 270°, below at 180°")
    func turnsTheRightWay() {
        let g = RoseGeometry(columns: 45, rows: 22)
        func north(_ h: Double) -> (Int, Int) {
            let lines = renderRose(heading: h, columns: 45, rows: 22)
            for (r, line) in lines.enumerated() {
                let row = cells(line)
                for (c, ch) in row.enumerated() where ch == "N" && (c + 1 >= row.count || row[c + 1] == " ") && (c == 0 || row[c - 1] == " ") {
                    return (c, r)
                }
            }
            return (-1, -1)
        }
        #expect(north(90).0 < g.centerColumn - 10 && north(90).1 == g.centerRow)
        #expect(north(270).0 > g.centerColumn + 10 && north(270).1 == g.centerRow)
        #expect(north(180).1 > g.centerRow + 5 && north(180).0 == g.centerColumn)
        #expect(north(0).1 < g.centerRow - 5 && north(0).0 == g.centerColumn)
    }

    @Test("the lubber mark is at the top centre; nothing else is on the top row")
    func lubber() {
        for (columns, rows) in [(45, 22), (44, 22), (25, 12), (15, 8), (60, 2), (41, 5)] {
            for heading in stride(from: 0.0, to: 360, by: 37) {
                for ascii in [false, true] {
                    let lines = renderRose(heading: heading, columns: columns, rows: rows, options: RoseOptions(asciiOnly: ascii))
                    let g = RoseGeometry(columns: columns, rows: rows)
                    #expect(g.centerColumn == (columns - 1) / 2)
                    let top = cells(lines[0])
                    #expect(top[g.centerColumn] == (ascii ? "v" : "▼"))
                    #expect(top.enumerated().allSatisfy { $0.offset == g.centerColumn || $0.element == " " })
                }
            }
        }
    }

    @Test("the tape puts N at its column and reads the heading at the centre mark")
    func tape() {
        for heading in [0.0, 10, 30, 45, 90, 181, 300, 359.6] {
            for columns in [40, 60, 80] {
                let g = RoseGeometry(columns: columns, rows: 2)
                #expect(g.form == .tape)
                let lines = renderRose(heading: heading, columns: columns, rows: 2)
                let strip = cells(lines[1])
                if let column = g.tapeColumn(bearing: 0, heading: heading) {
                    let expected = Double(g.centerColumn) + (((0 - heading + 540).truncatingRemainder(dividingBy: 360)) - 180) / g.tapeStep
                    #expect(abs(Double(column) - expected) <= 0.5)
                    #expect(strip[column] == "N", "N at \(column) for \(heading) in \(columns): \(lines[1])")
                } else {
                    #expect(lines[1].range(of: "(^|[^A-Z])N([^A-Z]|$)", options: .regularExpression) == nil)
                }
                #expect(cells(lines[0])[g.centerColumn] == "▼")
            }
        }
    }

    @Test("every line has exactly the requested width and there are exactly `rows` lines")
    func exactWidths() {
        var rng = SplitMix64(seed: 20_240_601)
        for _ in 0..<300 {
            let columns = Int(rng.next() % 120)
            let rows = Int(rng.next() % 50)
            let heading = Double(rng.next() % 3_600_000) / 10_000 - 1
            let options = RoseOptions(asciiOnly: rng.next() % 2 == 0, language: rng.next() % 2 == 0 ? .en : .zh)
            let lines = renderRose(heading: heading, columns: columns, rows: rows, options: options)
            #expect(lines.count == rows)
            for line in lines { #expect(displayWidth(line) == columns, "\(columns)×\(rows) at \(heading)") }
        }
    }

    @Test("forms by size: card from 15 × 8, tape on 2–7 rows, line on one")
    func forms() {
        #expect(RoseGeometry(columns: 15, rows: 8).form == .card)
        #expect(RoseGeometry(columns: 14, rows: 8).form == .tape)
        #expect(RoseGeometry(columns: 80, rows: 7).form == .tape)
        #expect(RoseGeometry(columns: 80, rows: 1).form == .line)
        #expect(RoseGeometry(columns: 80, rows: 24).size == 11)
        // The ring is round on screen: its width in columns is about twice its height in rows.
        let g = RoseGeometry(columns: 100, rows: 30)
        let lines = renderRose(heading: 0, columns: 100, rows: 30)
        let ringRows = lines.filter { $0.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) } }.count
        let widest = lines.map { line in
            let c = cells(line)
            let used = c.indices.filter { c[$0] != nil && c[$0] != " " }
            return (used.last ?? 0) - (used.first ?? 0) + 1
        }.max() ?? 0
        #expect(abs(Double(widest) / Double(ringRows) - g.aspect) < 0.25, "\(widest) × \(ringRows)")
    }

    @Test("NaN and infinite headings draw as 0°, never crash")
    func badHeadings() {
        #expect(renderRose(heading: .nan, columns: 45, rows: 22) == renderRose(heading: 0, columns: 45, rows: 22))
        #expect(renderRose(heading: -.infinity, columns: 40, rows: 1) == renderRose(heading: 0, columns: 40, rows: 1))
        #expect(renderRose(heading: 720, columns: 45, rows: 22) == renderRose(heading: 0, columns: 45, rows: 22))
    }
}

@Suite struct RoseMarkerTests {
    /// The destination marker sits at its bearing relative to the heading: dead ahead it is in the
    /// top half on the centre column; astern in the bottom half; on the tape, beside the lubber.
    @Test func markerFollowsItsBearing() {
        let ahead = renderRose(heading: 40, columns: 41, rows: 20, options: RoseOptions(marker: 40))
        let row = ahead.firstIndex { $0.contains("◆") }
        #expect(row != nil && row! < 10)
        #expect(ahead[row!].unicodeScalars.map { $0 }.firstIndex(of: "◆") == 20)
        let astern = renderRose(heading: 40, columns: 41, rows: 20, options: RoseOptions(asciiOnly: true, marker: 220))
        let sternRow = astern.firstIndex { $0.contains("*") }
        #expect(sternRow != nil && sternRow! > 10)
        #expect(renderRose(heading: 40, columns: 41, rows: 20).allSatisfy { !$0.contains("◆") })
        let tape = renderRose(heading: 0, columns: 60, rows: 2, options: RoseOptions(marker: 20))
        let column = tape[0].unicodeScalars.map { $0 }.firstIndex(of: "◆")
        #expect(column != nil && column! > 30)
    }
}
