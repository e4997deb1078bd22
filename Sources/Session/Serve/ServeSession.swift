import GNSS
import Heading
import Outputs
import Platform
import Sensors

/// What `lodestone serve` was asked to do.
public struct ServeRequest: Sendable {
    public var live: LiveRequest
    /// Updates per second, 1–50.
    public var rate: Double
    /// Stop after this many seconds; nil: until SIGINT/SIGTERM.
    public var duration: Double?
    /// NMEA 0183 destinations.
    public var nmea: [ServeEndpoint]
    /// Signal K delta destinations.
    public var signalK: [ServeEndpoint]
    /// JSON lines: "-" for standard output, else a file appended to.
    public var json: [String]
    /// MQTT brokers.
    public var mqtt: [MQTTEndpoint]
    public var talker: NMEATalker
    /// Bytes each TCP client may have waiting before its updates are dropped.
    public var clientQueueLimit: Int
    /// The MQTT password (from a file or the environment) and TLS files, for every `mqtt`.
    public var mqttOptions = MQTTOptions()
    /// Clients per TCP server at once (`--max-clients`); when full, the one most behind is dropped
    /// to make room for a new one.
    public var maximumClients = StreamServer.defaultMaximumClients

    /// Updates per second when the command does not say (`--rate`).
    public static let defaultRate = 10.0

    public init(live: LiveRequest, rate: Double = defaultRate, duration: Double? = nil, nmea: [ServeEndpoint] = [],
                signalK: [ServeEndpoint] = [], json: [String] = [], mqtt: [MQTTEndpoint] = [],
                talker: NMEATalker = .compass, clientQueueLimit: Int = 32 * 1024) {
        self.live = live
        self.rate = rate
        self.duration = duration
        self.nmea = nmea
        self.signalK = signalK
        self.json = json
        self.mqtt = mqtt
        self.talker = talker
        self.clientQueueLimit = clientQueueLimit
    }
}

/// What a finished `serve` did, for tests and the closing line.
public struct ServeSummary: Sendable, Equatable {
    /// Heading updates published.
    public var updates = 0
    /// Samples the sensor delivered.
    public var samples = 0
    /// Messages dropped, per sink label.
    public var dropped: [String: Int] = [:]
    /// Largest delay from a sample to its update leaving for the sinks, seconds.
    public var maximumLatency = 0.0
    /// Sum of those delays over all updates, seconds.
    public var totalLatency = 0.0
    /// The most bytes all sinks together held waiting for consumers at any time.
    public var peakQueuedBytes = 0
}

/// `lodestone serve`: headless and long-running. Reads the sensor (and GNSS) as `watch` does and
/// publishes each update to every sink — NMEA 0183 and Signal K over TCP or UDP, JSON lines, MQTT —
/// without ever waiting for a consumer: a stalled client loses updates (counted, and said on
/// stderr), never samples.
///
/// ```swift
/// let request = ServeRequest(live: LiveRequest(sensors: SensorSelection(simulate: true)),
///                            nmea: [.tcp(host: "127.0.0.1", port: 10110)])
/// let summary = try ServeSession.run(request, runtime: .system(command: "serve"))
/// ```
public enum ServeSession {
    /// How often dropped messages are reported on stderr (when there are new ones), seconds.
    public static let dropReportInterval = LossReport.interval

