import Glibc
import Outputs
import JSON
import Platform

/// One destination of `serve`. Publishing never waits: a sink that cannot take a message now
/// counts it in `dropped`.
///
/// ```swift
/// let sink: any ServeSink = MessageSink.nmea(.server(server), formatter: NMEAFormatter(), label: "NMEA 0183")
/// sink.publish(report, fix: nil)
/// sink.service(now: clock.monotonic())
/// ```
public protocol ServeSink: AnyObject {
    /// What and where, for messages: "NMEA 0183 on tcp://0.0.0.0:10110".
    var label: String { get }
    /// One heading update, with the current fix if any.
    func publish(_ report: HeadingReport, fix: FixReport?)
    /// One heading update as `serve` hands it to every sink: its JSON written once for all of them
    /// (by default, `publish(message.report, fix: message.fix)`).
    func publish(_ message: HeadingMessage)
    /// A new GNSS fix.
    func publish(fix: FixReport)
    /// Something worth telling subscribers (started, stopping, sensor status).
    func publish(event: String, message: String, wall: Double)
    /// A region event (`--region`).
    func publish(region: RegionReport)
    /// Regular housekeeping between updates: accept clients, flush queues, keep a connection alive.
    func service(now: Double)
    /// Messages not delivered so far.
    var dropped: Int { get }
    /// Bytes waiting in this sink's own queues (bounded).
    var queuedBytes: Int { get }
    /// Set once the sink has failed for good (a full disk under a JSON file): `serve` goes on with
    /// the other sinks and exits 74 at the end, naming it.
    var failure: OutputFailure? { get }
    /// Set when the sink never reached its consumer in the whole run, for a reason it said (an MQTT
    /// broker that refused the login, a TLS handshake that never succeeded, a broker that could not
    /// be reached): `serve` goes on with the other sinks and exits 69 at the end, naming it.
    var unreached: String? { get }
    /// What happened since the last call that is worth a line on stderr (a client dropped to make
    /// room, a FIFO's reader came or went).
    func takeNotices() -> [String]
    /// At the end: sends what is queued, waiting at most `seconds` for slow consumers.
    func finish(waiting seconds: Double)
    func close()
}

extension ServeSink {
    public func publish(_ message: HeadingMessage) { publish(message.report, fix: message.fix) }
    public func publish(fix: FixReport) {}
    public func publish(event: String, message: String, wall: Double) {}
    public func publish(region: RegionReport) {}
    public func service(now: Double) {}
    public var queuedBytes: Int { 0 }
    public var failure: OutputFailure? { nil }
    public var unreached: String? { nil }
    public func takeNotices() -> [String] { [] }
    public func finish(waiting seconds: Double) { service(now: 0) }
}

/// Text messages over a `MessageTransport`: NMEA 0183 sentences or Signal K deltas, each ending in
/// `\r\n`. Over TCP the messages of one update go out as one piece (a client whose queue is full
/// loses the whole update, never half of it); over UDP each message is its own datagram. An
/// update's messages are written straight into one byte buffer the sink keeps (nothing allocated
/// per update).
///
/// ```swift
/// let nmea = MessageSink(transport: .server(server), label: "NMEA 0183 on tcp://0.0.0.0:10110",
///                        messages: .nmea(NMEAFormatter()))
/// ```
public final class MessageSink: ServeSink {
    /// What an update's messages are: the writer, called directly (no closure to go through).
    public enum Messages: Sendable {
        /// NMEA 0183 heading sentences.
        case nmea(NMEAFormatter)
        /// Signal K deltas, one JSON object per line (TCP) or per datagram (UDP).
        case signalK(SignalKDelta)

        /// Appends an update's messages, each ending in `\r\n`, to `out`.
        func append(_ report: HeadingReport, to out: inout [UInt8]) {
            switch self {
            case .nmea(let formatter): formatter.append(report, to: &out)
            case .signalK(let delta):
                delta.append(report, to: &out)
                out.append(13)
                out.append(10)
            }
        }
    }

    let transport: MessageTransport
    let messages: Messages
    public let label: String
    /// The update's messages, reused. Not checked for exclusivity at run time (as
    /// `HeadingPipeline`'s stage; a check per use was a few of serve's per-update checks): it is
    /// private, the sink is not Sendable, and no access spans a call that could reach the sink (the
    /// writers append to the buffer they are given; the sends take a copy of the slice's reference).
    @exclusivity(unchecked) private var buffer: [UInt8] = []

    public init(transport: MessageTransport, label: String, messages: Messages) {
        self.transport = transport
        self.label = label
        self.messages = messages
        buffer.reserveCapacity(1024)
    }

    /// NMEA 0183 heading sentences.
    public static func nmea(_ transport: MessageTransport, formatter: NMEAFormatter, label: String) -> MessageSink {
        MessageSink(transport: transport, label: label, messages: .nmea(formatter))
    }

    /// Signal K deltas, one JSON object per line (TCP) or per datagram (UDP).
    public static func signalK(_ transport: MessageTransport, delta: SignalKDelta, label: String) -> MessageSink {
        MessageSink(transport: transport, label: label, messages: .signalK(delta))
    }

    public func publish(_ message: HeadingMessage) { publish(message.report, fix: nil) }

