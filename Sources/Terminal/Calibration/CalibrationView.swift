import Platform

/// Everything the live calibration screen shows. Plain values: the wizard fills it from the
/// calibration session, the renderer only draws it.
///
/// ```swift
/// var state = CalibrationViewState(title: "Lodestone calibration: QMC5883L (simulated)")
/// state.bands = session.coverage.countsByBand
/// state.progressPercent = session.progressPercent
/// let lines = renderCalibrationView(state, columns: 100, rows: 32, ascii: false)
/// ```
public struct CalibrationViewState: Sendable, Equatable {
    public var title: String
    public var instructions: String
    /// Samples per coverage region, band by band from +z to −z (see `renderCoverageMap`).
    public var bands: [[Int]]
    /// 0–100; 100 only once the calibration passes.
    public var progressPercent: Int
    /// Readings received, and distinct ones kept.
    public var sampleCount: Int
    public var distinctCount: Int
    public var coveragePercent: Double
    /// MotionCal's gap score (lower is better; 0 when every region holds 3+ samples).
    public var gaps: Double
    /// Figures of the latest fit (nil before the first fit), in %.
    public var spreadPercent: Double?
    public var residualPercent: Double?
    public var wobblePercent: Double?
    /// Fitted and expected field strength, µT.
    public var fieldStrength: Double?
    public var expectedFieldStrength: Double?
    /// The most important reason the calibration does not pass yet (reason and fix).
    public var issue: String?
    /// A sensor problem (not responding, no data…), shown above everything else.
    public var status: String?
    public var keys: String

    public init(title: String = "Lodestone calibration",
                instructions: String = "Hold the board away from metal. Turn it slowly through every orientation: "
                    + "roll it, pitch it, turn it upside down.",
                bands: [[Int]] = [], progressPercent: Int = 0, sampleCount: Int = 0, distinctCount: Int = 0,
                coveragePercent: Double = 0, gaps: Double = 100, spreadPercent: Double? = nil,
                residualPercent: Double? = nil, wobblePercent: Double? = nil, fieldStrength: Double? = nil,
                expectedFieldStrength: Double? = nil, issue: String? = nil, status: String? = nil,
                keys: String = "Enter or s: fit now   q or Esc: cancel   (it stops by itself when done)") {
        self.title = title; self.instructions = instructions; self.bands = bands
        self.progressPercent = progressPercent; self.sampleCount = sampleCount; self.distinctCount = distinctCount
        self.coveragePercent = coveragePercent; self.gaps = gaps; self.spreadPercent = spreadPercent
        self.residualPercent = residualPercent; self.wobblePercent = wobblePercent
        self.fieldStrength = fieldStrength; self.expectedFieldStrength = expectedFieldStrength
        self.issue = issue; self.status = status; self.keys = keys
    }
}

/// The live calibration screen as `rows` lines of at most `columns` characters: title,
/// instructions, the coverage map (when there is room), a progress bar, the metrics, the top
/// issue and the keys. Pure: the same state and size always give the same lines.
public func renderCalibrationView(_ state: CalibrationViewState, columns: Int, rows: Int, ascii: Bool) -> [String] {
    let width = max(20, columns)
    var head: [String] = [state.title]
    if let status = state.status, !status.isEmpty { head.append((ascii ? "! sensor: " : "⚠ sensor: ") + status) }
    head += wrapCalibrationText(state.instructions, width: width)
    var tail: [String] = [""]
    tail.append(progressLine(state.progressPercent, width: width, ascii: ascii))
    tail += metricLines(state, width: width, ascii: ascii)
    if let issue = state.issue, !issue.isEmpty {
        tail.append("")
        tail += Array(wrapCalibrationText((ascii ? "> " : "▶ ") + issue, width: width).prefix(3))
    }
    tail += ["", state.keys]
    // The map takes what is left: a disc of `discRows` rows, plus its title and legend.
    let spare = rows - head.count - tail.count - 3
    let discRows = min(15, spare, (width - 4) / 4)
    var lines = head
    if discRows >= 5 {
        lines.append("")
        lines += renderCoverageMap(bands: state.bands, discRows: discRows, ascii: ascii)
    }
    lines += tail
    if lines.count > rows {
        // Too small for everything: keep the essentials.
        lines = [state.title, progressLine(state.progressPercent, width: width, ascii: ascii)]
            + metricLines(state, width: width, ascii: ascii)
        if let issue = state.issue { lines += wrapCalibrationText(issue, width: width) }
        lines.append(state.keys)
    }
    return Array(lines.prefix(max(0, rows))).map { clip($0, width: columns) }
}

