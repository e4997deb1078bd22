import Glibc
import Outputs
import Platform

/// NMEA 0183 heading sentences on a serial port (`--nmea serial:/dev/ttyUSB0?baud=4800`): raw 8N1,
/// no flow control, each sentence ending in CR LF, as chartplotters, autopilots and radars take them
/// on an RS-422 wire.
///
/// The line's capacity is respected. At 4800 baud the wire carries 480 characters a second, fewer
/// than the sentences of 10 updates; rather than let the kernel's queue grow (4 KB is 8 s of lag),
/// the sink models the wire (baud / 10 characters a second, and the kernel's own count,
/// `TIOCOUTQ`) and writes a sentence only while what waits for the wire stays under
/// `headingWindow` (HDG, HDT) or `otherWindow` (ROT, XDR, HDM) seconds. The newest update wins:
/// what of the previous one has not been written yet is superseded, never queued, so a heading is on
/// the wire within a few tenths of a second of its sample whatever the rate. The share of sentences
/// sent is said on standard error. A port that vanishes (a USB adapter unplugged: EIO, ENXIO,
/// ENODEV) is closed and opened again once it returns, every second; nothing here ever waits, so the
/// other sinks never notice.
///
/// ```swift
/// let sink = try SerialSink(path: "/dev/ttyUSB0", baud: 4800, formatter: NMEAFormatter(), system: LinuxSerialPorts(), runtime: runtime)
/// sink.publish(report, fix: nil)
/// sink.service(now: runtime.time.monotonic())
/// ```
public final class SerialSink: ServeSink {
    /// Sentence kinds in the order they are sent when the line cannot carry them all.
    public static let priority = ["HDG", "HDT", "ROT", "XDR", "HDM"]
    /// The heading sentences (HDG, HDT) are written while the wire has at most this much queued, seconds.
    public static let headingWindow = 0.3
    /// The others only while it has at most this much, so that the next update's heading finds room.
    public static let otherWindow = 0.15
    /// How long between attempts to open a port that is not there, seconds.
    public static let reopenInterval = 1.0
    /// When the share sent is said again (if it changed by 5 points or more), seconds.
    public static let shareReportInterval = 600.0

    let system: any SerialSystem
    let formatter: NMEAFormatter
    let runtime: Runtime
    public let path: String
    public let baud: Int
    public let label: String
    /// Characters a second the wire carries: 10 bits each (start, 8 data, stop).
    public let charactersPerSecond: Double
    private var fd: Int32?
    /// When the wire will have sent what was written (monotonic seconds), by the model.
    private var busyUntil = 0.0
    /// The rest of a sentence the port took only in part: it goes first, whatever comes.
    private var partial: [UInt8] = []
    /// The newest update's sentences not yet written, in priority order.
    private var waiting: [(kind: String, bytes: [UInt8])] = []
    private var nextOpen = 0.0
    private var firstShareReport: Double
    private var nextShareReport: Double
    private var lastSaidShare: Int?

    /// Sentences of every update / written.
    public private(set) var offered = 0
    public private(set) var sent = 0
    /// HDG and HDT sentences offered / written.
    public private(set) var headingOffered = 0
    public private(set) var headingSent = 0
    /// Sentences lost because the port was gone or failed (not those the line had no room for).
    public private(set) var dropped = 0
    /// Times the port was opened again after it vanished.
    public private(set) var reopened = 0
    /// The largest wire backlog seen after a write, seconds (what a consumer's heading may lag).
    public private(set) var peakBacklog = 0.0

    /// Opens the port. A port that is not there yet is waited for (said once); one this user may
    /// not open, or a path that is no serial port, is an error.
    public init(path: String, baud: Int, formatter: NMEAFormatter, system: any SerialSystem, runtime: Runtime) throws(SerialError) {
        self.path = path
        self.baud = baud
        self.formatter = formatter
        self.system = system
        self.runtime = runtime
        charactersPerSecond = Double(baud) / 10
        label = "NMEA 0183 on " + ServeEndpoint.serial(path: path, baud: baud).description
        let now = runtime.time.monotonic()
        firstShareReport = now + 10
        nextShareReport = firstShareReport
        do {
            fd = try system.open(path, baud: baud)
        } catch {
            guard error.mayReturn else { throw error }
            runtime.say(error.message + "; waiting for it (the other outputs go on)")
            nextOpen = now + Self.reopenInterval
        }
    }

    /// Whether the port is open now.
    public var isOpen: Bool { fd != nil }

