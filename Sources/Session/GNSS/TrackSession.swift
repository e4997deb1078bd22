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
    /// The longest wait for the first good fix, seconds (`--timeout`, exit 69); nil: no limit.
    public var timeout: Double?

    /// The distance filter when none is given, metres: text reports only moves of 5 m, csv and
    /// json every fix.
    public static func defaultDistanceFilter(_ format: TrackOutput.Format) -> Double { format == .text ? 5 : 0 }

    public init(source: GNSSSourceChoice, format: TrackOutput.Format = .text, style: BearingStyle = .quadrant(decimals: 0),
                language: Language = .en, distanceFilter: Double? = nil, maximumHorizontalError: Double? = nil,
                minimumMode: FixMode = .twoD, duration: Double? = nil, count: Int? = nil, units: UnitSystem? = nil,
                timeout: Double? = nil) {
        self.timeout = timeout
        self.source = source
        self.format = format
        self.style = style
        self.language = language
        self.distanceFilter = distanceFilter ?? Self.defaultDistanceFilter(format)
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
        let source = request.source.open(time: runtime.time)
        let reports = TrackReports(request, runtime: runtime)
        let loop = LiveLoop(gnss: source, runtime: runtime, inbox: inbox, duration: request.duration)
        let end = try loop.run([reports])
        if let failure = reports.output.error { throw failure }
        if end == .duration, let update = loop.lastGNSS, let error = reports.progress.failure(of: update) { throw error }
        return .success
    }

    /// `track`'s consumer of the live loop: each fix through the movement tracker, each report a
    /// line (text, CSV or JSON) on standard output without waiting for it, the source's states
    /// and why fixes are ignored on stderr.
    final class TrackReports: LiveConsumer {
        let request: TrackRequest
        let runtime: Runtime
        let format: TrackOutput
        let output: BoundedOutput
        var tracker: MovementTracker
        var progress: GNSSProgress
        /// The rows' times: the system's when its clock is synchronised or the receiver's is not to be trusted.
        var times: FixTimes
        private var staleNoted = false
        private var losses = LossReport()

        init(_ request: TrackRequest, runtime: Runtime) {
            self.request = request
            self.runtime = runtime
            format = TrackOutput(format: request.format, style: request.style, language: request.language,
                                 units: request.units ?? runtime.environment.units)
            output = runtime.streamingOutput()
            tracker = MovementTracker(gate: QualityGate(minimumMode: request.minimumMode,
                                                        maximumHorizontalError: request.maximumHorizontalError),
                                      distanceFilter: request.distanceFilter)
            times = FixTimes(time: runtime.time)
            progress = GNSSProgress(gate: tracker.gate, timeout: request.timeout)
        }

        var turnInterval: Double { 0.05 }

        func start(_ loop: LiveLoop) throws {
            if let header = format.header { output.write(header) }
        }

        func gnss(_ update: GNSSUpdate, outcomes: [FixOutcome], loop: LiveLoop) throws -> LiveStep {
            guard let source = loop.gnss else { return .finish }
            let now = loop.time.monotonic()
            progress.observe(update, now: now, source: source, runtime: runtime)
            for received in update.fixes {
                staleNoted = false
                // The tracker times the legs by the receiver's clock; the row is stamped by the one to trust.
                let stamp = times.observe(received.fix, receivedAt: received.receivedAt, say: runtime.say).stamp
                switch tracker.process(received.fix) {
                case .report(var report):
                    report.fix.time = stamp
                    if !output.write(format.line(report)) { return .finish }
                    if let count = request.count, report.sequence >= count { return .finish }
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
            return .proceed
        }

        func turn(_ loop: LiveLoop, now: Double) throws -> LiveStep {
            output.flush()
            if let source = loop.gnss { try progress.check(now: now, source: source, runtime: runtime) }
            losses.check(now: now, lost: output.dropped) { runtime.say("\(output.name) is not read fast enough: \($0) lines lost so far") }
            return output.failure == nil ? .proceed : .finish
        }

        func finish(_ end: LiveEnd?, loop: LiveLoop) throws {
            output.finish(waiting: 0.5)
            losses.final(lost: output.dropped) { runtime.say("\(output.name) is not read fast enough: \($0) lines lost") }
        }
    }
}
