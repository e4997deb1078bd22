import Glibc

/// Unbuffered writes to stdout and stderr, so every line reaches a pipe as soon as it is made.
///
/// ```swift
/// let out = StandardOutput()
/// guard out.write("123.4° SE\n") else { return }   // false: the reader went away
/// ```
public final class StandardOutput: TextOutput, Sendable {
    public init() {}

    /// Writes the text to stdout in one call (retrying short writes). Returns false when the reader
    /// has gone away (EPIPE) or stdout is broken.
    @discardableResult
    public func write(_ text: String) -> Bool { Self.write(text, fd: STDOUT_FILENO) }

    /// Writes to stderr, adding a newline when the text has none.
    public static func error(_ text: String) {
        _ = write(text.hasSuffix("\n") ? text : text + "\n", fd: STDERR_FILENO)
    }

    static func write(_ text: String, fd: Int32) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            offset += n
        }
        bytes.removeAll()
        return true
    }
}

/// Unbuffered writes to stderr, one call per text: diagnostics for the journal and the user.
public final class StandardError: TextOutput, Sendable {
    public init() {}

    @discardableResult
    public func write(_ text: String) -> Bool { StandardOutput.write(text, fd: STDERR_FILENO) }
}