    public func publish(_ report: HeadingReport, fix: FixReport?) {
        buffer.removeAll(keepingCapacity: true)
        messages.append(report, to: &buffer)
        switch transport {
        case .server(let server): server.broadcast(buffer[...])
        case .datagrams(let sender):
            // One datagram per message: each ends at its line end (found by memchr: a byte-by-byte
            // search of the slice cost a Signal K delta about two thousand instructions).
            var start = buffer.startIndex
            while start < buffer.endIndex {
                let end = buffer.withUnsafeBytes { b -> Int in
                    guard let found = memchr(b.baseAddress! + start, 10, b.count - start) else { return b.count }
                    return b.baseAddress!.distance(to: UnsafeRawPointer(found)) + 1
                }
                sender.send(buffer[start..<end])
                start = end
            }
        }
    }

    public func service(now: Double) { transport.service() }
    public func takeNotices() -> [String] { transport.takeNotices() }
    public var dropped: Int { transport.dropped }
    public var queuedBytes: Int { transport.queuedBytes }
    public func close() { transport.close() }
}

/// One JSON object per heading update, one per line, to standard output or a file (a FIFO
/// included); region events (`--region`) are lines of their own, with a "region" key. Lines go
/// through a `BoundedOutput`: a reader that stalls loses lines (counted), never holds the loop. A
/// reader that goes away (EPIPE) ends only this sink; a write that fails (ENOSPC, EIO, EFBIG) makes
/// it `failure` (exit 74 at the end) while the other sinks go on.
public final class JSONLinesSink: ServeSink {
    /// Not checked for exclusivity at run time (read at every update): the sink is not Sendable, and
    /// it is only read or set, at once.
    @exclusivity(unchecked) private var output: BoundedOutput?
    private let opener: (() throws(ServeError) -> BoundedOutput?)?
    public let label: String
    private var lostWhileClosed = 0
    private var nextOpen = -Double.infinity
    private var notices: [String] = []
    private var waitingNoted = false
    /// The heading line, reused. Not checked for exclusivity at run time (as `MessageSink.buffer`):
    /// private, the sink is not Sendable, and the only call made during an access is the
    /// message's `appendJSON`, which cannot reach the sink.
    @exclusivity(unchecked) private var line: [UInt8] = []
    /// For `publish(_:fix:)`, reused.
    private let single = HeadingMessage()

    public init(output: BoundedOutput, label: String) {
        self.output = output
        opener = nil
        self.label = label
    }

    /// JSON lines appended to `path`, opened without blocking: a FIFO without a reader yet is
    /// opened again (at most every second) until one comes; its lines are dropped meanwhile.
    public init(path: String, label: String) throws(ServeError) {
        self.label = label
        let opener = { () throws(ServeError) -> BoundedOutput? in
            guard let fd = try openForAppending(path) else { return nil }
            // A file's lines go out at each turn, a few updates to a write; a FIFO's reader gets each as it comes.
            let channel = DescriptorChannel(owning: fd, name: sanitize(path))
            return BoundedOutput(channel, coalescing: channel.isFile)
        }
        self.opener = opener
        output = try opener()
        if output == nil { notices.append("\(label): no reader on the FIFO yet; its lines are dropped until one opens it") }
    }

    public var dropped: Int { (output?.dropped ?? 0) + lostWhileClosed }
    public var queuedBytes: Int { output?.queuedBytes ?? 0 }
    public var failure: OutputFailure? { output?.error }

    public func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    public func publish(_ report: HeadingReport, fix: FixReport?) {
        single.reset(report, fix: fix)
        publish(single)
    }

    /// The heading line (the update's JSON with its fix), copied into a buffer the sink keeps.
    public func publish(_ message: HeadingMessage) {
        guard let output, output.failure == nil else { lostWhileClosed += 1; return }
        line.removeAll(keepingCapacity: true)
        message.appendJSON(to: &line)
        line.append(10)
        output.write(bytes: line)
    }

    /// A region event as its own line (told apart from heading lines by its "region" key).
    public func publish(region: RegionReport) {
        guard let output, output.failure == nil else { lostWhileClosed += 1; return }
        output.write(ReportJSON.region(region).serialized() + "\n")
    }

    public func service(now: Double) {
        if let output {
            output.flush()
            // A FIFO whose reader went away: wait for the next one.
            if output.readerGone, opener != nil {
                lostWhileClosed += output.dropped
                self.output = nil
                notices.append("\(label): the reader went away; waiting for another")
            }
        }
        if output == nil, let opener, now >= nextOpen {
            nextOpen = now + 1
            if let opened = try? opener() {
                output = opened
                notices.append("\(label): a reader opened it")
            }
        }
    }

    public func finish(waiting seconds: Double) { output?.finish(waiting: seconds) }

    public func close() {}
}

/// Opens `path` for appending without ever blocking, through the file layer
/// (`Files.openForAppend`): created if missing (0644), O_NONBLOCK so a FIFO without a reader does
/// not hold the caller in `open`, a symbolic link refused in a shared folder. Returns nil for a
/// FIFO that has no reader now (ENXIO).
func openForAppending(_ path: String) throws(ServeError) -> Int32? {
    do {
        return try Files.openForAppend(path, nonBlocking: true)
    } catch {
        if case .open(_, let e) = error, e == Errno(ENXIO) { return nil }
        throw .unwritable(error)
    }
}
