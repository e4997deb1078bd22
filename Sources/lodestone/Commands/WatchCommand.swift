import Geodesy
import Glibc
import HeadingLog
import Linear
import Options
import Platform
import Sensors
import Terminal

/// `lodestone watch`: the live compass.
enum WatchCommand: Command {
    static let spec = CommandSpec(
        name: "watch",
        abstract: "show the live heading: magnetic and true, with accuracy (sensor or simulator)",
        usage: "[--simulate] [sensor options] [--calibration FILE] [--location LAT,LON | --declination DEG]\n"
            + "       [--gpsd HOST:PORT | --no-gnss] [--rate HZ] [--once] [--log FILE.csv] [--ascii] [--lang en|zh]",
        options: sensorOptions + [calibrationOption] + headingOptions + [
            Option("gpsd", value: "HOST:PORT", help: "gpsd for position (true heading, movement reports); default 127.0.0.1:2947"),
            Option("no-gnss", help: "do not use gpsd (or the simulated receiver)"),
            Option("rate", value: "HZ", help: "updates per second: 1–50 piped (default 10), 10–30 on a terminal (default 20)"),
            Option("once", help: "print one reading and exit"),
            Option("log", value: "FILE", help: "also log to this CSV file (append-safe; see 'lodestone log')"),
            Option("ascii", help: "draw the dashboard in plain ASCII (automatic when the locale is not UTF-8)"),
            Option("lang", value: "LANG", help: "dashboard and reports language: en or zh (the l key switches)"),
        ],
        discussion: """
        On a terminal it shows a full-screen dashboard with a compass rose (keys: q quit, t true/mag,
        u units, l language, c calibrate, r reset track, ? help). Piped, or with --once, it prints one
        plain line per update: the magnetic heading and its 16-point name, then the true heading,
        the accuracy and where the declination came from:
          123.4° SE  true 136.2°  ±1.1°  declination +12.8° (wmm)
        True heading needs a declination: from the GNSS fix (gpsd, or the simulated receiver with
        --simulate), --location, or --declination. The calibration profile is loaded automatically.
        Ctrl-C or SIGTERM stops it cleanly (exit 0).
          lodestone watch --simulate | head
          lodestone watch --location -33.87,151.21 --once
        """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let requestedRate = try arguments.double("rate", in: 1...50)
        let language = try arguments.choice("lang", from: ["en", "zh"]).flatMap(Language.init(rawValue:))
        let once = arguments.flag("once")
        let headingOptions = try HeadingOptions(arguments)
        if arguments.flag("no-gnss") && arguments.string("gpsd") != nil {
            throw UsageError.conflict("--gpsd and --no-gnss cannot be used together")
        }
        if headingOptions.showDeviation { return try showDeviationCard(arguments) }
        let signals = SignalWatcher()
        signal(SIGXFSZ, SIG_IGN)
        let live = try openLiveSession(arguments, headingOptions: headingOptions, signals: signals,
                                       distanceFilter: 5, command: "watch")
        var log: LogSession?
        if let path = arguments.string("log") {
            let session = try LogSession(LogSession.Options(path: path))
            for note in session.notes { StandardOutput.error("lodestone watch: " + note) }
            log = session
        }
        defer { try? log?.close() }
        let tty = TerminalDevice()
        let dumb = Environment.value("TERM") == "dumb"
        let settings = DashboardSettings(
            language: language ?? .en, colorEnabled: !Environment.colorDisabled && !dumb,
            asciiOnly: arguments.flag("ascii") || !Environment.localeIsUTF8)
        if tty.isOutputTerminal && once && !dumb {
            return try printOneFrame(live: live, settings: settings, terminal: tty, signals: signals)
        }
        if tty.isOutputTerminal && !once && !dumb {
            let view = WatchView(live: live)
            try runDashboard(
                signals: signals, terminal: tty, frameRate: requestedRate.map { min(30, max(10, $0)) } ?? 20,
                settings: settings,
                sample: { try view.step(log: log) },
                onAction: { view.handle($0) },
                state: { view.state(settings: $0) })
            try log?.close()
            try saveLearnedDeviation(live, explicitPath: arguments.string("calibration"))
            return .success
        }
        let status = try runPlain(live: live, log: log, signals: signals, rate: requestedRate ?? 10, once: once,
                                  language: language ?? .en)
        try log?.close()
        try saveLearnedDeviation(live, explicitPath: arguments.string("calibration"))
        return status
    }

