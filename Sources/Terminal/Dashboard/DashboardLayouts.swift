/// The three dashboard arrangements. Each fills the whole canvas; the status line is the last row.

/// Rose on the left (filling the height), panels on the right; reports under the rose when the
/// rose leaves room there. 100 × 32, 80 × 24, 60 × 22.
func drawSideBySide(_ p: Panels, into canvas: inout Canvas) {
    let columns = canvas.columns
    let body = canvas.rows - 1
    let k = max(3, (body - 2) / 2)
    let idealRose = 4 * k + 3
    let panelWidth = min(50, max(columns >= 90 ? 38 : 30, columns - idealRose - 1))
    let roseWidth = columns - panelWidth - 1
    let options = roseOptions(p)
    let geometry = RoseGeometry(columns: roseWidth, rows: body, options: options)
    let roseRows = geometry.form == .card ? 2 * geometry.size + 2 : min(body, 2)
    var rose = Canvas(columns: roseWidth, rows: roseRows, ascii: p.state.asciiOnly)
    drawRose(heading: p.state.shownHeading?.degrees ?? 0, into: &rose, options: options)
    canvas.draw(rose, x: 0, y: 0)

    let below = body - roseRows - 1
    let reportsUnderRose = below >= 3
    if reportsUnderRose {
        for (i, line) in p.reportLines(rows: below).enumerated() {
            canvas.write(line, x: 1, y: roseRows + 1 + i, width: roseWidth - 1)
        }
    }
    var sections = [headingSection(p, big: body >= 28 && panelWidth >= 34)]
    sections += panelSections(p)
    drawColumn(sections, p, x: roseWidth + 1, y: 0, width: panelWidth, rows: body,
               reports: !reportsUnderRose, into: &canvas)
    canvas.write(p.statusLine(width: columns), x: 0, y: canvas.rows - 1, width: columns)
}

/// Headline, heading tape, panels, status line. 40 × 15 and other small terminals.
func drawStacked(_ p: Panels, into canvas: inout Canvas) {
    let columns = canvas.columns
    let rows = canvas.rows
    if rows == 2 {
        drawSingleLine(p, into: &canvas)
        canvas.write(p.statusLine(width: columns), x: 0, y: 1, width: columns)
        return
    }
    var headline = p.headline
    if let second = p.secondaryLine { headline.append(Segment("  ")); headline += second }
    canvas.write(headline, x: 0, y: 0, width: columns)
    var top = 1
    let tapeRows = rows >= 10 ? 2 : 1
    var tape = Canvas(columns: columns, rows: tapeRows, ascii: p.state.asciiOnly)
    var options = roseOptions(p)
    if tapeRows == 1 { options.centerText = "" }
    drawRose(heading: p.state.shownHeading?.degrees ?? 0, into: &tape, options: options)
    canvas.draw(tape, x: 0, y: top)
    top += tapeRows
    let body = rows - 1 - top
    if body > 0 {
        drawColumn(panelSections(p), p, x: 0, y: top, width: columns, rows: body, reports: true, into: &canvas)
    }
    canvas.write(p.statusLine(width: columns), x: 0, y: rows - 1, width: columns)
}

/// One row: the headline, then a one-line heading tape in what is left.
func drawSingleLine(_ p: Panels, into canvas: inout Canvas) {
    let used = displayWidth(p.headline.map(\.text).joined())
    canvas.write(p.headline, x: 0, y: 0, width: canvas.columns)
    let room = canvas.columns - used - 2
    guard room >= 20 else { return }
    var tape = Canvas(columns: room, rows: 1, ascii: p.state.asciiOnly)
    var options = roseOptions(p)
    options.centerText = ""
    drawRose(heading: p.state.shownHeading?.degrees ?? 0, into: &tape, options: options)
    canvas.draw(tape, x: used + 2, y: 0)
}

private func roseOptions(_ p: Panels) -> RoseOptions {
    RoseOptions(asciiOnly: p.state.asciiOnly, language: p.state.language,
                centerText: p.state.shownHeading == nil ? "--" : nil, marker: p.state.targetBearing)
}

// MARK: Sections

/// A group of panel lines, with a shorter form for tight spaces. When space is short the sections
/// with the highest `squeeze` take their compact form first, then the highest `drop` is left out.
struct Section {
    var lines: [PanelLine]
    var compact: [PanelLine]
    var drop: Int
    var squeeze: Int

