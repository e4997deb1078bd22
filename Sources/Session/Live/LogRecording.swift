import Glibc
import HeadingLog
import Platform

/// What `lodestone log` was asked to do.
public struct LogRequest: Sendable {
    public var live: LiveRequest
    public var file: LogSession.Options
    /// Rows per second.
    public var rate: Double
    /// Rows per second when the command does not say (`--rate`).
    public static let defaultRate = 10.0
    /// Stop after this many seconds; nil: until a stop signal.
    public var duration: Double?

    public init(live: LiveRequest, file: LogSession.Options, rate: Double = defaultRate, duration: Double? = nil) {
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
    /// Seconds between writes of the rows to the file: a turn's gathering (0.1 s) and this make
    /// the half second SIGKILL can cost at most.
    public static let flushInterval = 0.4

    public static func run(_ request: LogRequest, runtime: Runtime) throws -> ExitCode {
        let inbox = ControlInbox(runtime.events)
        let live = try LiveSession.open(request.live.sampled(forUpdateRate: request.rate), runtime: runtime, inbox: inbox)
        // The samples become rows a turn (a tenth of a second) at a time (`LiveLoop` gathering), so
        // the rows are written a tenth of a second sooner than `flushInterval` to keep SIGKILL's loss
        // within half a second.
        var file = request.file
        file.flushInterval = min(file.flushInterval, LogRecording.flushInterval)
        guard let session = try LogSession.opening(file, runtime: runtime, inbox: inbox, duration: request.duration) else {
            return .success
        }
        for note in session.notes { runtime.say(note) }
        runtime.say("writing \(session.currentPath) at \(plain(request.rate)) rows/s (Ctrl-C or SIGTERM stops)")
        sayRegionEvents(live, runtime: runtime, language: .en, units: runtime.environment.units)
        sayFixTimeProblems(live, runtime: runtime)
        // One row per update slot with a new sample (slot k at start + k/rate; the samples run through
        // the pipeline and made rows at each turn, a batch at a time), the log's flush and sync
        // cadence at every turn, each change of the sensor's state said once.
        let loop = LiveLoop(live: live, runtime: runtime, inbox: inbox, rate: request.rate, duration: request.duration,
                            gathering: true)
        try loop.run([LogRows(session, live: live, runtime: runtime, sayRefinement: true), ReaderStatusLines(runtime: runtime)])
        try session.close()
        runtime.say("\(session.rowsWritten) rows written to \(session.currentPath)")
        try live.saveRefinement(explicitPath: request.live.calibrationPath, runtime: runtime)
        return .success
    }
}

extension LogSession {
    /// Opens the log as `LogSession` does, except that a FIFO without a reader is waited for here,
    /// through the session's inbox (a non-blocking probe every 0.1 s), rather than in a blocking
    /// `open` that no signal could end. Nil when a stop signal came first, or `duration` seconds
    /// (the command's `--duration`) passed without a reader: the run is over before it began.
    static func opening(_ options: Options, runtime: Runtime, inbox: ControlInbox, duration: Double?) throws -> LogSession? {
        let start = runtime.time.monotonic()
        var st = stat()
        // The probe stays open until the log has opened its own descriptor: closed at once, the
        // reader would see the end of its input and go, and the log's open would wait for another.
        var probe: Int32 = -1
        defer { if probe >= 0 { Glibc.close(probe) } }
        if options.rotation == .none, stat(options.path, &st) == 0, st.st_mode & S_IFMT == S_IFIFO {
            var said = false
            while true {
                probe = Glibc.open(options.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                if probe >= 0 { break }
                guard errno == ENXIO else { break }   // LogSession says what else is wrong
                if !said {
                    runtime.say("\(sanitize(options.path)) is a FIFO with no reader yet: waiting for one (Ctrl-C or SIGTERM stops)")
                    said = true
                }
                let left = duration.map { start + $0 - runtime.time.monotonic() } ?? .infinity
                if left <= 0 {
                    runtime.say("no reader opened \(sanitize(options.path)) within --duration \(plain(duration ?? 0)) s: nothing was logged")
                    return nil
                }
                inbox.wait(seconds: min(0.1, left))
                if inbox.stopRequested { return nil }
            }
        }
        return try LogSession(options, wall: runtime.time.wall(), monotonicClock: { runtime.time.monotonic() })
    }
}
