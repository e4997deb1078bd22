import Glibc

/// The controlling terminal: whether stdout/stdin are TTYs, their size, and raw key input.
///
/// ```swift
/// let tty = TerminalDevice()
/// if tty.isOutputTerminal { let (cols, rows) = tty.size() ?? (80, 24) }
/// ```
public final class TerminalDevice: KeyboardTerminal {
    private var savedMode: termios?

    public init() {}

    deinit { restoreInputMode() }

    /// True when standard output is a terminal.
    public var isOutputTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// True when standard input is a terminal.
    public var isInputTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Columns and rows of the terminal on stdout, or nil when unknown.
    public func size() -> (columns: Int, rows: Int)? {
        var ws = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return nil }
        return (Int(ws.ws_col), Int(ws.ws_row))
    }

    /// Puts stdin in non-canonical, no-echo mode so single keys can be read. Signals (Ctrl-C) still work.
    public func enableKeyInput() {
        guard isInputTerminal, savedMode == nil else { return }
        var mode = termios()
        guard tcgetattr(STDIN_FILENO, &mode) == 0 else { return }
        savedMode = mode
        mode.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &mode.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &mode)
    }

    /// Restores the input mode saved by `enableKeyInput`.
    public func restoreInputMode() {
        guard var mode = savedMode else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &mode)
        savedMode = nil
    }

    /// Reads the keys waiting on stdin without blocking.
    public func readKeys() -> [UInt8] {
        guard savedMode != nil else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        return n > 0 ? Array(buffer[0..<n]) : []
    }
}
