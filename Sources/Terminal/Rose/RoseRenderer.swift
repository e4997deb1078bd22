import Linear

/// Draws the compass rose for a heading into `columns` × `rows` cells: a heading-up card when there
/// is room (at least 15 × 8), a scrolling heading tape on 2–7 rows, a single line on one row.
/// Every returned line is exactly `columns` display cells wide; there are exactly `rows` lines.
/// Pure: the same input always gives the same lines.
///
/// ```swift
/// let lines = renderRose(heading: 30, columns: 41, rows: 20)
/// lines[0]   // "                    ▼                    " (the lubber mark, top centre)
/// let tape = renderRose(heading: 30, columns: 40, rows: 2, options: RoseOptions(asciiOnly: true))
/// ```
public func renderRose(heading: Double, columns: Int, rows: Int, options: RoseOptions = RoseOptions()) -> [String] {
    var canvas = Canvas(columns: columns, rows: rows, ascii: options.asciiOnly)
    drawRose(heading: heading, into: &canvas, options: options)
    return canvas.lines(color: false)
}

/// Draws the rose into a canvas of its own size (for the dashboard, which composes canvases).
func drawRose(heading: Double, into canvas: inout Canvas, options: RoseOptions) {
    let geometry = RoseGeometry(columns: canvas.columns, rows: canvas.rows, options: options)
    let h = normalizedHeading(heading)
    switch geometry.form {
    case .card: RoseCard(geometry: geometry, heading: h, options: options).draw(into: &canvas)
    case .tape, .line: HeadingTape(geometry: geometry, heading: h, options: options).draw(into: &canvas)
    }
}

/// A heading in [0, 360); anything not finite becomes 0 (the rose never draws NaN).
func normalizedHeading(_ heading: Double) -> Double { wrap360(heading) }
