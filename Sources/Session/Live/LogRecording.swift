import HeadingLog
import Platform
import Sensors

/// What `lodestone log` was asked to do.
public struct LogRequest: Sendable {
    public var live: LiveRequest
    public var file: LogSession.Options
    /// Rows per second (0.01–1000).
    public var rate: Double
    /// Stop after this many seconds; nil: until a stop signal.
    public var duration: Double?

    public init(live: LiveRequest, file: LogSession.Options, rate: Double = 10, duration: Double? = nil) {
        self.live = live
        self.file = file
        self.rate = rate
        self.duration = duration
    }
}

/// `lodestone log`: headless logging to a CSV file that survives kills and power cuts.
///
/// ```swift
/// let request = LogRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), distanceFilter: 0),
///                          file: LogSession.Options(path: "heading.csv"), duration: 60)
/// try LogRecording.run(request, runtime: runtime)
/// ```
public enum LogRecording {
    public static func run(_ request: LogRequest, runtime: Runtime) throws -> ExitCode {
        let inbox = ControlInbox(runtime.events)
        let live = try LiveSession.open(request.live, runtime: runtime, inbox: inbox)
        let session = try LogSession(request.file, wall: runtime.time.wall(), monotonicClock: { runtime.time.monotonic() })
        for note in session.notes { runtime.say(note) }
        runtime.say("writing \(session.currentPath) at \(plain(request.rate)) rows/s (Ctrl-C or SIGTERM stops)")
        sayRegionEvents(live, runtime: runtime, language: .en, units: runtime.environment.units)
        try record(live, into: session, rate: request.rate, duration: request.duration, runtime: runtime, inbox: inbox)
        try session.close()
        runtime.say("\(session.rowsWritten) rows written to \(session.currentPath)")
        return .success
    }

    /// Runs every sample through the filter stage and writes a row per slot of a drift-free schedule
    /// (slot k at start + k/rate) with the newest estimate, when there is a new one, until a stop
    /// signal, the duration, or an error. The log keeps its flush and sync cadence throughout; the
    /// fault-tolerant reader retries and reconnects.
    static func record(_ live: LiveSession, into session: LogSession, rate: Double, duration: Double?,
                       runtime: Runtime, inbox: ControlInbox) throws {
        let time = runtime.time
        let reader = live.reader
        let start = time.monotonic()
        var k = 0
        var lastLogged = -Double.infinity
        var lastStatus = StatusKind.ok
        while true {
            let offset = Double(k) / rate
            if let duration, offset >= duration { return }
            let deadline = start + offset
            // Until the slot: feed the filter every sample (waking for signals), keep the log's cadence.
            while !inbox.stopRequested {
                let wait = deadline - time.monotonic()
                if wait <= 0 { break }
                live.next(timeout: min(wait, 0.25))
                live.pollGNSS()
                try session.tick()
            }
            if inbox.stopRequested { return }
            // Whatever is ready now; else wait up to half a slot (at most 0.25 s) for the next sample.
            if live.pump() == nil, live.pipeline.lastSample.map({ $0.monotonic <= lastLogged }) ?? true {
                live.next(timeout: min(0.5 / rate, 0.25))
            }
            live.pollGNSS()
            if let sample = live.pipeline.lastSample, sample.monotonic > lastLogged, let row = live.logRow() {
                try session.append(row)
                lastLogged = sample.monotonic
            } else {
                try session.tick()
            }
            let status = StatusKind(reader.status)
            if status != lastStatus {   // say it once per change, for the journal
                lastStatus = status
                runtime.say(reader.statusMessage ?? "sensor reading again")
            }
            k += 1
            // After a stall (suspend, a hung bus) skip the missed slots instead of catching up in a burst.
            let due = Int(((time.monotonic() - start) * rate).rounded(.down))
            if due > k + max(1, Int(rate)) { k = due }
        }
    }

    /// The reader's status without its details, to say each change once.
    private enum StatusKind {
        case ok, retrying, notResponding, noData, stuck

        init(_ status: ReaderStatus) {
            switch status {
            case .ok: self = .ok
            case .retrying: self = .retrying
            case .notResponding: self = .notResponding
            case .noData: self = .noData
            case .stuck: self = .stuck
            }
        }
    }
}
