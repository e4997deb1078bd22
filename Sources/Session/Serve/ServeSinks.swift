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
    /// What happened since the last call that is worth a line on stderr (a client dropped to make
    /// room, a FIFO's reader came or went).
    func takeNotices() -> [String]
    /// At the end: sends what is queued, waiting at most `seconds` for slow consumers.
    func finish(waiting seconds: Double)
    func close()
}

extension ServeSink {
    public func publish(fix: FixReport) {}
    public func publish(event: String, message: String, wall: Double) {}
    public func publish(region: RegionReport) {}
    public func service(now: Double) {}
    public var queuedBytes: Int { 0 }
    public var failure: OutputFailure? { nil }
    public func takeNotices() -> [String] { [] }
    public func finish(waiting seconds: Double) { service(now: 0) }
}

/// Text messages over a `MessageTransport`: NMEA 0183 sentences or Signal K deltas. Over TCP the
/// messages of one update go out as one piece (a client whose queue is full loses the whole update,
/// never half of it); over UDP each message is its own datagram.
///
/// ```swift
/// let nmea = MessageSink(transport: .server(server), label: "NMEA 0183 on tcp://0.0.0.0:10110") {
///     NMEAFormatter().sentences(for: $0)
/// }
/// ```
public final class MessageSink: ServeSink {
    let transport: MessageTransport
    let messages: (HeadingReport) -> [String]
    public let label: String

    public init(transport: MessageTransport, label: String, messages: @escaping (HeadingReport) -> [String]) {
        self.transport = transport
        self.label = label
        self.messages = messages
    }

    /// NMEA 0183 heading sentences.
    public static func nmea(_ transport: MessageTransport, formatter: NMEAFormatter, label: String) -> MessageSink {
        MessageSink(transport: transport, label: label) { formatter.sentences(for: $0) }
    }

    /// Signal K deltas, one JSON object per line (TCP) or per datagram (UDP).
    public static func signalK(_ transport: MessageTransport, delta: SignalKDelta, label: String) -> MessageSink {
        MessageSink(transport: transport, label: label) { [delta.delta(for: $0).serialized() + "\r\n"] }
    }

    public func publish(_ report: HeadingReport, fix: FixReport?) {
        let texts = messages(report)
        switch transport {
        case .server: transport.deliver(Array(texts.joined().utf8))
        case .datagrams: for text in texts { transport.deliver(Array(text.utf8)) }
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
    private var output: BoundedOutput?
    private let opener: (() throws(ServeError) -> BoundedOutput?)?
    public let label: String
    private var lostWhileClosed = 0
    private var nextOpen = -Double.infinity
    private var notices: [String] = []
    private var waitingNoted = false

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

    public func publish(_ report: HeadingReport, fix: FixReport?) { send(ReportJSON.heading(report, fix: fix).serialized()) }

    /// A region event as its own line (told apart from heading lines by its "region" key).
    public func publish(region: RegionReport) { send(ReportJSON.region(region).serialized()) }

    private func send(_ line: String) {
        guard let output, output.failure == nil else { lostWhileClosed += 1; return }
        output.write(line + "\n")
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
