import Glibc
import Linear
import Options
import Platform
import Sensors

/// `lodestone watch`: the live compass.
enum WatchCommand: Command {
    static let spec = CommandSpec(
        name: "watch",
        abstract: "show the live heading from the magnetometer (or the simulator)",
        usage: "[--simulate] [--bus N] [--rate HZ] [--once]",
        options: [
            Option("simulate", help: "use the built-in simulator instead of a real sensor"),
            Option("bus", value: "N", help: "I²C bus number (/dev/i2c-N); default: scan every bus"),
            Option("rate", value: "HZ", help: "display updates per second, 1–50 (default 10)"),
            Option("once", help: "print one reading and exit"),
        ],
        discussion: """
        On a terminal the heading updates in place; piped, it prints one line per update:
          lodestone watch --simulate | head
        Ctrl-C or SIGTERM stops it cleanly (exit 0).
        """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let rate = try arguments.double("rate", in: 1...50) ?? 10
        let bus = try arguments.int("bus", in: 0...255)
        let once = arguments.flag("once")
        let signals = SignalWatcher()
        let source: SensorSource
        if arguments.flag("simulate") {
            if bus != nil { throw UsageError.conflict("--bus and --simulate cannot be used together") }
            source = try SensorSource.simulated()
        } else {
            source = try SensorSource.hardware(bus: bus)
        }
        let out = StandardOutput()
        let tty = TerminalDevice()
        let interactive = tty.isOutputTerminal && !once
        let period = 1 / rate
        var nextFrame = Clock.monotonic()
        var latest: Vector3?
        var lastError: SensorError?
        var lastShown: Vector3?
        while !signals.stopRequested {
            do {
                if let field = try source.readBodyField() {
                    latest = field
                    lastError = nil
                }
            } catch {
                lastError = error
                if !error.isRecoverable { throw error }
            }
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
                } else if let error = lastError, interactive {
                    out.write("\r" + error.message.split(separator: "\n")[0] + "\u{1B}[K")
                }
            }
            signals.wait(seconds: min(0.005, max(0, nextFrame - Clock.monotonic())))
        }
        if interactive { out.write("\n") }
        return .success
    }
}

extension SensorError {
    /// Errors worth waiting out (the sample is dropped, reading goes on).
    var isRecoverable: Bool {
        switch self {
        case .overflow, .dataNotReady, .stuck: return true
        case .bus(let e): return e.isTransient
        case .wrongChip: return false
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
    let names = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
    var tenths = (heading * 10).rounded()
    if tenths >= 3600 { tenths -= 3600 }
    let shown = tenths / 10
    let index = Int((shown / 22.5).rounded()) % 16
    let whole = Int(tenths) / 10
    return "\(whole).\(Int(tenths) % 10)° \(names[index])"
}
