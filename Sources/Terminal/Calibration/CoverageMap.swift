#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calibration coverage map: the sphere of field directions, as seen from the board, drawn as
/// two discs: the **upper** hemisphere (the field comes out of the board's top, −z) and the
/// **lower** one (out of its bottom, +z). Both are seen from above the board: the front (+x) is up,
/// the right side (+y) is to the right, and the pole is in the middle.
///
/// `bands` holds the sample count of every region, band by band from the band around +z to the
/// band around −z (the layout of Calibration's `SphereCoverage`: region `i` of a band of `n` spans
/// longitudes atan2(y, x) from `i·360°/n` to `(i+1)·360°/n`). The discs use an equal-area
/// projection, so every region gets about the same number of character cells. A cell shows
/// `·` for an empty region, `░` for one sample and `▓` for two or more (ASCII: `.`, `+`, `#`).
///
/// ```swift
/// let lines = renderCoverageMap(bands: coverage.countsByBand, discRows: 11, ascii: false)
/// ```
public func renderCoverageMap(bands: [[Int]], discRows: Int, ascii: Bool, labels: Bool = true) -> [String] {
    let rows = max(3, discRows)
    let columns = 2 * rows
    let (lowerBands, upperBands) = splitHemispheres(bands)
    let upper = renderDisc(upperBands, rows: rows, columns: columns, ascii: ascii)
    let lower = renderDisc(lowerBands, rows: rows, columns: columns, ascii: ascii)
    let gap = "    "
    let upperTitle = ascii ? "upper: field out of the top (-z)" : "upper: field out of the top (−z)"
    let lowerTitle = "lower: field out of the bottom (+z)"
    let panel = max(columns, labels ? max(upperTitle.count, lowerTitle.count) : 0)
    var lines: [String] = []
    if labels { lines.append(centred(upperTitle, panel) + gap + centred(lowerTitle, panel)) }
    for i in 0..<rows { lines.append(centred(upper[i], panel) + gap + centred(lower[i], panel)) }
    if labels {
        let legend = ascii ? ". empty  + 1 sample  # 2 or more      front ^  right >"
                           : "· empty  ░ 1 sample  ▓ 2 or more      front ↑  right →"
        lines.append(legend)
    }
    return lines.map(trimmedRight)
}

/// The lower (around +z) and upper (around −z) halves of the bands; the upper half is reversed so
/// that its pole band comes first.
private func splitHemispheres(_ bands: [[Int]]) -> (lower: [[Int]], upper: [[Int]]) {
    let total = bands.reduce(0) { $0 + $1.count }
    var lower: [[Int]] = [], running = 0, index = 0
    while index < bands.count, 2 * (running + bands[index].count) <= total {
        running += bands[index].count
        lower.append(bands[index])
        index += 1
    }
    if lower.isEmpty, !bands.isEmpty { lower = [bands[0]]; index = 1 }
    return (lower, Array(bands[index...].reversed()))
}

/// One hemisphere: the pole band in the middle, the others in rings of equal area outwards.
private func renderDisc(_ bands: [[Int]], rows: Int, columns: Int, ascii: Bool) -> [String] {
    let regionCount = bands.reduce(0) { $0 + $1.count }
    var edges: [Int] = [], sum = 0
    for band in bands { sum += band.count; edges.append(sum) }
    let halfRows = Double(rows) / 2, halfColumns = Double(columns) / 2
    var out: [String] = []
    for i in 0..<rows {
        var line = ""
        for j in 0..<columns {
            let y = (Double(i) + 0.5 - halfRows) / halfRows
            let x = (Double(j) + 0.5 - halfColumns) / halfColumns
            let r2 = x * x + y * y
            guard r2 <= 1, regionCount > 0 else { line += " "; continue }
            // Equal area: the share of the hemisphere inside radius ρ is ρ².
            let position = r2 * Double(regionCount)
            let band = edges.firstIndex { Double($0) > position } ?? (bands.count - 1)
            let cells = bands[band]
            guard !cells.isEmpty else { line += " "; continue }
            // Screen up is the body's +x (front), screen right its +y (right side).
            var longitude = atan2(x, -y)
            if longitude < 0 { longitude += 2 * Double.pi }
            let cell = min(cells.count - 1, Int(longitude / (2 * Double.pi) * Double(cells.count)))
            line += glyph(for: cells[cell], ascii: ascii)
        }
        out.append(line)
    }
    return out
}

private func glyph(for count: Int, ascii: Bool) -> String {
    switch count {
    case ..<1: return ascii ? "." : "·"
    case 1: return ascii ? "+" : "░"
    default: return ascii ? "#" : "▓"
    }
}

private func centred(_ text: String, _ width: Int) -> String {
    let n = text.count
    guard n < width else { return text }
    let left = (width - n) / 2
    return String(repeating: " ", count: left) + text + String(repeating: " ", count: width - n - left)
}

private func trimmedRight(_ s: String) -> String {
    var t = Substring(s)
    while t.last == " " { t.removeLast() }
    return String(t)
}
