import Geodesy
import Testing
@testable import Terminal

/// The rose at fixed headings and sizes, compared with reviewed snapshots in Snapshots/.
@Suite("rose snapshots")
struct RoseSnapshotTests {
    static let headings: [Double] = [0, 30, 90, 359.6]
    /// Card (large and small), tape (wide and narrow) and the single line.
    static let sizes: [(columns: Int, rows: Int)] = [(45, 22), (25, 12), (15, 8), (60, 2), (40, 2), (40, 1)]

    static func name(_ heading: Double, _ columns: Int, _ rows: Int, _ suffix: String = "") -> String {
        let h = heading == heading.rounded() ? String(Int(heading)) : String(heading)
        return "rose-\(h)-\(columns)x\(rows)\(suffix)"
    }

    @Test("Unicode rose at 0°, 30°, 90°, 359.6° in six sizes", arguments: headings)
    func unicode(heading: Double) {
        for size in Self.sizes {
            let lines = renderRose(heading: heading, columns: size.columns, rows: size.rows)
            Snapshot.check(lines, Self.name(heading, size.columns, size.rows))
        }
    }

    @Test("ASCII rose", arguments: headings)
    func ascii(heading: Double) {
        for size in [(45, 22), (25, 12), (40, 2)] {
            let lines = renderRose(heading: heading, columns: size.0, rows: size.1, options: RoseOptions(asciiOnly: true))
            #expect(lines.allSatisfy { $0.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }, "pure ASCII")
            Snapshot.check(lines, Self.name(heading, size.0, size.1, "-ascii"))
        }
    }

    @Test("Chinese labels", arguments: [30.0, 359.6])
    func chinese(heading: Double) {
        for size in [(45, 22), (40, 2)] {
            let lines = renderRose(heading: heading, columns: size.0, rows: size.1, options: RoseOptions(language: .zh))
            Snapshot.check(lines, Self.name(heading, size.0, size.1, "-zh"))
        }
    }
}
