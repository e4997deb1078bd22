import Platform

/// The full-screen output discipline for a terminal: the alternate screen with a hidden cursor while
/// active, one write per frame, and a clean restore. On output that is not a terminal it writes
/// plain lines instead and never sends an escape sequence.
///
/// `enter()` and `leave()` are idempotent; `leave()` also runs when the screen is released, so a
/// command can `defer { screen.leave() }` and be restored on q, Ctrl-C, SIGTERM or an error.
///
/// ```swift
/// let screen = Screen(isTerminal: tty.isOutputTerminal)
/// screen.enter()
/// defer { screen.leave() }
/// screen.draw(renderDashboard(state: state, columns: 80, rows: 24), columns: 80, rows: 24)
/// ```
public final class Screen {
    /// True when output goes to a terminal (escape sequences allowed).
    public let isTerminal: Bool
    /// True between `enter()` and `leave()`.
    public private(set) var isActive = false
    private let output: (String) -> Bool

    /// Switches to the alternate screen and hides the cursor.
    public static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
    /// Resets attributes, shows the cursor and returns to the normal screen.
    public static let leaveSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// `output` receives each write (default: stdout) and returns false when the reader went away.
    public init(isTerminal: Bool, output: @escaping (String) -> Bool = { StandardOutput().write($0) }) {
        self.isTerminal = isTerminal
        self.output = output
    }

    deinit { leave() }

    /// Enters full-screen mode (terminal only). Calling it again does nothing.
    public func enter() {
        guard isTerminal, !isActive else { return }
        isActive = true
        _ = output(Self.enterSequence)
    }

    /// Leaves full-screen mode and restores the cursor. Safe to call any number of times.
    public func leave() {
        guard isActive else { return }
        isActive = false
        _ = output(Self.leaveSequence)
    }

    /// Draws a frame in one write (terminal), or writes the lines plainly (not a terminal).
    /// Returns false when the reader has gone away.
    @discardableResult
    public func draw(_ lines: [String], columns: Int, rows: Int) -> Bool {
        guard isTerminal else { return writeLine(lines.joined(separator: "\n")) }
        return output(encodeFrame(lines, columns: columns, rows: rows))
    }

    /// Writes one plain line (for output that is not a terminal). Returns false when the reader
    /// has gone away.
    @discardableResult
    public func writeLine(_ line: String) -> Bool {
        output(line.hasSuffix("\n") ? line : line + "\n")
    }
}

/// One frame as a single string for a terminal: cursor home, each line followed by erase-to-end
/// (`ESC[K`), and erase-below (`ESC[J`) after the last line. Lines are cut to `rows`.
///
/// A line that already fills all `columns` gets no `ESC[K`: the cursor then sits in the last column
/// waiting to wrap, and on xterm-like terminals erase-to-end would wipe that last character. For
/// the same reason erase-below is only sent when there are rows left below the frame.
///
/// ```swift
/// encodeFrame(["ab", "cdef"], columns: 4, rows: 3)   // "\e[Hab\e[K\r\ncdef\r\n\e[J"
/// ```
public func encodeFrame(_ lines: [String], columns: Int, rows: Int) -> String {
    let shown = lines.prefix(max(0, rows))
    var frame = "\u{1B}[H"
    frame.reserveCapacity(shown.reduce(16) { $0 + $1.utf8.count + 6 })
    for (i, line) in shown.enumerated() {
        if i > 0 { frame += "\r\n" }
        frame += line
        if displayWidth(line) < columns { frame += "\u{1B}[K" }
    }
    if shown.count < rows {
        frame += shown.isEmpty ? "\u{1B}[J" : "\r\n\u{1B}[J"
    }
    return frame
}
