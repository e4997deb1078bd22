import Geodesy
import Heading
import HeadingLog
import Outputs
import Platform
import Sensors

/// Says lost messages on stderr at most every `interval` seconds, and only when there are new ones.
///
/// ```swift
/// var losses = LossReport()
/// losses.check(now: now, lost: output.dropped) { runtime.say("standard output is not read fast enough: \($0) lines lost so far") }
/// ```
public struct LossReport: Sendable {
    /// At most one report per interval, seconds.
    public static let interval = 10.0
    private var reported = 0
    private var nextReport: Double?

    public init() {}

    /// Calls `say` with the total when it grew since the last report and the interval has passed.
    public mutating func check(now: Double, lost: Int, _ say: (Int) -> Void) {
        guard let next = nextReport else { nextReport = now + Self.interval; return }
        guard now >= next else { return }
        nextReport = now + Self.interval
        if lost > reported {
            reported = lost
            say(lost)
        }
    }

    /// At the end: says the total if anything was lost since the last report.
    public mutating func final(lost: Int, _ say: (Int) -> Void) {
        if lost > reported { reported = lost; say(lost) }
    }
}

/// The log rows of a live loop (`log`, `watch --log`): one row per fresh update, at most one every
/// `minimumInterval` seconds of sample time, and the log's flush and fsync cadence at every turn.
/// A pipe or FIFO whose reader does not keep up loses whole rows, said on stderr at most every 10 s
/// and in total at the end; the loop never waits for it.
final class LogRows: LiveConsumer {
    let session: LogSession
    let live: LiveSession
    let minimumInterval: Double
    let runtime: Runtime
    /// `log --refine`: say the refinement's progress on stderr (watch --log leaves it to its display).
    let sayRefinement: Bool
    private var lastLogged = -Double.infinity
    private var losses = LossReport()

    init(_ session: LogSession, live: LiveSession, runtime: Runtime, minimumInterval: Double = 0, sayRefinement: Bool = false) {
        self.session = session
        self.live = live
        self.runtime = runtime
        self.minimumInterval = minimumInterval
        self.sayRefinement = sayRefinement
    }

    private func say(lost: Int) {
        runtime.say("\(sanitize(session.currentPath)) is not read fast enough: \(lost) rows lost so far")
    }

    func update(_ update: LiveUpdate, loop: LiveLoop) throws -> LiveStep {
        guard update.fresh, let sample = live.pipeline.lastSample, sample.monotonic > lastLogged,
              sample.monotonic - lastLogged >= minimumInterval else { return .proceed }
        // Building the row marks the current fix as logged (its distance and bearing go on this row).
        if let row = live.logRow() { try session.append(row) }
        lastLogged = sample.monotonic
        if sayRefinement, let news = live.pipeline.takeRefinementNews() { runtime.say(news) }
        return .proceed
    }

    func turn(_ loop: LiveLoop, now: Double) throws -> LiveStep {
        try session.tick()
        for news in session.takeNews() { runtime.say(news) }
        losses.check(now: now, lost: session.droppedRows) { say(lost: $0) }
        return .proceed
    }

    func finish(_ end: LiveEnd?, loop: LiveLoop) throws {
        // The last rows, whole (a pipe's reader gets half a second to take them), then the total lost.
        try session.close()
        losses.final(lost: session.droppedRows) { say(lost: $0) }
    }
}

/// `log`'s word on the sensor: each change of the reader's state said once, for the journal.
final class ReaderStatusLines: LiveConsumer {
    let runtime: Runtime
    private var last = StatusKind.ok

    init(runtime: Runtime) { self.runtime = runtime }

    func sensorStatus(_ message: String?, loop: LiveLoop) {
        guard let live = loop.live else { return }
        let kind = StatusKind(live.reader.status)
        guard kind != last else { return }
        last = kind
        runtime.say(live.reader.statusMessage ?? "sensor reading again")
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

/// Piped `watch` (and `--once`): one plain line, or one JSON object, per update with a new estimate,
/// to standard output without ever waiting for it (`BoundedOutput`: a reader that stalls loses
/// lines, counted and said on stderr at most every 10 s). With `once` (the time to wait for a GNSS
/// fix), one line when `WatchSession.onceIsReady` says so. The sensor's status changes are said on
/// stderr.
final class StreamedLines: LiveConsumer {
    let output: BoundedOutput
    let runtime: Runtime
    let json: Bool
    let language: Language
    let fixTimeout: Double?
    private var lastShown: Double?
    private var losses = LossReport()
    /// Each line, written into this buffer (reused).
    private var line: [UInt8] = []

    init(output: BoundedOutput, runtime: Runtime, json: Bool, language: Language, once fixTimeout: Double?) {
        self.output = output
        self.runtime = runtime
        self.json = json
        self.language = language
        self.fixTimeout = fixTimeout
    }

    func update(_ update: LiveUpdate, loop: LiveLoop) throws -> LiveStep {
        guard let live = loop.live, update.fresh, let estimate = update.estimate, estimate.monotonic != lastShown else {
            return .proceed
        }
        let waited = update.now - loop.started
        if let fixTimeout, !WatchSession.onceIsReady(live, waited: waited, timeout: fixTimeout, runtime: runtime) {
            return .proceed
        }
        lastShown = estimate.monotonic
        var report = HeadingReport(estimate)
        report.refinement = live.refinementSummary
        line.removeAll(keepingCapacity: true)
        if json {
            ReportJSON.appendHeading(report, fix: live.currentFix(at: update.now).map { FixReport($0, wall: runtime.time.wall()) }, to: &line)
        } else {
            line.append(contentsOf: plainLine(estimate, language: language).utf8)
        }
        line.append(10)
        guard output.write(bytes: line) else { return .finish }
        if let news = live.pipeline.takeRefinementNews() { runtime.say(news) }
        return fixTimeout == nil ? .proceed : .finish
    }

    func turn(_ loop: LiveLoop, now: Double) throws -> LiveStep {
        output.flush()
        if output.failure != nil { return .finish }
        losses.check(now: now, lost: output.dropped) { say(lost: $0) }
        if fixTimeout != nil, let live = loop.live, live.pipeline.estimate == nil, now - loop.started >= WatchSession.onceTimeout {
            if let message = live.reader.statusMessage { runtime.say(message) }
            throw SensorError.dataNotReady(live.reader.magnetometer.info.chip, seconds: WatchSession.onceTimeout)
        }
        return .proceed
    }

    func sensorStatus(_ message: String?, loop: LiveLoop) {
        if let message { runtime.say(message) }
    }

    func finish(_ end: LiveEnd?, loop: LiveLoop) throws {
        output.finish(waiting: 0.5)
        losses.final(lost: output.dropped) { say(lost: $0) }
    }

    private func say(lost: Int) {
        runtime.say("\(output.name) is not read fast enough: \(lost) \(json ? "JSON objects" : "lines") lost so far")
    }
}
