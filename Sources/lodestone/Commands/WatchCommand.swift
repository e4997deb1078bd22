import Glibc
import Linear
import Options
import Platform
import Sensors
import Terminal

/// `lodestone watch`: the live compass.
enum WatchCommand: Command {
    static let spec = CommandSpec(
        name: "watch",
        abstract: "show the live heading from the magnetometer (or the simulator)",
        usage: "[--simulate] [--sensor NAME] [--bus N] [--address 0xNN] [--orientation NAME] [--rate HZ] [--once] [--ascii] [--lang en|zh]",
        options: sensorOptions + [
            Option("rate", value: "HZ", help: "display updates per second, 1–50 (default 10)"),
            Option("once", help: "print one reading and exit"),
            Option("ascii", help: "draw the dashboard in plain ASCII (automatic when the locale is not UTF-8)"),
            Option("lang", value: "LANG", help: "dashboard labels: en or zh (default en; the l key switches)"),
        ],
        discussion: """
        On a terminal it shows a full-screen dashboard with a compass rose (keys: q quit, t true/mag,
        u units, l language, ? help); --rate then sets frames per second (10–30, default 20).
        Piped, or with --once, it prints plain lines, one per update:
          lodestone watch --simulate | head
        Ctrl-C or SIGTERM stops it cleanly (exit 0).
        """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let requestedRate = try arguments.double("rate", in: 1...50)
        let rate = requestedRate ?? 10
        let language = try arguments.choice("lang", from: ["en", "zh"]).flatMap(DashboardLanguage.init(rawValue:))
        let once = arguments.flag("once")
        let signals = SignalWatcher()
        let source = try openSensorSource(arguments)
        let out = StandardOutput()
        let tty = TerminalDevice()
        let dumb = Environment.value("TERM") == "dumb"
        if tty.isOutputTerminal && !once && !dumb {
            let settings = DashboardSettings(
                language: language ?? .english, colorEnabled: !Environment.colorDisabled,
                asciiOnly: arguments.flag("ascii") || !Environment.localeIsUTF8)
            try runWatchDashboard(source: source, signals: signals, terminal: tty,
                                  frameRate: requestedRate.map { min(30, max(10, $0)) } ?? 20, settings: settings)
            return .success
        }
        let interactive = tty.isOutputTerminal && !once && !dumb
        let period = 1 / rate
        // The reader retries, reconnects and paces itself; a signal cuts its waits short.
        let reader = source.makeReader(clock: ReaderClock(
            monotonic: { Clock.monotonic() }, wall: { Clock.wall() }, sleep: { _ = signals.wait(seconds: $0) }))
        var nextFrame = Clock.monotonic()
        let onceDeadline = nextFrame + 5
        var latest: Vector3?
        var lastShown: Vector3?
        while !signals.stopRequested {
            if let sample = reader.next(timeout: max(0, nextFrame - Clock.monotonic())) { latest = sample.field }
            let now = Clock.monotonic()
            if now >= nextFrame {
                nextFrame = max(nextFrame + period, now - period)
                if let field = latest, field != lastShown {
                    lastShown = field
                    let heading = magneticHeading(of: field)
                    let text = formatHeadingLine(heading)
                    let ok = interactive ? out.write("\r" + text + "\u{1B}[K") : out.write(text + "\n")
                    if !ok { return .success }
                    if once { return .success }
                } else if let message = reader.statusMessage, interactive {
                    out.write("\r" + message + "\u{1B}[K")
                }
            }
            if once && latest == nil && now >= onceDeadline {
                if let message = reader.statusMessage { StandardOutput.error("lodestone watch: " + message) }
                throw SensorError.dataNotReady(source.info.chip, seconds: 5)
            }
        }
        if interactive { out.write("\n") }
        return .success
    }
}

extension SensorError {
    /// Errors worth waiting out (the sample is dropped, reading goes on).
    var isRecoverable: Bool {
        switch self {
        case .overflow, .dataNotReady, .stuck, .accelerometerSaturated: return true
        case .bus(let e): return e.isTransient
        case .wrongChip, .wrongAccelerometer: return false
        }
    }
}

/// Magnetic heading of a level sensor from the body-frame field: atan2(−y, x) in [0, 360).
func magneticHeading(of field: Vector3) -> Double {
    var h = degrees(atan2(-field.y, field.x))
    if h < 0 { h += 360 }
    return h >= 360 ? 0 : h
}

/// "123.4° SE": the heading to a tenth of a degree and its 16-point name.
func formatHeadingLine(_ heading: Double) -> String {
    var tenths = (heading * 10).rounded()
    if tenths >= 3600 { tenths -= 3600 }
    let whole = Int(tenths) / 10
    return "\(whole).\(Int(tenths) % 10)° \(sixteenPointName(tenths / 10))"
}

/// The 16-point name ("SE") of a heading in [0, 360).
func sixteenPointName(_ heading: Double) -> String {
    let names = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
    return names[Int((heading / 22.5).rounded()) % 16]
}

/// The full-screen dashboard for `watch` on a terminal, fed from the raw field: magnetic heading of
/// a level sensor, field strength, sensor status. (Tilt, declination and GNSS join when the heading
/// pipeline is wired in.)
func runWatchDashboard(source: SensorSource, signals: SignalWatcher, terminal: TerminalDevice,
                       frameRate: Double, settings: DashboardSettings) throws {
    let info = source.info
    let reader = source.reader
    var latest: Vector3?
    var errorCount = 0
    var problem = ""
    var notice = ""
    try runDashboard(
        signals: signals, terminal: terminal, frameRate: frameRate, settings: settings,
        sample: {
            if let sample = reader.poll() { latest = sample.field }
            errorCount = reader.counters.errors
            problem = reader.statusMessage ?? ""
        },
        onAction: { action in
            switch action {
            case .calibrate: notice = "calibration is not available in watch yet"
            case .resetTrack: notice = "no track to reset (no GNSS)"
            default: notice = ""
            }
        },
        state: { _ in
            var state = DashboardState()
            if let field = latest {
                let heading = magneticHeading(of: field)
                state.magneticHeading = heading
                state.pointName = sixteenPointName(heading)
                state.fieldStrength = field.norm
            }
            state.sensor = SensorPanel(
                chip: info.chip.displayName + (source.isSimulated ? " (simulated)" : ""),
                bus: source.isSimulated ? nil : info.bus, address: Int(info.address), rateHz: info.outputRate,
                errorCount: errorCount, status: problem.isEmpty ? "ok" : problem)
            state.notice = notice
            return state
        })
}
