import Glibc
import Platform
import Synchronization

/// A gpsd client that runs on its own thread and hands deduplicated fixes to the consumer through
/// a `FixMailbox`, so the display never waits on the network.
///
/// It connects to gpsd (retrying with a backoff of at most `maxRetryInterval` while gpsd is
/// absent), asks for JSON reports, reads each raw line with libgps, decodes it with the JSON
/// module, merges the TPVs of one epoch, and reconnects by itself when gpsd goes away.
///
/// ```swift
/// let client = GpsdClient(address: try GpsdAddress(parsing: "127.0.0.1:2947"))
/// client.start()
/// defer { client.stop() }
/// while running {
///     let update = client.take(now: Clock.monotonic())
///     for received in update.fixes { show(received.fix) }
///     if update.current == nil { showStale() }
/// }
/// ```
public final class GpsdClient: GNSSSource {
    /// Timing of the client.
    public struct Settings: Sendable, Equatable {
        /// First retry delay after a failure; it doubles up to `maxRetryInterval`.
        public var firstRetryInterval = 0.25
        /// Longest wait between two connection attempts.
        public var maxRetryInterval = 2.0
        /// How long an epoch waits for more TPVs with its time (see `EpochMerger`).
        public var epochHoldSeconds = 0.5
        /// How long a peer that accepted the connection has to send its first line. gpsd sends its
        /// VERSION banner at once; a peer silent for this long is not gpsd (and a command that has
        /// never reached gpsd gives up after `GNSSProgress.refusedGrace`, 3 s).
        public var greetingSeconds = 2.0

        public init() {}
    }

    public let address: GpsdAddress
    public let settings: Settings
    /// The hand-over point; exposed for callers that want to inspect it directly.
    public let mailbox = FixMailbox()
    private let lifecycle = Mutex(Lifecycle())

    private struct Lifecycle {
        var started = false
        var finished = false
    }

    /// The clock that stamps fixes (`receivedAt`), holds epochs and paces retries: the session's
    /// (a test's manual clock), so fix ages and the loop's schedule are on one time.
    public let time: any TimeSource

    public init(address: GpsdAddress = .default, settings: Settings = Settings(), time: any TimeSource = SystemTime()) {
        self.address = address
        self.settings = settings
        self.time = time
    }

    public var name: String { "gpsd at \(address)" }

