import Geodesy
import Heading
import HeadingLog
import Outputs
import Places
import Platform
import Sensors
import Terminal

/// What `lodestone watch` was asked to do.
public struct WatchRequest: Sendable {
    public var live: LiveRequest
    /// Updates per second; nil: 10 piped, 20 on a terminal.
    public var rate: Double?
    /// Print one reading (or one dashboard frame) and exit.
    public var once: Bool
    /// With `once`: how long to wait for the GNSS fix that gives the true heading, seconds.
    public var onceTimeout: Double
    /// Also log to this CSV file.
    public var log: LogSession.Options?
    /// Plain ASCII dashboard (also automatic when the locale is not UTF-8).
    public var ascii: Bool
    public var language: Language?
    /// Units of distances and speeds; nil: the dashboard's remembered choice, else `GPSD_UNITS`,
    /// else metric (km/h on the dashboard).
    public var units: UnitSystem?
    /// One JSON object per line instead of the plain line (and instead of the dashboard).
    public var json: Bool
    /// `--goto`: the dashboard marks the destination on the rose and shows the way to it.
    public var destination: Destination?
    /// Stop after this many seconds (`--duration`); nil: until a stop signal.
    public var duration: Double?

    public init(live: LiveRequest, rate: Double? = nil, once: Bool = false, onceTimeout: Double = WatchSession.fixTimeout,
                log: LogSession.Options? = nil, ascii: Bool = false, language: Language? = nil, units: UnitSystem? = nil,
                json: Bool = false) {
        self.live = live
        self.rate = rate
        self.once = once
        self.onceTimeout = onceTimeout
        self.log = log
        self.ascii = ascii
        self.language = language
        self.units = units
        self.json = json
    }
}

/// `lodestone watch`: the live compass. On a terminal, the full-screen dashboard; piped (or with
/// `once`), one plain line per update; on a terminal with `once`, one dashboard frame.
///
/// ```swift
/// let status = try WatchSession.run(WatchRequest(live: LiveRequest(sensors: SensorSelection(simulate: true))),
///                                   runtime: .system(command: "watch"))
/// ```
public enum WatchSession {
    /// How long `once` waits for the first estimate before giving up, seconds.
    public static let onceTimeout = 5.0
    /// How long `once` waits by default for a GNSS fix (and so the true heading), seconds.
    public static let fixTimeout = 10.0
    /// Updates per second when `rate` does not say: piped (plain lines, JSON) and on the dashboard,
    /// and the dashboard's range (a rate outside it is brought into it).
    public static let streamRate = 10.0
    public static let dashboardRate = 20.0
    public static let dashboardRates = 10.0...30

    /// With `once`: true when the reading can be printed now. It waits for a gyro-aided heading to
    /// settle (at most `onceTimeout`), and for the true heading while a GNSS source could still give
    /// the declination (at most `timeout`); gpsd that cannot be reached at all is not waited for.
    static func onceIsReady(_ live: LiveSession, waited: Double, timeout: Double, runtime: Runtime) -> Bool {
        guard let estimate = live.pipeline.estimate else { return false }
        // A gyro-aided heading settles in its first seconds; the reading waits for that too.
        if estimate.flags.contains(.initialising) && waited < onceTimeout { return false }
        guard let gnss = live.gnss, estimate.trueHeading == nil else { return true }
        if let state = live.gnssState, case .disconnected(let error) = state, error.isUnreachable {
            runtime.say("no true heading: " + describe(state, source: gnss))
            return true
        }
        if waited >= timeout {
            runtime.say("no GNSS fix within \(plain(timeout)) s, so no true heading (give --location or --declination, "
                        + "or a longer --timeout)")
            return true
        }
        return false
    }