/// "[████████····]": `percent` of `width` cells (10–50) filled; full only at 100.
public func calibrationProgressBar(_ percent: Int, width: Int, ascii: Bool) -> String {
    let p = min(100, max(0, percent))
    let cells = max(10, min(50, width))
    let filled = p * cells / 100
    return "[" + String(repeating: ascii ? "#" : "█", count: filled)
        + String(repeating: ascii ? "-" : "·", count: cells - filled) + "]"
}

/// "progress  57 % [████····]": the number first, so a narrow window still shows it.
private func progressLine(_ percent: Int, width: Int, ascii: Bool) -> String {
    let p = min(100, max(0, percent))
    let label = (p < 10 ? "  " : (p < 100 ? " " : "")) + "\(p) %"
    return "progress " + label + " " + calibrationProgressBar(p, width: width - 18, ascii: ascii)
}

private func metricLines(_ s: CalibrationViewState, width: Int, ascii: Bool) -> [String] {
    let dash = ascii ? "-" : "—"
    func percent(_ v: Double?) -> String { v.map { calibrationNumber($0, decimals: $0 < 10 ? 1 : 0) + " %" } ?? dash }
    let unit = ascii ? "uT" : "µT"
    var first = "samples \(s.sampleCount) (\(s.distinctCount) distinct)   coverage "
        + calibrationNumber(s.coveragePercent, decimals: 0) + " %   gaps " + calibrationNumber(s.gaps, decimals: 1)
    if first.count > width { first = "samples \(s.sampleCount)  coverage " + calibrationNumber(s.coveragePercent, decimals: 0) + " %" }
    var field = "field " + (s.fieldStrength.map { calibrationNumber($0, decimals: 1) + " " + unit } ?? dash)
    if let expected = s.expectedFieldStrength { field += " (expected " + calibrationNumber(expected, decimals: 1) + " " + unit + ")" }
    let second = "spread of |B| " + percent(s.spreadPercent) + "   residual " + percent(s.residualPercent)
        + "   wobble " + percent(s.wobblePercent)
    if (second + "   " + field).count <= width { return [first, second + "   " + field] }
    return [first, second, field]
}

/// Platform's `fixed`, with "-" in place of a value that is not finite.
func calibrationNumber(_ x: Double, decimals: Int) -> String {
    x.isFinite ? fixed(x, decimals) : "-"
}

/// Word-wraps text to `width` characters (words longer than the width are cut).
func wrapCalibrationText(_ text: String, width: Int) -> [String] {
    let w = max(1, width)
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
        var word = String(word)
        while word.count > w {
            if !current.isEmpty { lines.append(current); current = "" }
            lines.append(String(word.prefix(w)))
            word = String(word.dropFirst(w))
        }
        if current.isEmpty {
            current = word
        } else if current.count + 1 + word.count <= w {
            current += " " + word
        } else {
            lines.append(current)
            current = word
        }
    }
    if !current.isEmpty { lines.append(current) }
    return lines.isEmpty ? [""] : lines
}

private func clip(_ line: String, width: Int) -> String {
    line.count <= max(0, width) ? line : String(line.prefix(max(0, width)))
}
