import Glibc

/// What one non-blocking send or write did.
public enum SendOutcome: Equatable, Sendable {
    /// This many bytes went out (possibly fewer than given).
    case sent(Int)
    /// The consumer's buffers are full: try again later.
    case wouldBlock
    /// The consumer is gone or the write failed (errno: EPIPE, ENOSPC, EIO, EFBIG, …).
    case failed(Int32)
}

/// Somewhere bytes go without waiting: standard output, a file, a FIFO, a test's scripted consumer.
/// `send` never blocks; it takes what it can now.
///
/// ```swift
/// let out: any ByteChannel = DescriptorChannel(fd: STDOUT_FILENO, name: "standard output")
/// if case .sent(let n) = out.send(bytes[...]) { bytes.removeFirst(n) }
/// ```
public protocol ByteChannel: AnyObject {
    /// What it is, for messages: "standard output", "/var/log/heading.jsonl".
    var name: String { get }
    /// Sends what it can of `bytes` without waiting.
    func send(_ bytes: ArraySlice<UInt8>) -> SendOutcome
    /// Waits up to `seconds` until the channel can take more (for the last rows at the end); false
    /// when it still cannot.
    func waitWritable(seconds: Double) -> Bool
    /// Takes the last `count` bytes sent back off, where the channel can (a regular file: a
    /// message cut short by a failed write); elsewhere nothing.
    func takeBack(_ count: Int)
}

extension ByteChannel {
    public func takeBack(_ count: Int) {}
}

/// A file descriptor written without ever blocking the caller. A pipe, FIFO or terminal is reopened
/// through /proc/self/fd with O_NONBLOCK, which gives this process its own open file description:
/// setting O_NONBLOCK on a shared descriptor would also change it for the shell and every other
/// process holding it. A socket is sent to with MSG_DONTWAIT. A regular file never blocks for
/// long; a write that fails (ENOSPC, EIO, EFBIG) is reported as such. Where reopening fails the
/// write is made only when poll says the descriptor takes at least a pipe buffer's worth.
///
/// ```swift
/// let out = DescriptorChannel(fd: STDOUT_FILENO, name: "standard output")
/// _ = out.send(Array("123.4\n".utf8)[...])
/// ```
public final class DescriptorChannel: ByteChannel {
    public let name: String
    let fd: Int32
    private let owned: Bool
    private let kind: Kind

    enum Kind { case nonBlocking, socket, file, polled }

    /// `fd` stays open and owned by the caller; a reopened copy is closed on deinit.
    public init(fd: Int32, name: String) {
        self.name = name
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            self.fd = fd; owned = false; kind = .polled
            return
        }
        let type = st.st_mode & S_IFMT
        if type == S_IFREG || type == S_IFBLK || (type == S_IFCHR && Self.isNullOrFull(st)) {
            self.fd = fd; owned = false; kind = .file
        } else if type == S_IFSOCK {
            self.fd = fd; owned = false; kind = .socket
        } else {
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0, flags & O_NONBLOCK != 0 {
                self.fd = fd; owned = false; kind = .nonBlocking
                return
            }
            let copy = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            if copy >= 0 {
                self.fd = copy; owned = true; kind = .nonBlocking
            } else {
                self.fd = fd; owned = false; kind = .polled
            }
        }
    }

    /// An already non-blocking descriptor this channel owns (closed on deinit): a FIFO or file it opened.
    public init(owning fd: Int32, name: String) {
        self.name = name
        self.fd = fd
        owned = true
        var st = stat()
        kind = fstat(fd, &st) == 0 && st.st_mode & S_IFMT == S_IFREG ? .file : .nonBlocking
    }

    deinit { if owned { close(fd) } }

    /// True for a regular file (or /dev/null, /dev/full, a block device): writes never wait for a reader.
    public var isFile: Bool { kind == .file }

    /// On a regular file, cuts the last `count` bytes written off its end.
    public func takeBack(_ count: Int) {
        var st = stat()
        guard count > 0, kind == .file, fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size >= count else { return }
        _ = ftruncate(fd, st.st_size - off_t(count))
    }

    /// /dev/null and /dev/full: character devices that never block (major 1, minors 3 and 7).
    private static func isNullOrFull(_ st: stat) -> Bool {
        let rdev = UInt64(st.st_rdev)
        let major = (rdev >> 8) & 0xfff, minor = (rdev & 0xff) | ((rdev >> 12) & 0xfff00)
        return major == 1 && (minor == 3 || minor == 7 || minor == 5)
    }

    public func send(_ bytes: ArraySlice<UInt8>) -> SendOutcome {
        guard !bytes.isEmpty else { return .sent(0) }
        var count = bytes.count
        if kind == .polled {
            guard waitWritable(seconds: 0) else { return .wouldBlock }
            count = min(count, Int(PIPE_BUF))
        }
        while true {
            let n = bytes.withUnsafeBytes { raw -> Int in
                if kind == .socket {
                    return Glibc.send(fd, raw.baseAddress, count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                return Glibc.write(fd, raw.baseAddress, count)
            }
            if n >= 0 { return .sent(n) }
            let e = errno
            if e == EINTR { continue }
            return e == EAGAIN || e == EWOULDBLOCK ? .wouldBlock : .failed(e)
        }
    }

    public func waitWritable(seconds: Double) -> Bool {
        if kind == .file { return true }
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ms = Int32(max(0, min(seconds, 10)) * 1000)
        while true {
            let r = poll(&p, 1, ms)
            if r < 0 && errno == EINTR { continue }
            return r > 0 && p.revents & Int16(POLLOUT) != 0 || p.revents & Int16(POLLERR | POLLHUP) != 0
        }
    }
}

/// A `ByteChannel` over a `TextOutput` that takes everything (a test's captured output): a write
/// that fails is a reader gone away (EPIPE).
public final class TextOutputChannel: ByteChannel {
    public let name: String
    let output: any TextOutput

    public init(_ output: any TextOutput, name: String = "standard output") {
        self.output = output
        self.name = name
    }

    public func send(_ bytes: ArraySlice<UInt8>) -> SendOutcome {
        output.write(String(decoding: bytes, as: UTF8.self)) ? .sent(bytes.count) : .failed(EPIPE)
    }

    public func waitWritable(seconds: Double) -> Bool { true }
}
