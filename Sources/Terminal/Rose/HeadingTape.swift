/// The compact rose: a horizontal strip of bearings that scrolls with the heading, read at the centre.
///
///       ▼
///   |  NW  |  330  |   N   |  30  |
///
/// On a single line the centre shows the heading itself: `|  NW  |  [352°]  |  30  |`.
struct HeadingTape {
    let geometry: RoseGeometry
    let heading: Double
    let options: RoseOptions

    func draw(into canvas: inout Canvas) {
        let g = geometry
        guard g.columns > 0, g.rows > 0 else { return }
        let row = g.centerRow
        var placer = TapePlacer(columns: g.columns)
        if g.form == .line {
            // An empty centre text asks for just the mark (the caller shows the heading itself).
            let readout = options.centerText == "" ? String(canvas.glyphs.lubber) : "[" + centerReadout + "]"
            let width = displayWidth(canvas.glyphs.ascii ? asciiFold(readout) : readout)
            if width <= g.columns {
                placer.place(readout, column: g.centerColumn, row: row, style: .bold, into: &canvas)
            }
        } else {
            canvas.put(canvas.glyphs.lubber, x: g.centerColumn, y: 0, style: .bold)
        }
        let labels = Labels(language: options.language, ascii: options.asciiOnly)
        for (i, name) in labels.cardinals.enumerated() {
            place(name, bearing: Double(i * 90), style: i == 0 ? .alarm : .bold, &placer, &canvas)
        }
        for (i, name) in labels.intercardinals.enumerated() {
            place(name, bearing: Double(45 + i * 90), style: .plain, &placer, &canvas)
        }
        for degree in stride(from: 30, to: 360, by: 30) where degree % 90 != 0 {
            place(String(degree), bearing: Double(degree), style: .dim, &placer, &canvas)
        }
        // Ticks every 10°: a bar on the wide tape (4 columns apart), a light dot on the narrow one.
        let tick: Unicode.Scalar = g.tapeStep <= 2.5 ? "|" : (options.asciiOnly ? "." : "·")
        for ten in 0..<36 {
            guard let column = g.tapeColumn(bearing: Double(ten * 10), heading: heading),
                  placer.isFree(column), placer.isFree(column - 1) || column == 0,
                  placer.isFree(column + 1) || column == g.columns - 1
            else { continue }
            canvas.put(tick, x: column, y: row, style: .dim)
        }
        // A destination's marker on the top row (beside the lubber mark), when the tape has one.
        if let marker = options.marker, marker.isFinite, g.form == .tape,
           let column = g.tapeColumn(bearing: marker, heading: heading), column != g.centerColumn {
            canvas.put(options.asciiOnly ? "*" : "◆", x: column, y: 0, style: .alarm)
        }
    }

    private func place(_ text: String, bearing: Double, style: Style, _ placer: inout TapePlacer,
                       _ canvas: inout Canvas) {
        guard let column = geometry.tapeColumn(bearing: bearing, heading: heading) else { return }
        placer.place(text, column: column, row: geometry.centerRow, style: style, into: &canvas)
    }

    /// The heading in whole degrees, for the single-line form.
    private var centerReadout: String {
        if let text = options.centerText { return text }
        var whole = Int(heading.rounded()) % 360
        if whole < 0 { whole += 360 }
        return String(whole) + (options.asciiOnly ? "" : "°")
    }
}

/// Label placement along one row: labels keep one free cell either side.
struct TapePlacer {
    let columns: Int
    private var taken: [Bool]

    init(columns: Int) {
        self.columns = columns
        taken = Array(repeating: false, count: max(0, columns))
    }

    func isFree(_ column: Int) -> Bool { column >= 0 && column < columns && !taken[column] }

    @discardableResult
    mutating func place(_ text: String, column: Int, row: Int, style: Style, into canvas: inout Canvas) -> Bool {
        let width = displayWidth(canvas.glyphs.ascii ? asciiFold(text) : text)
        let start = column - (width - 1) / 2
        guard width > 0, start >= 0, start + width <= columns else { return false }
        for x in max(0, start - 1)..<min(columns, start + width + 1) where taken[x] { return false }
        for x in start..<(start + width) { taken[x] = true }
        canvas.write(text, x: start, y: row, maxWidth: width, style: style)
        return true
    }
}
