import Glibc
import Synchronization

/// Unbuffered writes to stdout and stderr, so every line reaches a pipe as soon as it is made.
/// The first write that fails is remembered (`failure`): the dispatcher ends the command with exit
/// 74 and a message naming standard output unless it was EPIPE (the reader went away, a normal
/// end). A row cut short by a full disk is taken back off a regular file, so what is left ends
/// with whole rows.
///
/// ```swift
/// let out = StandardOutput()
/// guard out.write("123.4° SE\n") else { return }   // false: the reader went away, or the disk is full
/// ```
public final class StandardOutput: TextOutput, Sendable {
    private let failed = Mutex<Int32?>(nil)

    /// The command's standard output, bound by the dispatcher for the length of a command, so the
    /// failure of any write is seen at the end (`Runtime.system` uses it).
    @TaskLocal public static var current: StandardOutput?

    public init() {}

    /// The errno of the first write that failed, nil while every write succeeded.
    public var failure: Int32? { failed.withLock { $0 } }

    /// Writes the text to stdout in one call (retrying short writes). Returns false when the reader
    /// has gone away (EPIPE) or stdout is broken; every later write then returns false at once.
    @discardableResult
    public func write(_ text: String) -> Bool {
        guard failure == nil else { return false }
        if let e = Self.write(text, fd: STDOUT_FILENO) {
            failed.withLock { if $0 == nil { $0 = e } }
            return false
        }
        return true
    }

    /// Writes to stderr, adding a newline when the text has none.
    public static func error(_ text: String) {
        _ = write(text.hasSuffix("\n") ? text : text + "\n", fd: STDERR_FILENO)
    }

    /// Writes all of `text`; returns the errno of a failure, nil when it all went out. A descriptor
    /// someone made non-blocking is waited for with poll. On a regular file, a row cut short by a
    /// failure is truncated away.
    static func write(_ text: String, fd: Int32) -> Int32? {
        var bytes = Array(text.utf8)
        var offset = 0
        let start = lseek(fd, 0, SEEK_CUR)
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                let e = errno
                if e == EINTR { continue }
                if e == EAGAIN {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 100)
                    continue
                }
                if offset > 0, start >= 0 { cutBack(fd, to: start) }
                return e
            }
            offset += n
        }
        bytes.removeAll()
        return nil
    }

    /// Takes a partly written row back off a regular file.
    private static func cutBack(_ fd: Int32, to length: off_t) {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return }
        _ = ftruncate(fd, length)
    }
}

/// Unbuffered writes to stderr, one call per text: diagnostics for the journal and the user.
public final class StandardError: TextOutput, Sendable {
    public init() {}

    @discardableResult
    public func write(_ text: String) -> Bool { StandardOutput.write(text, fd: STDERR_FILENO) == nil }
}
