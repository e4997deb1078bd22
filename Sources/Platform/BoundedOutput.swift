import Glibc

/// One consumer of whole messages (lines, rows, JSON objects) that never holds the live loop: each
/// message goes into a bounded queue whole or, when the queue is full, is lost and counted; the
/// queue goes out as the channel takes it. A write that fails for good ends it: EPIPE (the reader
/// went away, `| head -1`) is a normal end, anything else (ENOSPC, EIO, EFBIG) a failure to report
/// (`failure`), exit 74.
///
/// ```swift
/// let out = BoundedOutput(DescriptorChannel(fd: STDOUT_FILENO, name: "standard output"))
/// out.write("123.4° SE\n")      // queued or counted as lost; never waits
/// out.flush()                   // each turn of the loop
/// out.finish(waiting: 0.5)      // at the end: the queued rows, whole, within half a second
/// ```
public final class BoundedOutput: TextOutput {
    public let channel: any ByteChannel
    /// The bytes waiting. This, the two counts and `failure` are not checked for exclusivity at run time (as
    /// `HeadingPipeline`'s stage; `serve` writes a line an update): private to set, the output is
    /// not Sendable, and every access is over at once, never across a call out (the channel's
    /// `send` gets the front's slice after the read of it ended).
    @exclusivity(unchecked) private var queue: ByteQueue
    /// Messages lost because the consumer did not keep up (the queue was full).
    @exclusivity(unchecked) public private(set) var dropped = 0
    /// Messages taken.
    @exclusivity(unchecked) public private(set) var accepted = 0
    /// Why the channel failed for good (errno), nil while it works.
    @exclusivity(unchecked) public private(set) var failure: Int32?

    /// The default bound: 64 KiB, a few seconds of any update stream.
    public static let defaultLimit = 64 * 1024

    /// True when messages wait in the queue for the next `flush` (the loop's turn) instead of going
    /// out one write each: for a regular file, which nobody waits on line by line; a pipe's or a
    /// socket's reader gets each message as it comes.
    public let coalesces: Bool

    public init(_ channel: any ByteChannel, limit: Int = BoundedOutput.defaultLimit, coalescing: Bool = false) {
        self.channel = channel
        queue = ByteQueue(limit: limit)
        coalesces = coalescing
    }

    /// What it writes to, for messages.
    public var name: String { channel.name }
    /// True once the reader went away (EPIPE): a quiet end.
    public var readerGone: Bool { failure == EPIPE }
    /// True once writing failed for a reason other than the reader going away.
    public var failed: Bool { failure != nil && failure != EPIPE }
    /// Bytes waiting.
    public var queuedBytes: Int { queue.count }
    /// The bytes waiting, front first.
    public var queued: ArraySlice<UInt8> { queue.front }

    /// Queues the whole text (or counts it lost) and sends what goes now. False once the channel has
    /// failed for good (a lost message is not a failure).
    @discardableResult
    public func write(_ text: String) -> Bool { write(bytes: Array(text.utf8)) }

    /// Queues the whole message (bytes; or counts it lost) and sends what goes now (coalescing: at
    /// the next `flush`). False once the channel has failed for good.
    @discardableResult
    public func write(bytes: [UInt8]) -> Bool {
        guard failure == nil else { dropped += 1; return false }
        if queue.push(bytes) { accepted += 1 } else { dropped += 1 }
        // Coalescing, the queue goes out at the next flush, or now once it is half full.
        if !coalesces || queue.count * 2 >= queue.limit { flush() }
        return failure == nil
    }

    /// Sends what the channel takes now. A write that fails for good after part of a line went
    /// out takes that part back off (a regular file then ends with its last whole line).
    public func flush() {
        while failure == nil, !queue.isEmpty {
            let front = queue.front
            switch channel.send(front) {
            case .sent(let n):
                if n == 0 { return }
                let sent = front.prefix(n)
                if let newline = sent.lastIndex(of: 10) {
                    sentSinceLineEnd = sent.endIndex - newline - 1
                } else {
                    sentSinceLineEnd += n
                }
                queue.consume(n)
            case .wouldBlock: return
            case .failed(let e):
                failure = e
                if e != EPIPE, sentSinceLineEnd > 0 { channel.takeBack(sentSinceLineEnd) }
                sentSinceLineEnd = 0
            }
        }
    }

    /// Bytes sent since the last line end sent: the part of a line a failed write would leave.
    private var sentSinceLineEnd = 0

    /// Sends what is queued, waiting at most `seconds` in all while the consumer takes nothing (a
    /// consumer that keeps reading gets everything); true when everything went out.
    @discardableResult
    public func finish(waiting seconds: Double) -> Bool {
        var left = seconds
        flush()
        while failure == nil, !queue.isEmpty, left > 0 {
            let before = queue.count
            let slice = min(0.05, left)
            _ = channel.waitWritable(seconds: slice)
            flush()
            if queue.count == before { left -= slice }
        }
        return queue.isEmpty && failure == nil
    }

    /// The error to end the command with when writing failed for a reason other than EPIPE.
    public var error: OutputFailure? { failed ? OutputFailure(name: name, errno: failure ?? EIO) : nil }
}

/// Writing to an output failed for good (disk full, I/O error, file too large): exit 74, naming it.
public struct OutputFailure: UserFacingError, Equatable {
    public var name: String
    public var errno: Int32

    public init(name: String, errno: Int32) {
        self.name = name
        self.errno = errno
    }

    public var message: String {
        var text = "cannot write \(sanitize(name)): \(Errno(errno).description)"
        switch errno {
        case ENOSPC: text += " (free some space, or write elsewhere)"
        case EFBIG: text += " (the file reached the size limit: ulimit -f, or the file system's)"
        default: break
        }
        return text
    }

    public var exitCode: ExitCode { .ioError }
}
