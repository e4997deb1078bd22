/// A grid of terminal cells that renderers draw into, then turn into lines of exact display width.
///
/// Each cell holds one scalar; a wide character (北) owns its cell and marks the cell to its right as
/// a continuation. Overwriting half of a wide character blanks the other half, so the grid never
/// holds a broken pair, and a wide character never starts in the last column.
///
/// ```swift
/// var canvas = Canvas(columns: 10, rows: 1, ascii: false)
/// canvas.write("北 N", x: 2, y: 0)
/// canvas.lines(color: false)   // ["  北 N    "]
/// ```
struct Canvas {
    let columns: Int
    let rows: Int
    let glyphs: Glyphs
    /// Scalar value per cell; `continuation` marks the right half of a wide character.
    private(set) var cells: [UInt32]
    private(set) var styles: [Style]
    /// Zero-width scalars (combining marks) attached to a cell; rare, so kept aside.
    private var marks: [Int: [Unicode.Scalar]] = [:]

    static let continuation: UInt32 = 0
    static let space: UInt32 = 0x20

    init(columns: Int, rows: Int, ascii: Bool) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        self.glyphs = Glyphs(ascii: ascii)
        cells = Array(repeating: Self.space, count: self.columns * self.rows)
        styles = Array(repeating: .plain, count: self.columns * self.rows)
    }

    /// The scalar at a cell (nil outside the grid or on the right half of a wide character).
    func scalar(x: Int, y: Int) -> Unicode.Scalar? {
        guard x >= 0, y >= 0, x < columns, y < rows else { return nil }
        let v = cells[y * columns + x]
        return v == Self.continuation ? nil : Unicode.Scalar(v)
    }

    /// Puts one scalar of the given width (1 or 2) at a cell. Out-of-grid puts are ignored.
    mutating func put(_ scalar: Unicode.Scalar, width: Int = 1, x: Int, y: Int, style: Style = .plain) {
        guard y >= 0, y < rows, x >= 0, x < columns else { return }
        let i = y * columns + x
        clearPair(at: i, x: x)
        if width == 2 {
            guard x + 1 < columns else { cells[i] = Self.space; styles[i] = style; return }
            clearPair(at: i + 1, x: x + 1)
            cells[i + 1] = Self.continuation
            styles[i + 1] = style
        }
        cells[i] = scalar.value
        styles[i] = style
    }

    /// Blanks the partner of a wide character that the cell at `i` belongs to.
    private mutating func clearPair(at i: Int, x: Int) {
        if !marks.isEmpty { marks[i] = nil }
        if cells[i] == Self.continuation, x > 0 {
            cells[i - 1] = Self.space
        } else if x + 1 < columns, cells[i + 1] == Self.continuation {
            cells[i + 1] = Self.space
        }
    }

    /// Writes text from (x, y), at most `maxWidth` cells (default: to the right edge). Longer text is
    /// cut and ends in an ellipsis. Returns the cells used. In ASCII mode the text is folded to ASCII.
    @discardableResult
    mutating func write(_ text: String, x: Int, y: Int, maxWidth: Int? = nil, style: Style = .plain) -> Int {
        guard y >= 0, y < rows, x < columns else { return 0 }
        let shown = glyphs.ascii ? asciiFold(text) : text
        var limit = min(maxWidth ?? (columns - x), columns - x)
        var column = x
        if column < 0 { limit += column; column = 0 }   // starts left of the grid: shifted to column 0
        guard limit > 0 else { return 0 }
        let total = displayWidth(shown)
        let room = total <= limit ? limit : limit - 1
        var used = 0
        var lastCell = -1
        for scalar in shown.unicodeScalars {
            let w = cellWidth(of: scalar)
            if w == 0 {
                if lastCell >= 0, scalar.value != 0x1B { marks[lastCell, default: []].append(scalar) }
                continue
            }
            if used + w > room { break }
            put(scalar, width: w, x: column + used, y: y, style: style)
            lastCell = y * columns + column + used
            used += w
        }
        if total > limit {
            let mark = glyphs.ascii ? "~" : "…"
            put(mark.unicodeScalars.first ?? "~", x: column + used, y: y, style: style)
            used += 1
        }
        return used
    }

    /// Fills a rectangle with spaces.
    mutating func clear(x: Int, y: Int, width: Int, height: Int) {
        for row in max(0, y)..<min(rows, y + height) {
            for column in max(0, x)..<min(columns, x + width) { put(" ", x: column, y: row) }
        }
    }

    /// Copies another canvas in with its top-left corner at (x, y), clipped to this grid.
    mutating func draw(_ other: Canvas, x: Int, y: Int) {
        let from = max(0, -x)
        let to = min(other.columns, columns - x)
        guard from < to else { return }
        for row in 0..<other.rows where y + row >= 0 && y + row < rows {
            let target = (y + row) * columns + x
            let source = row * other.columns
            // Blank wide characters cut by either edge, in the target and in the copied run.
            clearPair(at: target + from, x: x + from)
            clearPair(at: target + to - 1, x: x + to - 1)
            cells.replaceSubrange((target + from)..<(target + to), with: other.cells[(source + from)..<(source + to)])
            styles.replaceSubrange((target + from)..<(target + to), with: other.styles[(source + from)..<(source + to)])
            if cells[target + from] == Self.continuation { cells[target + from] = Self.space }
            if to < other.columns, other.cells[source + to] == Self.continuation { cells[target + to - 1] = Self.space }
            if !other.marks.isEmpty {
                for column in from..<to {
                    if let extra = other.marks[source + column] { marks[target + column] = extra }
                }
            }
        }
    }

    /// Each row as a string of exactly `columns` cells. With colour, style changes become SGR
    /// sequences and a styled row ends with a reset.
    func lines(color: Bool) -> [String] {
        var result: [String] = []
        result.reserveCapacity(rows)
        let longestSGR = 10
        for row in 0..<rows {
            var capacity = columns * 4 + (color ? (columns + 1) * longestSGR : 0)
            if !marks.isEmpty { capacity += marks.values.reduce(0) { $0 + $1.count * 4 } }
            result.append(String(unsafeUninitializedCapacity: capacity) { buffer in
                encodeRow(row, color: color, into: buffer)
            })
        }
        return result
    }

    /// Writes one row's UTF-8 (with SGR sequences when `color`) into a buffer large enough for it;
    /// returns the bytes written.
    private func encodeRow(_ row: Int, color: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var out = ByteWriter(buffer: buffer)
        var current = Style.plain
        let start = row * columns
        let hasMarks = !marks.isEmpty
        cells.withUnsafeBufferPointer { cellBuffer in
            styles.withUnsafeBufferPointer { styleBuffer in
                for i in start..<(start + columns) {
                    let v = cellBuffer[i]
                    if v == Self.continuation { continue }
                    if color, styleBuffer[i] != current {
                        current = styleBuffer[i]
                        out.put(current.sgr)
                    }
                    out.put(scalar: v)
                    if hasMarks, let extra = marks[i] {
                        for m in extra { out.put(scalar: m.value) }
                    }
                }
            }
        }
        if color, current != .plain { out.put(Style.plain.sgr) }
        return out.count
    }
}

/// Appends UTF-8 into a buffer the caller has sized.
private struct ByteWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    var count = 0

    @inline(__always) mutating func put(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    mutating func put(_ text: String) {
        for byte in text.utf8 { put(byte) }
    }

    @inline(__always) mutating func put(scalar v: UInt32) {
        switch v {
        case 0..<0x80:
            put(UInt8(v))
        case 0x80..<0x800:
            put(UInt8(0xC0 | (v >> 6))); put(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x10000:
            put(UInt8(0xE0 | (v >> 12))); put(UInt8(0x80 | ((v >> 6) & 0x3F))); put(UInt8(0x80 | (v & 0x3F)))
        default:
            put(UInt8(0xF0 | (v >> 18))); put(UInt8(0x80 | ((v >> 12) & 0x3F)))
            put(UInt8(0x80 | ((v >> 6) & 0x3F))); put(UInt8(0x80 | (v & 0x3F)))
        }
    }
}
