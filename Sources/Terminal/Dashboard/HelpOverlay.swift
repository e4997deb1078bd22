/// The key help, drawn as a framed box in the middle of the dashboard.
struct HelpOverlay {
    let labels: Labels

    func draw(into canvas: inout Canvas) {
        let rows = labels.helpRows.map { "\($0.0)  \($0.1)" }
        let inner = max(rows.map { displayWidth($0) }.max() ?? 0, displayWidth(labels.keysTitle) + 2)
        let width = inner + 4
        let height = rows.count + 2
        guard width <= canvas.columns, height <= canvas.rows else { return }
        let x = (canvas.columns - width) / 2
        let y = (canvas.rows - height) / 2
        let ascii = canvas.glyphs.ascii
        let (h, v) = ascii ? ("-", "|") : ("─", "│")
        let corners = ascii ? ["+", "+", "+", "+"] : ["┌", "┐", "└", "┘"]
        canvas.clear(x: x, y: y, width: width, height: height)
        let rule = String(repeating: h, count: width - 2)
        canvas.write(corners[0] + rule + corners[1], x: x, y: y)
        canvas.write(" " + labels.keysTitle + " ", x: x + 2, y: y, style: .bold)
        for (i, text) in rows.enumerated() {
            canvas.write(v, x: x, y: y + 1 + i)
            canvas.write(text, x: x + 2, y: y + 1 + i, maxWidth: inner)
            canvas.write(v, x: x + width - 1, y: y + 1 + i)
        }
        canvas.write(corners[2] + rule + corners[3], x: x, y: y + height - 1)
    }
}
