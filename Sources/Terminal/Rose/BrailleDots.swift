/// A dot grid at braille resolution: each terminal cell holds 2 × 4 dots, which are nearly square on
/// a 2:1 cell, so a ring drawn in dots looks round and smooth.
struct BrailleDots {
    let columns: Int
    let rows: Int
    /// One 8-bit braille pattern per cell.
    private(set) var patterns: [UInt8]

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        patterns = Array(repeating: 0, count: max(0, columns * rows))
    }

    /// Bit for dot (dx, dy) inside a cell: dx 0–1 (left, right), dy 0–3 (top to bottom).
    private static let bits: [UInt8] = [0x01, 0x02, 0x04, 0x40, 0x08, 0x10, 0x20, 0x80]

    /// Sets the dot under a continuous point in cell units.
    @inline(__always)
    mutating func plot(x: Double, y: Double) {
        guard x >= 0, y >= 0 else { return }
        let dx = Int(x * 2)
        let dy = Int(y * 4)
        let cx = dx >> 1
        let cy = dy >> 2
        guard cx < columns, cy < rows else { return }
        patterns[cy * columns + cx] |= Self.bits[(dx & 1) * 4 + (dy & 3)]
    }

    /// Copies the non-empty cells onto a canvas as braille characters (U+2800 + pattern).
    func draw(into canvas: inout Canvas, style: Style = .plain) {
        for cy in 0..<rows {
            for cx in 0..<columns {
                let p = patterns[cy * columns + cx]
                if p != 0, let scalar = Unicode.Scalar(0x2800 + UInt32(p)) {
                    canvas.put(scalar, x: cx, y: cy, style: style)
                }
            }
        }
    }
}
