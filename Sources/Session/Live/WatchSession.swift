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

    /// With `once`: true when the reading can be printed now. It waits for a gyro-aided heading to
    /// settle (at most `onceTimeout`), and for the true heading while a GNSS source could still give
    /// the declination (at most `timeout`); gpsd that cannot be reached at all is not waited for.
    static func onceIsReady(_ live: LiveSession, waited: Double, timeout: Double, runtime: Runtime) -> Bool {
        guard let estimate = live.pipeline.estimate else { return false }
        // A gyro-aided heading settles in its first seconds; the reading waits for that too.
        if estimate.flags.contains(.initialising) && waited < onceTimeout { return false }
        guard let gnss = live.gnss, estimate.trueHeading == nil else { return true }
        if let state = live.gnssState, case .disconnected(.cannotConnect) = state {
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
            let session = try LogSession(options, wall: runtime.time.wall(), monotonicClock: { runtime.time.monotonic() })
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
        if let terminal = runtime.terminal, !dumb, !request.json {
            if request.once {
                return try printOneFrame(live: live, settings: settings, terminal: terminal, runtime: runtime, inbox: inbox,
                                         units: units, fixTimeout: request.onceTimeout)
            }
            let view = WatchView(live: live, units: units, places: nearbySearch(runtime: runtime),
                                 destination: request.destination)
            var chosenUnit = settings.speedUnit
            try runDashboard(
                runtime: runtime, inbox: inbox, terminal: terminal,
                frameRate: request.rate.map { min(30, max(10, $0)) } ?? 20, settings: settings,
                sample: { try view.step(log: log) },
                onAction: { action, now in
                    view.handle(action)
                    chosenUnit = now.speedUnit
                },
                state: { view.state(settings: $0) })
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
            status = try runPlain(live: live, log: log, runtime: runtime, inbox: inbox, rate: request.rate ?? 10,
                                  once: request.once ? request.onceTimeout : nil, language: request.language ?? .en,
                                  json: request.json)
        }
        try log?.close()
        try live.saveLearnedDeviation(explicitPath: request.live.calibrationPath, runtime: runtime)
        return status
    }

    /// Piped (or --once): one plain line per update, written as made. With `once` (the time to wait
    /// for a GNSS fix), one line when `onceIsReady` says so.
    static func runPlain(live: LiveSession, log: LogSession?, runtime: Runtime, inbox: ControlInbox, rate: Double,
                         once fixTimeout: Double?, language: Language, json: Bool = false) throws -> ExitCode {
        let time = runtime.time
        let reader = live.reader
        let period = 1 / rate
        var nextFrame = time.monotonic()
        let started = nextFrame
        let once = fixTimeout != nil
        let onceDeadline = nextFrame + onceTimeout
        var lastShown: Double?
        var lastStatus: String?
        while !inbox.stopRequested {
            live.next(timeout: max(0, min(0.05, nextFrame - time.monotonic())))
            let now = time.monotonic()
            live.pollGNSS()
            if now >= nextFrame {
                nextFrame = max(nextFrame + period, now - period)
                if let estimate = live.pipeline.estimate, estimate.monotonic != lastShown,
                   fixTimeout.map({ onceIsReady(live, waited: now - started, timeout: $0, runtime: runtime) }) ?? true {
                    lastShown = estimate.monotonic
                    // One log row per shown update. The row is built only here: building it marks
                    // the current fix as logged (its distance and bearing go on this row).
                    if let log, let row = live.logRow() { try log.append(row) }
                    let line = json
                        ? ReportJSON.heading(HeadingReport(estimate),
                                             fix: live.currentFix().map { ServeSession.fixReport($0, wall: time.wall()) }).serialized()
                        : plainLine(estimate, language: language)
                    guard runtime.output.write(line + "\n") else { return .success }
                    if once { return .success }
                }
                if reader.statusMessage != lastStatus {
                    lastStatus = reader.statusMessage
                    if let message = lastStatus { runtime.say(message) }
                }
            }
            try log?.tick()
            if once && live.pipeline.estimate == nil && now >= onceDeadline {
                if let message = reader.statusMessage { runtime.say(message) }
                throw SensorError.dataNotReady(reader.magnetometer.info.chip, seconds: onceTimeout)
            }
        }
        return .success
    }

    /// `--once` on a terminal: one dashboard frame, printed in place of the prompt (no alternate
    /// screen), once the first estimate is in and, with a GNSS source, the true heading (`onceIsReady`).
    static func printOneFrame(live: LiveSession, settings: DashboardSettings, terminal: any KeyboardTerminal,
                              runtime: Runtime, inbox: ControlInbox, units: UnitSystem, fixTimeout: Double) throws -> ExitCode {
        let view = WatchView(live: live, units: units)
        let time = runtime.time
        let start = time.monotonic()
        while !inbox.stopRequested {
            try view.step(log: nil)
            let waited = time.monotonic() - start
            if onceIsReady(live, waited: waited, timeout: fixTimeout, runtime: runtime) { break }
            if live.pipeline.estimate == nil && waited > onceTimeout {
                if let message = live.reader.statusMessage { runtime.say(message) }
                throw SensorError.dataNotReady(live.reader.magnetometer.info.chip, seconds: onceTimeout)
            }
            inbox.wait(seconds: 0.02)
        }
        let (columns, rows) = terminal.size() ?? (80, 24)
        let state = settings.applied(to: view.state(settings: settings))
        let lines = renderDashboard(state: state, columns: columns, rows: max(1, rows - 1))
        runtime.output.write(lines.joined(separator: "\n") + "\n")
        return .success
    }

    /// `watch --deviation show`: the sensor's deviation card, sector by sector.
    public static func showDeviationCard(_ request: LiveRequest, runtime: Runtime) throws -> ExitCode {
        let source = try request.sensors.open(time: runtime.time)
        let (profile, description) = try loadProfile(for: source.info, explicitPath: request.calibrationPath,
                                                     simulated: source.isSimulated,
                                                     configFolder: runtime.environment.configFolder,
                                                     home: runtime.environment.value("HOME"))
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