    /// Opens the sensors and every sink, then publishes until stopped or `duration` passes.
    /// `mqtt` makes the MQTT clients (the real one by default; tests may pass their own).
    @discardableResult
    public static func run(_ request: ServeRequest, runtime: Runtime, sockets: any SocketSystem = LinuxSockets(),
                           serial: any SerialSystem = LinuxSerialPorts(),
                           mqtt: (MQTTEndpoint, Runtime) throws(ServeError) -> any ServeSink = { e, r throws(ServeError) in try MQTTSink(e, runtime: r) })
        throws -> ServeSummary {
        guard (1...50).contains(request.rate) else { throw InvalidRequest("the rate must be 1–50 updates per second") }
        guard !(request.nmea.isEmpty && request.signalK.isEmpty && request.json.isEmpty && request.mqtt.isEmpty) else {
            throw InvalidRequest("nothing to serve: give --nmea, --signalk, --json or --mqtt")
        }
        if request.signalK.contains(where: { if case .serial = $0 { return true } else { return false } }) {
            throw InvalidRequest("Signal K deltas cannot go to a serial port: give --signalk udp://HOST:PORT or tcp://[HOST]:PORT, "
                + "and --nmea serial:PATH for the serial line")
        }
        let inbox = ControlInbox(runtime.events)
        let live = try LiveSession.open(request.live.sampled(forUpdateRate: request.rate), runtime: runtime, inbox: inbox)
        let sinks = try openSinks(request, runtime: runtime, sockets: sockets, serial: serial, mqtt: mqtt)
        defer { for s in sinks { s.close() } }
        for s in sinks { runtime.say("publishing " + s.label) }
        sayRegionEvents(live, runtime: runtime, language: .en, units: runtime.environment.units)
        sayFixTimeProblems(live, runtime: runtime)
        publishRegionEvents(live, to: sinks, time: runtime.time)
        let publisher = Publisher(sinks: sinks, runtime: runtime)
        try LiveLoop(live: live, runtime: runtime, inbox: inbox, rate: request.rate, duration: request.duration).run([publisher])
        var summary = publisher.summary
        summary.samples = live.reader.counters.samples
        let mean = summary.updates > 0 ? summary.totalLatency / Double(summary.updates) : 0
        runtime.say("\(summary.updates) updates published; sample to publication: mean " + fixed(mean * 1000, 2)
                    + " ms, at most " + fixed(summary.maximumLatency * 1000, 2) + " ms")
        try live.saveLearnedDeviation(explicitPath: request.live.calibrationPath, runtime: runtime)
        try live.saveRefinement(explicitPath: request.live.calibrationPath, runtime: runtime)
        // A sink that failed for good (a full disk under a JSON file) did not stop the others; it ends the command with 74.
        // A sink that never reached its consumer (an MQTT broker that refused the login all along)
        // did not stop the others either; it ends the command with 69 (a failed write's 74 first).
        let failures = sinks.compactMap(\.failure)
        let unreached = sinks.compactMap(\.unreached)
        if let first = failures.first {
            for f in failures.dropFirst() { runtime.say(f.message) }
            for u in unreached { runtime.say(u) }
            throw first
        }
        if let first = unreached.first {
            for u in unreached.dropFirst() { runtime.say(u) }
            throw ServeError.mqtt(first)
        }
        return summary
    }

    /// `serve`'s consumer of the live loop: publishes each fresh update (and each new fix, region
    /// event and sensor status) to every sink, services the sinks at every turn (accept, flush,
    /// drop), and says on stderr what was dropped, at most every 10 s.
    final class Publisher: LiveConsumer {
        let sinks: [any ServeSink]
        let runtime: Runtime
        /// Not checked for exclusivity at run time (as `HeadingPipeline`'s stage; three checks an
        /// update): the publisher is not Sendable, and each access is a count or a sum, over at once.
        @exclusivity(unchecked) var summary = ServeSummary()
        private var lastFix: ReceivedFix?
        private var losses = LossReport()
        private var failed: Set<String> = []
        /// Each update as the sinks get it (its JSON written once for all of them), reused.
        private let message = HeadingMessage()
        /// The last update's flags and their names, made again only when the flags change.
        /// Not checked for exclusivity at run time, as `summary` (read and set at once).
        @exclusivity(unchecked) private var flagNames: (flags: HeadingFlags, names: [String]) = ([], [])

        init(sinks: [any ServeSink], runtime: Runtime) {
            self.sinks = sinks
            self.runtime = runtime
        }

        /// A turn (accept clients, read a little of what they sent, flush the JSON files, keep MQTT
        /// alive, say drops) every quarter second, the longest the loop allows: each costs several
        /// system calls whatever it finds, and at a tenth of a second they were a tenth of serve's CPU
        /// at 50 Hz. Updates never wait for a turn; a new client is served within a quarter second.
        var turnInterval: Double { Self.turnInterval }
        static let turnInterval = 0.25

        func start(_ loop: LiveLoop) throws {
            for s in sinks { s.publish(event: "started", message: "lodestone serve started", wall: runtime.time.wall()) }
        }

        func gnss(_ update: GNSSUpdate, outcomes: [FixOutcome], loop: LiveLoop) throws -> LiveStep {
            if let received = loop.live?.latestFix, received != lastFix, let fix = loop.live?.currentFix() {
                lastFix = received
                let report = FixReport(fix, wall: runtime.time.wall())
                for s in sinks { s.publish(fix: report) }
            }
            return .proceed
        }

        func turn(_ loop: LiveLoop, now: Double) throws -> LiveStep {
            // Accept new clients, read a little of what they sent, flush queues, say drops and failures.
            for s in sinks {
                s.service(now: now)
                for line in s.takeNotices() { runtime.say(line) }
                if let failure = s.failure, !failed.contains(s.label) {
                    failed.insert(s.label)
                    runtime.say(failure.message + "; the other outputs go on")
                }
            }
            summary.peakQueuedBytes = max(summary.peakQueuedBytes, sinks.reduce(0) { $0 + $1.queuedBytes })
            losses.check(now: now, lost: sinks.reduce(0) { $0 + $1.dropped }) { _ in runtime.say(dropLine(sinks)) }
            return .proceed
        }