    public static func run(_ request: WatchRequest, runtime: Runtime) throws -> ExitCode {
        let inbox = ControlInbox(runtime.events)
        let live = try LiveSession.open(request.live, runtime: runtime, inbox: inbox)
        var log: LogSession?
        if let options = request.log {
            guard let session = try LogSession.opening(options, runtime: runtime, inbox: inbox, duration: request.duration) else {
                return .success
            }
            for note in session.notes { runtime.say(note) }
            log = session
        }
        defer { try? log?.close() }
        let env = runtime.environment
        let dumb = env.value("TERM") == "dumb"
        let units = request.units ?? env.units
        let remembered = DashboardPreferences.load(configFolder: env.configFolder)
        let speedUnit = request.units.map(SpeedUnit.init) ?? remembered.speedUnit
            ?? (env.value("GPSD_UNITS") != nil ? SpeedUnit(units) : .kilometresPerHour)
        let settings = DashboardSettings(
            speedUnit: speedUnit, language: request.language ?? .en, colorEnabled: !env.colorDisabled,
            asciiOnly: request.ascii || !env.localeIsUTF8)
        let status: ExitCode
        var consumers: [any LiveConsumer] = []
        if let log {
            // One row per shown line piped; at most `WatchView.logRate` rows a second on the dashboard.
            let dashboard = runtime.terminal != nil && !dumb && !request.json && !request.once
            consumers.append(LogRows(log, live: live, runtime: runtime, minimumInterval: dashboard ? 1 / WatchView.logRate : 0))
        }
        if let terminal = runtime.terminal, !dumb, !request.json {
            if request.once {
                let frame = OneFrame(live: live, settings: settings, terminal: terminal, runtime: runtime, units: units,
                                     fixTimeout: request.onceTimeout)
                try LiveLoop(live: live, runtime: runtime, inbox: inbox, rate: 50).run([frame])
                return .success
            }
            let view = WatchView(live: live, units: units, places: nearbySearch(runtime: runtime),
                                 destination: request.destination)
            var chosenUnit = settings.speedUnit
            let dashboard = Dashboard(
                runtime: runtime, terminal: terminal, settings: settings,
                onAction: { action, now in
                    view.handle(action)
                    chosenUnit = now.speedUnit
                },
                state: { view.state(settings: $0) })
            let rate = request.rate.map { min(Self.dashboardRates.upperBound, max(Self.dashboardRates.lowerBound, $0)) }
                ?? Self.dashboardRate
            try LiveLoop(live: live, runtime: runtime, inbox: inbox, rate: rate, duration: request.duration)
                .run(consumers + [dashboard])
            // The u key's choice is remembered for the next run.
            if chosenUnit != settings.speedUnit {
                do {
                    try DashboardPreferences(speedUnit: chosenUnit).save(configFolder: env.configFolder)
                } catch {
                    runtime.say("warning: the speed unit could not be remembered: \(error.message)")
                }
            }
            status = .success
        } else {
            sayRegionEvents(live, runtime: runtime, language: request.language ?? .en, units: units)
            sayFixTimeProblems(live, runtime: runtime)
            let output = runtime.streamingOutput()
            let lines = StreamedLines(output: output, runtime: runtime, json: request.json, language: request.language ?? .en,
                                      once: request.once ? request.onceTimeout : nil)
            try LiveLoop(live: live, runtime: runtime, inbox: inbox, rate: request.rate ?? Self.streamRate, duration: request.duration)
                .run(consumers + [lines])
            if let failure = output.error { throw failure }
            status = .success
        }
        try log?.close()
        try live.saveLearnedDeviation(explicitPath: request.live.calibrationPath, runtime: runtime)
        if status == .success { try live.saveRefinement(explicitPath: request.live.calibrationPath, runtime: runtime) }
        return status
    }

    /// `watch --deviation show`: the sensor's deviation card, sector by sector.
    public static func showDeviationCard(_ request: LiveRequest, runtime: Runtime) throws -> ExitCode {
        let source = try request.sensors.open(time: runtime.time)
        let (profile, description) = try loadProfile(for: source.info, explicitPath: request.calibrationPath,
                                                     simulated: source.isSimulated,
                                                     configFolder: runtime.environment.configFolder,
                                                     home: runtime.environment.value("HOME"),
                                                     standardInput: runtime.standardInputPath)
        guard let card = profile?.deviation, !card.corrections.isEmpty else {
            runtime.output.write("no deviation card for \(source.info.summary) (\(description)).\n"
                + "Learn one while driving straight at over 2 m/s with a GNSS fix: lodestone watch --deviation learn\n")
            return .success
        }
        var text = "deviation card for \(source.info.summary), \(card.corrections.count) sectors (correction added to the compass heading):\n"
        let step = 360 / Double(card.corrections.count)
        for (i, c) in card.corrections.enumerated() {
            text += "  \(fixed(Double(i) * step, 0))°".padding(toLength: 8) + (c >= 0 ? "+" : "") + fixed(c, 1) + "°\n"
        }
        runtime.output.write(text)
        return .success
    }
}

extension String {
    /// Pads with spaces on the right to at least `length` characters.
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}

/// "123.4° SE": the heading to a tenth of a degree and its 16-point name (named after rounding, so
/// 359.96° is "0.0° N").
public func formatHeadingLine(_ heading: Double) -> String {
    let shown = headingToTenths(heading)
    return fixed(shown, 1) + "° " + formatBearing(shown, style: .points16)
}

/// A heading rounded to a tenth of a degree in [0, 360): 359.96° becomes 0.0°, never 360.0°.
public func headingToTenths(_ heading: Double) -> Double {
    let tenths = (heading * 10).rounded()
    return tenths >= 3600 || tenths < 0 ? 0 : tenths / 10
}