    /// Starts the client thread (once). SIGPIPE is ignored from here on, so a gpsd that vanishes
    /// while a request is written cannot end the process.
    public func start() {
        let first = lifecycle.withLock { l -> Bool in
            if l.started { return false }
            l.started = true
            return true
        }
        guard first else { return }
        signal(SIGPIPE, SIG_IGN)
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let client = Unmanaged<GpsdClient>.fromOpaque(raw).takeRetainedValue()
            client.runLoop()
            return nil
        }, context)
        if status == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<GpsdClient>.fromOpaque(context).release()
            mailbox.setState(.disconnected(.cannotConnect(address)))
            lifecycle.withLock { $0.finished = true }
        }
    }

    /// Asks the thread to stop and waits up to `timeout` seconds for it (a connect to an
    /// unreachable remote host can take longer; the thread then ends on its own). This one wait is
    /// in real time, whatever the client's clock: it waits for a real thread to end.
    public func stop() {
        stop(timeout: 0.5)
    }

    /// See `stop()`.
    public func stop(timeout: Double) {
        mailbox.requestStop()
        let deadline = Clock.monotonic() + timeout
        while Clock.monotonic() < deadline {
            let done = lifecycle.withLock { !$0.started || $0.finished }
            if done { return }
            Clock.sleep(seconds: 0.005)
        }
    }

    public func take(now: Double) -> GNSSUpdate { mailbox.take(now: now) }

    // MARK: The thread

    private func runLoop() {
        defer { lifecycle.withLock { $0.finished = true } }
        let session = GpsdSession()
        var merger = EpochMerger(holdSeconds: settings.epochHoldSeconds)
        var retry = settings.firstRetryInterval
        while !mailbox.stopRequested {
            do {
                try session.open(address)
            } catch {
                mailbox.setState(.disconnected(error))
                pause(retry)
                retry = min(retry * 2, settings.maxRetryInterval)
                continue
            }
            merger.reset()
            let end = stream(session, &merger) {
                // Connected only once the peer spoke as gpsd does: a port that accepts and is
                // silent, or answers with something else, is no gpsd to wait for.
                mailbox.setState(.connected)
                retry = settings.firstRetryInterval
            }
            session.close()
            if let fix = merger.flush() { deliver(fix) }
            if mailbox.stopRequested { break }
            switch end {
            case .closed(let heard): mailbox.setState(.disconnected(heard ? .connectionLost(address) : .closedAtOnce(address)))
            case .lineTooLong: mailbox.setState(.disconnected(.lineTooLong(address)))
            case .notGpsd(let silent): mailbox.setState(.disconnected(.notGpsd(address, silent: silent)))
            case .stopped: break
            }
            pause(retry)
            if case .notGpsd = end { retry = min(retry * 2, settings.maxRetryInterval) }
        }
    }

    /// How a stream of lines ended.
    private enum StreamEnd {
        /// The peer closed the connection (`heard`: after sending at least one line).
        case closed(heard: Bool)
        /// A line too long to read: the session cannot go on.
        case lineTooLong
        /// The peer's first line was not gpsd's JSON (`silent`: it sent nothing in time).
        case notGpsd(silent: Bool)
        /// A stop was requested.
        case stopped
    }

    /// Reads lines until the connection closes, a line cannot be read, or a stop is requested;
    /// `greeted` runs once the peer's first line shows it is gpsd (a JSON object with a class).
    private func stream(_ session: GpsdSession, _ merger: inout EpochMerger, greeted: () -> Void) -> StreamEnd {
        var heard = false
        let connectedAt = time.monotonic()
        while !mailbox.stopRequested {
            switch session.readLine(timeout: 0.05) {
            case .line(let text):
                if !heard {
                    guard Self.isGpsdGreeting(text) else { return .notGpsd(silent: false) }
                    greeted()
                }
                heard = true
                handle(text, &merger)
            case .nothing:
                if !heard, time.monotonic() - connectedAt >= settings.greetingSeconds { return .notGpsd(silent: true) }
            case .closed:
                return .closed(heard: heard)
            case .tooLong:
                return .lineTooLong
            }
            if let fix = merger.poll(now: time.monotonic()) { deliver(fix) }
        }
        return .stopped
    }

    /// True when `line` can be gpsd's first: a JSON object with a `class` (gpsd greets with VERSION).
    static func isGpsdGreeting(_ line: String) -> Bool {
        guard let report = try? GpsdReport.parse(line) else { return false }
        return report != .other("")
    }

    private func handle(_ line: String, _ merger: inout EpochMerger) {
        guard let report = try? GpsdReport.parse(line) else { return }
        switch report {
        case .tpv(let fix):
            let now = time.monotonic()
            if fix.hasPosition {
                for epoch in merger.add(fix, at: now) { deliver(epoch) }
                mailbox.setState(merger.frozenTime.map { .timeFrozen($0) } ?? .connected)
            } else {
                mailbox.countReportWithoutFix()
                // Reports without a position between fixes (another receiver, a partial epoch) do
                // not make the state flap: only a while without any position means waiting.
                if merger.lastPositionArrival.map({ now - $0 > Self.waitingAfterSeconds }) ?? true {
                    mailbox.setState(.waitingForFix)
                }
            }
        case .devices(let paths):
            mailbox.setDevices(paths)
            if paths.isEmpty { mailbox.setState(.waitingForFix) }
        case .version, .error, .other:
            break
        }
    }

    /// How long without any position before reports without one say "waiting for a fix".
    static let waitingAfterSeconds = 2.0

    private func deliver(_ fix: Fix) {
        mailbox.post(ReceivedFix(fix: fix, receivedAt: time.monotonic()))
    }

    /// Waits `seconds` on the client's clock (a test's manual clock decides the back-off), ending
    /// early when a stop is requested.
    private func pause(_ seconds: Double) {
        time.wait(until: time.monotonic() + seconds) { mailbox.stopRequested }
    }
}