        func update(_ update: LiveUpdate, loop: LiveLoop) throws -> LiveStep {
            guard update.fresh, let estimate = update.estimate else { return .proceed }
            // The loop's clock reading of this update decides whether the fix is stale; the wall clock
            // is read only for a fix without a time of its own.
            let fix = loop.live?.currentFix(at: update.now).map { FixReport($0, wall: runtime.time.wall()) }
            if estimate.flags != flagNames.flags { flagNames = (estimate.flags, estimate.flags.names) }
            var report = HeadingReport(estimate, flagNames: flagNames.names)
            report.refinement = loop.live?.refinementSummary
            message.reset(report, fix: fix)
            for s in sinks { s.publish(message) }
            if let news = loop.live?.pipeline.takeRefinementNews() { runtime.say(news) }
            summary.updates += 1
            let latency = loop.time.monotonic() - estimate.monotonic
            summary.maximumLatency = max(summary.maximumLatency, latency)
            summary.totalLatency += latency
            return .proceed
        }

        func sensorStatus(_ message: String?, loop: LiveLoop) {
            guard let message else { return }
            runtime.say(message)
            for s in sinks { s.publish(event: "sensor", message: message, wall: runtime.time.wall()) }
        }

        func finish(_ end: LiveEnd?, loop: LiveLoop) throws {
            for s in sinks {
                s.publish(event: "stopping", message: "lodestone serve stopping", wall: runtime.time.wall())
                s.finish(waiting: 0.3)
                for line in s.takeNotices() { runtime.say(line) }
                summary.dropped[s.label] = s.dropped
            }
            losses.final(lost: sinks.reduce(0) { $0 + $1.dropped }) { _ in runtime.say(dropLine(sinks)) }
        }
    }

    /// Has the session's region events (`--region`) published to every sink.
    static func publishRegionEvents(_ live: LiveSession, to sinks: [any ServeSink], time: any TimeSource) {
        guard live.regionMonitor != nil else { return }
        live.onRegionEvent { [unowned live] event, name in
            let fix = live.latestFix?.fix
            let report = RegionReport(event, region: name, fix: fix, wall: time.wall())
            for s in sinks { s.publish(region: report) }
        }
    }

    static func dropLine(_ sinks: [any ServeSink]) -> String {
        "dropped (slow or absent consumers): "
            + sinks.filter { $0.dropped > 0 }.map { "\($0.label): \($0.dropped)" }.joined(separator: "; ")
    }

    static func openSinks(_ request: ServeRequest, runtime: Runtime, sockets: any SocketSystem, serial: any SerialSystem,
                          mqtt: (MQTTEndpoint, Runtime) throws(ServeError) -> any ServeSink) throws -> [any ServeSink] {
        var sinks: [any ServeSink] = []
        do {
            let nmea = NMEAFormatter(talker: request.talker)
            for e in request.nmea {
                if case .serial(let path, let baud) = e {
                    sinks.append(try SerialSink(path: path, baud: baud, formatter: nmea, system: serial, runtime: runtime))
                    continue
                }
                let t = try transport(e, sockets: sockets, limit: request.clientQueueLimit, maximumClients: request.maximumClients)
                sinks.append(MessageSink.nmea(t, formatter: nmea, label: "NMEA 0183 on " + describe(e, t)))
            }
            let delta = SignalKDelta(source: "lodestone." + request.talker.text)
            for e in request.signalK {
                let t = try transport(e, sockets: sockets, limit: request.clientQueueLimit, maximumClients: request.maximumClients)
                sinks.append(MessageSink.signalK(t, delta: delta, label: "Signal K deltas on " + describe(e, t)))
            }
            for path in request.json {
                if path == "-" {
                    sinks.append(JSONLinesSink(output: runtime.streamingOutput(), label: "JSON lines on standard output"))
                } else {
                    sinks.append(try JSONLinesSink(path: path, label: "JSON lines to " + sanitize(path)))
                }
            }
            for e in request.mqtt { sinks.append(try mqtt(try request.mqttOptions.resolve(e, runtime: runtime), runtime)) }
        } catch {
            for s in sinks { s.close() }
            throw error
        }
        return sinks
    }

    static func transport(_ e: ServeEndpoint, sockets: any SocketSystem, limit: Int,
                          maximumClients: Int = StreamServer.defaultMaximumClients) throws(ServeError) -> MessageTransport {
        switch e {
        case .tcp(let host, let port):
            return .server(try StreamServer(sockets: sockets, host: host, port: port, queueLimit: limit,
                                            maximumClients: maximumClients))
        case .udp(let host, let port):
            return .datagrams(try DatagramSender(sockets: sockets, host: host, port: port))
        case .serial(let path, _):
            throw .socket("a serial port (\(sanitize(path))) carries NMEA 0183 only; sending anything else to it", errno: 22)   // EINVAL
        }
    }

    /// The endpoint with the port actually listened on (port 0 asks the system for one).
    static func describe(_ e: ServeEndpoint, _ t: MessageTransport) -> String {
        if case .server(let s) = t { return ServeEndpoint.tcp(host: s.host, port: s.port).description }
        return e.description
    }
}
