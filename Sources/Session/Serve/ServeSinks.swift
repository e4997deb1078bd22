import Glibc
import Outputs
import JSON
import Platform

/// One destination of `serve`. Publishing never waits: a sink that cannot take a message now
/// counts it in `dropped`.
///
/// ```swift
/// let sink: any ServeSink = NMEASink(transport: .server(server), formatter: NMEAFormatter())
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
    public func service(now: Double) {}
    public var queuedBytes: Int { 0 }
}

/// NMEA 0183 heading sentences over TCP (to every client) or UDP (one datagram per sentence).
public final class NMEASink: ServeSink {
    let transport: MessageTransport
    let formatter: NMEAFormatter
    public let label: String

    public init(transport: MessageTransport, formatter: NMEAFormatter, label: String) {
        self.transport = transport
        self.formatter = formatter
        self.label = label
    }

    public func publish(_ report: HeadingReport, fix: FixReport?) {
        switch transport {
        case .server:
            // One message per update: a client whose queue is full loses the whole update, never half of it.
            transport.deliver(Array(formatter.sentences(for: report).joined().utf8))
        case .datagrams:
            for sentence in formatter.sentences(for: report) { transport.deliver(Array(sentence.utf8)) }
        }
    }

    public func service(now: Double) { transport.service() }
    public var dropped: Int { transport.dropped }
    public var queuedBytes: Int { transport.queuedBytes }
    public func close() { transport.close() }
}

/// Signal K delta messages, one JSON object per line (TCP) or per datagram (UDP).
public final class SignalKSink: ServeSink {
    let transport: MessageTransport
    let delta: SignalKDelta
    public let label: String

    public init(transport: MessageTransport, delta: SignalKDelta, label: String) {
        self.transport = transport
        self.delta = delta
        self.label = label
    }

    public func publish(_ report: HeadingReport, fix: FixReport?) {
        transport.deliver(Array((delta.delta(for: report).serialized() + "\r\n").utf8))
    }

    public func service(now: Double) { transport.service() }
    public var dropped: Int { transport.dropped }
    public var queuedBytes: Int { transport.queuedBytes }
    public func close() { transport.close() }
}

/// One JSON object per heading update, one per line, to a `TextOutput` (standard output) or a file.
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
