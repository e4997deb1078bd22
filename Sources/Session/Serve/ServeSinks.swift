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
    func close()
}

extension ServeSink {
    public func publish(fix: FixReport) {}
    public func publish(event: String, message: String, wall: Double) {}
    public func publish(region: RegionReport) {}
    public func service(now: Double) {}
    public var queuedBytes: Int { 0 }
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
    public var dropped: Int { transport.dropped }
    public var queuedBytes: Int { transport.queuedBytes }
    public func close() { transport.close() }
}

/// One JSON object per heading update, one per line, to a `TextOutput` (standard output) or a file;
/// region events (`--region`) are lines of their own, with a "region" key.
public final class JSONLinesSink: ServeSink {
    let output: any TextOutput
    public let label: String
    public private(set) var dropped = 0
    /// False once the reader has gone away (a closed pipe).
    public private(set) var open = true

    public init(output: any TextOutput, label: String) {
        self.output = output
        self.label = label
    }

    public func publish(_ report: HeadingReport, fix: FixReport?) {
        guard open else { dropped += 1; return }
        if !output.write(ReportJSON.heading(report, fix: fix).serialized() + "\n") { open = false }
    }

    /// A region event as its own line (told apart from heading lines by its "region" key).
    public func publish(region: RegionReport) {
        guard open else { dropped += 1; return }
        if !output.write(ReportJSON.region(region).serialized() + "\n") { open = false }
    }

    public func close() {}
}

/// Appends to a file through one descriptor, in one `write` per text.
public final class FileAppender: TextOutput {
    let fd: Int32
    public let path: String

    public init(path: String) throws(ServeError) {
        fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        self.path = path
        guard fd >= 0 else { throw .file(path, errno: errno) }
    }

    deinit { Glibc.close(fd) }

    @discardableResult
    public func write(_ text: String) -> Bool {
        (try? Files.writeAll(fd, Array(text.utf8), path: path)) != nil
    }
}