    init(lines: [PanelLine], compact: [PanelLine]? = nil, drop: Int, squeeze: Int = 0) {
        self.lines = lines
        self.compact = compact ?? lines
        self.drop = drop
        self.squeeze = squeeze
    }
}

/// Two panel lines on one.
func joined(_ a: PanelLine, _ b: PanelLine) -> PanelLine { a + [Segment("  ")] + b }

/// The heading panel: big digits on tall terminals, else a headline.
func headingSection(_ p: Panels, big: Bool) -> Section {
    var lines: [PanelLine] = []
    if big {
        let text = NumberFormat.paddedHeading(p.state.shownHeading?.degrees ?? .nan) + "°"
        let digits = BigDigits.rows(p.state.shownHeading == nil ? "---.-°" : text, ascii: p.state.asciiOnly)
        let reference = p.state.shownHeading?.reference ?? .magnetic
        let word = reference == .magnetic ? p.labels.magneticWord : p.labels.trueWord
        // The value also in plain text, for copying and for screen readers.
        lines.append([Segment(digits[0], .bold), Segment("  "), Segment(word + " "),
                      Segment(p.primaryText.drop { $0 == " " }.description, .bold)])
        let name = p.nameLine
        lines.append([Segment(digits[1], .bold), Segment("  ")] + (name.first.map { [$0] } ?? []))
        lines.append([Segment(digits[2], .bold), Segment("  ")] + Array(name.dropFirst()).map {
            Segment(String($0.text.drop { $0 == " " }), $0.style)
        })
    } else {
        lines.append([Segment(p.primaryText, .bold)])
        lines.append(p.nameLine)
    }
    if let second = p.secondaryLine { lines.append(second) }
    return Section(lines: lines, drop: 0)
}

/// The panels below the heading, in display order.
func panelSections(_ p: Panels) -> [Section] {
    var field = [p.fieldLine]
    if let tilt = p.tiltLine { field.append(tilt) }
    if let rate = p.rateLine { field.append(rate) }
    let gnss = p.gnssLines
    let sensor = p.sensorLines
    return [
        Section(lines: [p.accuracyLine, p.disturbanceLine], compact: [joined(p.accuracyLine, p.disturbanceLine)], drop: 1,
                squeeze: 4),
        Section(lines: [p.declinationLine] + field, compact: [p.declinationLine, field.dropFirst().reduce(field[0], joined)],
                drop: 3, squeeze: 2),
        Section(lines: gnss, compact: gnss.count == 4 ? [gnss[0], gnss[1], joined(gnss[2], gnss[3])] : gnss,
                drop: 2, squeeze: 1),
        Section(lines: sensor, compact: [sensor.dropFirst().reduce(sensor[0], joined)], drop: 4, squeeze: 3),
    ]
}

/// Fills a column with sections (blank line between them when there is room) and, when `reports`,
/// the newest movement reports in the rows left over.
func drawColumn(_ all: [Section], _ p: Panels, x: Int, y: Int, width: Int, rows: Int, reports: Bool,
                into canvas: inout Canvas) {
    guard width > 0, rows > 0 else { return }
    var sections = all
    var gaps = true
    var reportRows = reports ? 3 : 0
    func needed() -> Int {
        let lines = sections.reduce(0) { $0 + $1.lines.count }
        return lines + (gaps ? max(0, sections.count - 1) : 0) + (reportRows > 0 && gaps ? 1 : 0) + reportRows
    }
    // Make room: blank lines first, then compact forms (by `squeeze`), then fewer report
    // lines, then whole sections (least important first).
    while needed() > rows {
        if gaps { gaps = false; continue }
        if let i = sections.indices.filter({ sections[$0].lines.count > sections[$0].compact.count })
            .max(by: { sections[$0].squeeze < sections[$1].squeeze }) {
            sections[i].lines = sections[i].compact
            continue
        }
        if reportRows > 0 { reportRows = reportRows == 3 ? 2 : 0; continue }
        guard let worst = sections.indices.max(by: { sections[$0].drop < sections[$1].drop }),
              sections[worst].drop > 0 else { break }
        sections.remove(at: worst)
    }
    var row = y
    let end = y + rows
    for (i, section) in sections.enumerated() {
        if i > 0 && gaps { row += 1 }
        for line in section.lines where row < end {
            canvas.write(line, x: x, y: row, width: width)
            row += 1
        }
    }
    guard reportRows > 0 else { return }
    if gaps && !sections.isEmpty { row += 1 }
    for line in p.reportLines(rows: end - row) {
        canvas.write(line, x: x, y: row, width: width)
        row += 1
    }
}
