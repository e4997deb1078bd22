import Platform

/// Renders the whole dashboard for a terminal of `columns` × `rows`: the rose (card, tape or line,
/// whichever fits) beside or above the panels, and a status line with the keys. Returns exactly
/// `rows` lines, each exactly `columns` display cells wide (colour escapes, when enabled, take no
/// cells). Every string in the state is passed through `sanitize` first. Pure.
///
/// Layouts: side by side from 56 × 12 (100 × 32, 80 × 24, 60 × 22), stacked with a heading tape
/// below that (40 × 15), and a single line on a one-row terminal. Sizes above 1000 × 500 are
/// clamped to that.
///
/// ```swift
/// var state = DashboardState()
/// state.magneticHeading = 123.4
/// for line in renderDashboard(state: state, columns: 80, rows: 24) { print(line) }
/// ```
public func renderDashboard(state: DashboardState, columns: Int, rows: Int) -> [String] {
    let cols = max(0, min(columns, 1000))
    let height = max(0, min(rows, 500))
    var canvas = Canvas(columns: cols, rows: height, ascii: state.asciiOnly)
    guard cols > 0, height > 0 else { return Array(repeating: "", count: height) }
    let clean = state.sanitizedForDisplay()
    let panels = Panels(state: clean)
    switch DashboardLayout(columns: cols, rows: height) {
    case .line: drawSingleLine(panels, into: &canvas)
    case .stacked: drawStacked(panels, into: &canvas)
    case .sideBySide: drawSideBySide(panels, into: &canvas)
    }
    if clean.helpVisible { HelpOverlay(labels: panels.labels).draw(into: &canvas) }
    return canvas.lines(color: clean.colorEnabled)
}

/// A one-line summary for output that is not a terminal (one line per update, no escapes):
/// "123.4°M SE  ±2.5°  disturbed: …". Sanitised, never padded.
///
/// ```swift
/// screen.writeLine(renderPlainLine(state: state))   // "123.4°M  SE  S 56.6° E  ±2.5°"
/// ```
public func renderPlainLine(state: DashboardState) -> String {
    let panels = Panels(state: state.sanitizedForDisplay())
    var parts = [panels.headline.map(\.text).joined()]
    if let a = state.accuracy, a.isFinite { parts.append(panels.glyphs.plusMinus + fixed(a, 1) + panels.glyphs.degree) }
    if state.disturbance.level != .none { parts.append(panels.disturbanceLine.map(\.text).joined()) }
    let line = parts.joined(separator: "  ")
    return state.asciiOnly ? asciiFold(line) : line
}

/// Which arrangement a terminal size gets.
enum DashboardLayout {
    case line, stacked, sideBySide

    init(columns: Int, rows: Int) {
        if rows <= 1 { self = .line } else if columns >= 56 && rows >= 12 { self = .sideBySide } else { self = .stacked }
    }
}

extension DashboardState {
    /// The state with every caller-provided string passed through `sanitize` (and only the newest
    /// 100 report lines kept).
    func sanitizedForDisplay() -> DashboardState {
        var s = self
        s.pointName = clean(pointName)
        s.quadrant = clean(quadrant)
        s.disturbance.text = clean(disturbance.text)
        s.declinationSource = clean(declinationSource)
        s.sensor.chip = clean(sensor.chip)
        s.sensor.status = clean(sensor.status)
        s.notice = clean(notice)
        if var g = gnss {
            g.fixMode = clean(g.fixMode)
            g.connection = clean(g.connection)
            s.gnss = g
        }
        s.reports = reports.suffix(100).map(clean)
        return s
    }
}

/// `sanitize(text)`, skipping the copy when a byte scan proves there is nothing to remove: no C0
/// control or DEL byte, no C1 control (UTF-8 C2 80–9F) and no lead byte E2 (where the bidirectional
/// overrides live; strings with it are always sanitised).
func clean(_ text: String) -> String {
    var previous: UInt8 = 0
    for byte in text.utf8 {
        if byte < 0x20 || byte == 0x7F || byte == 0xE2 || (previous == 0xC2 && byte < 0xA0) {
            return sanitize(text)
        }
        previous = byte
    }
    return text
}

extension Canvas {
    /// Writes a panel line from (x, y) within `width` cells; the part that does not fit is cut
    /// with an ellipsis.
    mutating func write(_ line: PanelLine, x: Int, y: Int, width: Int) {
        var used = 0
        for segment in line {
            let room = width - used
            guard room > 0 else { return }
            let w = displayWidth(glyphs.ascii ? asciiFold(segment.text) : segment.text)
            used += write(segment.text, x: x + used, y: y, maxWidth: room, style: segment.style)
            if w > room { return }
        }
    }
}