    public func publish(_ report: HeadingReport, fix: FixReport?) {
        let sentences = formatter.sentences(for: report).map { text -> (kind: String, bytes: [UInt8]) in
            let bytes = Array(text.utf8)
            return (bytes.count > 6 ? String(decoding: bytes[3..<6], as: UTF8.self) : "", bytes)
        }
        let ordered = sentences.sorted { Self.rank($0.kind) < Self.rank($1.kind) }
        offered += ordered.count
        headingOffered += ordered.filter { Self.isHeading($0.kind) }.count
        guard fd != nil else { dropped += ordered.count; waiting = []; return }
        waiting = ordered   // the newest update wins: what of the last one is still waiting goes
        flush(now: runtime.time.monotonic())
    }

    static func rank(_ kind: String) -> Int { priority.firstIndex(of: kind) ?? priority.count }
    static func isHeading(_ kind: String) -> Bool { kind == "HDG" || kind == "HDT" }

    /// Writes what fits on the wire now.
    func flush(now: Double) {
        guard let fd else { return }
        let kernel = system.pending(fd).map { Double($0) / charactersPerSecond } ?? 0
        var backlog = max(busyUntil - now, kernel, 0)
        if !partial.isEmpty {
            switch write(fd, partial, backlog: &backlog, now: now) {
            case .complete: partial = []; sent += 1
            case .incomplete, .blocked, .gone: return
            }
        }
        while let next = waiting.first {
            let cost = Double(next.bytes.count) / charactersPerSecond
            let window = Self.isHeading(next.kind) ? Self.headingWindow : Self.otherWindow
            guard backlog + cost <= window else { break }
            waiting.removeFirst()
            switch write(fd, next.bytes, backlog: &backlog, now: now) {
            case .complete:
                sent += 1
                if Self.isHeading(next.kind) { headingSent += 1 }
            case .incomplete:
                if Self.isHeading(next.kind) { headingSent += 1 }
                return
            case .blocked, .gone:
                return
            }
        }
    }

    /// complete: all of it written; incomplete: a part, the rest in `partial`; blocked: none (the
    /// port's queue is full); gone: the port failed.
    private enum WriteResult { case complete, incomplete, blocked, gone }

    /// Writes one sentence (or the rest of one); a part the port did not take becomes `partial`.
    private func write(_ fd: Int32, _ bytes: [UInt8], backlog: inout Double, now: Double) -> WriteResult {
        switch system.write(fd, bytes[...]) {
        case .sent(let n):
            backlog += Double(n) / charactersPerSecond
            busyUntil = now + backlog
            peakBacklog = max(peakBacklog, backlog)
            if n >= bytes.count { return .complete }
            partial = Array(bytes[n...])
            return .incomplete
        case .wouldBlock:
            // The kernel's queue is full (a pty nobody reads): a new sentence is lost, never half
            // sent; the rest of a started one stays first in line.
            if partial.isEmpty { dropped += 1 }
            return .blocked
        case .failed(let e):
            lose(Errno(e), now: now)
            return .gone
        }
    }

    /// The port failed (unplugged): close it and look for it again every second.
    private func lose(_ e: Errno, now: Double) {
        if let fd { system.close(fd) }
        fd = nil
        dropped += waiting.count + (partial.isEmpty ? 0 : 1)
        waiting = []
        partial = []
        busyUntil = 0
        nextOpen = now + Self.reopenInterval
        runtime.say("the serial port \(sanitize(path)) failed (\(e)): unplugged? Opening it again when it returns; the other outputs go on")
    }

    public func service(now: Double) {
        if fd == nil {
            guard now >= nextOpen else { return }
            nextOpen = now + Self.reopenInterval
            do {
                fd = try system.open(path, baud: baud)
                reopened += 1
                runtime.say("the serial port \(sanitize(path)) is back: sending NMEA 0183 at \(baud) baud again")
            } catch {
                return
            }
        }
        flush(now: now)
        if now >= nextShareReport { reportShare(now: now) }
    }

    /// Says the share of sentences the line carried, when not all of them: after the first 10 s, then
    /// every 10 minutes when it changed by 5 points or more.
    private func reportShare(now: Double) {
        nextShareReport = now + Self.shareReportInterval
        guard offered > 0 else { return }
        let share = Int((Double(sent) / Double(offered) * 100).rounded())
        guard share < 100 else { return }
        if let last = lastSaidShare, abs(last - share) < 5 { return }
        lastSaidShare = share
        let heading = headingOffered > 0 ? Int((Double(headingSent) / Double(headingOffered) * 100).rounded()) : 100
        runtime.say("\(label): the line carries \(Int(charactersPerSecond)) characters a second, too few for every sentence; "
            + "sent \(share) % of them (heading HDG/HDT \(heading) %), the newest heading first. "
            + "A lower --rate or a faster baud (?baud=38400) sends more")
    }

    public var queuedBytes: Int { partial.count + waiting.reduce(0) { $0 + $1.bytes.count } }

    public func close() {
        if let fd { system.close(fd) }
        fd = nil
    }
}
