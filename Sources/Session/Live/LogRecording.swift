import HeadingLog
import Platform

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
        // One row per update slot with a new sample (slot k at start + k/rate), the log's flush and
        // sync cadence at every turn, each change of the sensor's state said once.
        let loop = LiveLoop(live: live, runtime: runtime, inbox: inbox, rate: request.rate, duration: request.duration)
        try loop.run([LogRows(session, live: live), ReaderStatusLines(runtime: runtime)])
        try session.close()
        runtime.say("\(session.rowsWritten) rows written to \(session.currentPath)")
        try live.saveRefinement(explicitPath: request.live.calibrationPath, runtime: runtime)
        return .success
    }
}
