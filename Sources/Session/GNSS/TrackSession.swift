import Geodesy
import GNSS
import Navigation
import Platform

/// What `lodestone track` was asked to do.
public struct TrackRequest: Sendable {
    public var source: GNSSSourceChoice
    public var format: TrackOutput.Format
    public var style: BearingStyle
    public var language: Language
    /// Minimum distance between reports, metres (0: every fix).
    public var distanceFilter: Double
    /// Ignore fixes whose horizontal error is above this, metres.
    public var maximumHorizontalError: Double?
    public var minimumMode: FixMode
    /// Stop after this many seconds.
    public var duration: Double?
    /// Stop after this many reports.
    public var count: Int?
    /// Units of the text format; nil: `GPSD_UNITS`, else metric.
    public var units: UnitSystem?

    public init(source: GNSSSourceChoice, format: TrackOutput.Format = .text, style: BearingStyle = .quadrant(decimals: 0),
                language: Language = .en, distanceFilter: Double? = nil, maximumHorizontalError: Double? = nil,
                minimumMode: FixMode = .twoD, duration: Double? = nil, count: Int? = nil, units: UnitSystem? = nil) {
        self.source = source
        self.format = format
        self.style = style
        self.language = language
        self.distanceFilter = distanceFilter ?? (format == .text ? 5 : 0)
        self.maximumHorizontalError = maximumHorizontalError
        self.minimumMode = minimumMode
        self.duration = duration
        self.count = count
        self.units = units
    }
}

/// `lodestone track`: movement reports from GNSS fixes until a stop signal, the duration or the count.
///
/// ```swift
/// try TrackSession.run(TrackRequest(source: .simulated, count: 3), runtime: runtime)
/// ```
public enum TrackSession {
    public static func run(_ request: TrackRequest, runtime: Runtime) throws -> ExitCode {
        let inbox = ControlInbox(runtime.events)
        let time = runtime.time
        let source = request.source.open(time: time)
        let output = TrackOutput(format: request.format, style: request.style, language: request.language,
                                 units: request.units ?? runtime.environment.units)
        var tracker = MovementTracker(gate: QualityGate(minimumMode: request.minimumMode,
                                                        maximumHorizontalError: request.maximumHorizontalError),
                                      distanceFilter: request.distanceFilter)
        let out = runtime.output
        if let header = output.header, !out.write(header) { return .success }

        source.start()
        defer { source.stop() }
        let started = time.monotonic()
        var progress = GNSSProgress()
        var staleNoted = false
        while !inbox.stopRequested {
            let now = time.monotonic()
            let update = source.take(now: now)
            progress.observe(update, source: source, runtime: runtime)
            for received in update.fixes {
                staleNoted = false
                switch tracker.process(received.fix) {
                case .report(let report):
                    if !out.write(output.line(report)) { return .success }
                    if let count = request.count, report.sequence >= count { return .success }
                case .rejected(let why):
                    // Say why nothing is reported, at most every 10 s.
                    progress.ignoring(why, now: now, runtime: runtime)
                case .filtered:
                    break
                }
            }
            if update.latestIsStale, update.state.isConnected, !staleNoted, let latest = update.latest {
                staleNoted = true
                runtime.say("no new fix for \(Int(now - latest.receivedAt)) s; the last one is stale")
            }
            if let duration = request.duration, now - started >= duration {
                if let error = progress.failure(of: update) { throw error }
                return .success
            }
            inbox.wait(seconds: 0.05)
        }
        return .success
    }
}