    /// Piped (or --once): one plain line per update, flushed as written.
    static func runPlain(live: LiveSession, log: LogSession?, signals: SignalWatcher, rate: Double, once: Bool,
                         language: Language) throws -> ExitCode {
        let out = StandardOutput()
        let reader = live.pipeline.reader
        let period = 1 / rate
        var nextFrame = Clock.monotonic()
        let onceDeadline = nextFrame + 5
        var lastShown: Double?
        var lastStatus: String?
        while !signals.stopRequested {
            if let sample = reader.next(timeout: max(0, min(0.05, nextFrame - Clock.monotonic()))) {
                live.pipeline.process(sample)
                _ = live.pipeline.pump()
            }
            let now = Clock.monotonic()
            live.pollGNSS(now: now)
            if now >= nextFrame {
                nextFrame = max(nextFrame + period, now - period)
                if let estimate = live.pipeline.estimate, estimate.monotonic != lastShown {
                    lastShown = estimate.monotonic
                    // One log row per shown update. The row is built only here: building it marks
                    // the current fix as logged (its distance and bearing go on this row).
                    if let log, let row = live.logRow(now: now) { try log.append(row) }
                    guard out.write(plainLine(estimate, language: language) + "\n") else { return .success }
                    if once { return .success }
                }
                if reader.statusMessage != lastStatus {
                    lastStatus = reader.statusMessage
                    if let message = lastStatus { StandardOutput.error("lodestone watch: " + message) }
                }
            }
            try log?.tick()
            if once && live.pipeline.estimate == nil && now >= onceDeadline {
                if let message = reader.statusMessage { StandardOutput.error("lodestone watch: " + message) }
                throw SensorError.dataNotReady(reader.magnetometer.info.chip, seconds: 5)
            }
        }
        return .success
    }

    /// `--once` on a terminal: one dashboard frame, printed in place of the prompt (no alternate
    /// screen), once the first estimate is in (GNSS gets a moment to answer too).
    static func printOneFrame(live: LiveSession, settings: DashboardSettings, terminal: TerminalDevice,
                              signals: SignalWatcher) throws -> ExitCode {
        let view = WatchView(live: live)
        let start = Clock.monotonic()
        while !signals.stopRequested {
            try view.step(log: nil)
            let waited = Clock.monotonic() - start
            if live.pipeline.estimate != nil && (live.gnss == nil || live.latestFix != nil || waited > 1.5) { break }
            if waited > 5 {
                if let message = live.pipeline.reader.statusMessage { StandardOutput.error("lodestone watch: " + message) }
                throw SensorError.dataNotReady(live.pipeline.reader.magnetometer.info.chip, seconds: 5)
            }
            signals.wait(seconds: 0.02)
        }
        let (columns, rows) = terminal.size() ?? (80, 24)
        let state = settings.applied(to: view.state(settings: settings))
        let lines = renderDashboard(state: state, columns: columns, rows: max(1, rows - 1))
        StandardOutput().write(lines.joined(separator: "\n") + "\n")
        return .success
    }

    /// With `--deviation learn`, stores what was learned in the sensor's profile.
    static func saveLearnedDeviation(_ live: LiveSession, explicitPath: String?) throws {
        guard live.learnsDeviation, live.deviationLearned > 0 else { return }
        try storeDeviation(live, explicitPath: explicitPath)
    }
}

/// `watch --deviation show`: the sensor's deviation card, sector by sector.
func showDeviationCard(_ arguments: ParsedArguments) throws -> ExitCode {
    let source = try openSensorSource(arguments)
    let (profile, description) = try loadProfile(for: source.info, explicitPath: arguments.string("calibration"),
                                                 simulated: source.isSimulated)
    let out = StandardOutput()
    guard let card = profile?.deviation, !card.corrections.isEmpty else {
        out.write("no deviation card for \(source.info.summary) (\(description)).\n"
                  + "Learn one while driving straight at over 2 m/s with a GNSS fix: lodestone watch --deviation learn\n")
        return .success
    }
    var text = "deviation card for \(source.info.summary), \(card.corrections.count) sectors (correction added to the compass heading):\n"
    let step = 360 / Double(card.corrections.count)
    for (i, c) in card.corrections.enumerated() {
        text += "  \(fixed(Double(i) * step, 0))°".padding(toLength: 8) + (c >= 0 ? "+" : "") + fixed(c, 1) + "°\n"
    }
    out.write(text)
    return .success
}

extension String {
    /// Pads with spaces on the right to at least `length` characters.
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}

/// "123.4° SE": the heading to a tenth of a degree and its 16-point name (named after rounding, so
/// 359.96° is "0.0° N").
func formatHeadingLine(_ heading: Double) -> String {
    let shown = headingToTenths(heading)
    return fixed(shown, 1) + "° " + formatBearing(shown, style: .points16)
}

/// A heading rounded to a tenth of a degree in [0, 360): 359.96° becomes 0.0°, never 360.0°.
func headingToTenths(_ heading: Double) -> Double {
    let tenths = (heading * 10).rounded()
    return tenths >= 3600 || tenths < 0 ? 0 : tenths / 10
}
