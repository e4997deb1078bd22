/// Terminal escapes for the tests that put them in paths and environment values and check that none
/// reaches standard output or error.
public enum HostileText {
    /// An OSC sequence that would retitle the terminal, and a CSI that would clear it.
    public static let escape = "\u{1B}]0;owned\u{07}\u{1B}[2J"

    /// The streams, of "stdout" and "stderr", whose text holds an ESC or BEL byte; empty when clean.
    public static func streamsWithControl(stdout: String, stderr: String) -> [String] {
        [("stdout", stdout), ("stderr", stderr)]
            .filter { $0.1.utf8.contains(0x1B) || $0.1.utf8.contains(0x07) }
            .map(\.0)
    }
}
