import Geodesy
import GNSS
import Navigation
import Options
import Platform

/// `lodestone track`: movement reports from gpsd (or the simulator), one line per reported fix.
enum TrackCommand: Command {
    static let spec = CommandSpec(
        name: "track",
        abstract: "report movement from gpsd fixes: distance, direction, total, speed",
        usage: "[--gpsd HOST:PORT | --simulate] [--format text|csv|json] [--distance-filter M] [--accuracy M] "
            + "[--min-mode 2d|3d] [--lang en|zh] [--style degrees|points|quadrant] [--duration S] [--count N]",
        options: GNSSWiring.sourceOptions + [
            Option("format", value: "FORMAT", help: "text (default), csv (with a header) or json (one object per line)"),
            Option("distance-filter", value: "M", help: "report only after moving at least M metres (default 5 for text, 0 for csv/json)"),
            Option("accuracy", value: "M", help: "ignore fixes whose horizontal error is above M metres"),
            Option("min-mode", value: "MODE", help: "ignore fixes below this mode: 2d (default) or 3d"),
            Option("lang", value: "LANG", help: "language of directions: en (default) or zh"),
            Option("style", value: "STYLE", help: "directions as degrees, points (16-point) or quadrant (default, N30°E)"),
            Option("duration", value: "S", help: "stop after S seconds"),
            Option("count", value: "N", help: "stop after N reports"),
        ],
        discussion: """
        Each report gives the geodesic distance and direction from the previous report, the total so far,
        and speed and course. A move smaller than the two fixes' combined error is reported as
        "stationary" (静止 with --lang zh), without a direction.
          lodestone track --simulate --lang zh
          lodestone track --format csv --distance-filter 0 > walk.csv
        Connection changes are reported on stderr; the client reconnects by itself when gpsd restarts.
        Ctrl-C or SIGTERM stops it cleanly (exit 0).
        """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let format = TrackOutput.Format(rawValue: try arguments.choice("format", from: ["text", "csv", "json"]) ?? "text") ?? .text
        let distanceFilter = try arguments.double("distance-filter", in: 0...1_000_000) ?? (format == .text ? 5 : 0)
        let accuracy = try arguments.double("accuracy", in: 0.1...1_000_000)
        let minimumMode = try GNSSWiring.minimumMode(arguments)
        let language: Language = try arguments.choice("lang", from: ["en", "zh"]) == "zh" ? .zh : .en
        let style: BearingStyle
        switch try arguments.choice("style", from: ["degrees", "points", "quadrant"]) ?? "quadrant" {
        case "degrees": style = .degrees(decimals: 0)
        case "points": style = .points16
        default: style = .quadrant(decimals: 0)
        }
        let duration = try arguments.double("duration", in: 0.1...31_536_000)
        let count = try arguments.int("count", in: 1...Int.max)

        let signals = SignalWatcher()
        let source = try GNSSWiring.source(arguments)
        let output = TrackOutput(format: format, style: style, language: language)
        var tracker = MovementTracker(gate: QualityGate(minimumMode: minimumMode, maximumHorizontalError: accuracy),
                                      distanceFilter: distanceFilter)
        let out = StandardOutput()
        if let header = output.header, !out.write(header) { return .success }

        source.start()
        defer { source.stop() }
        let started = Clock.monotonic()
        var everConnected = false
        var lastState: GNSSState?
        var staleNoted = false
        var lastRejectionNote = -Double.infinity
        while !signals.stopRequested {
            let now = Clock.monotonic()
            let update = source.take(now: now)
            for state in update.stateChanges where state != lastState {
                lastState = state
                if state.isConnected { everConnected = true }
                StandardOutput.error("lodestone track: " + GNSSWiring.describe(state, source: source))
            }
            if update.state.isConnected { everConnected = true }
            for received in update.fixes {
                staleNoted = false
                switch tracker.process(received.fix) {
                case .report(let report):
                    if !out.write(output.line(report)) { return .success }
                    if let count, report.sequence >= count { return .success }
                case .rejected(let why):
                    // Say why nothing is reported, at most every 10 s.
                    if now - lastRejectionNote >= 10 {
                        lastRejectionNote = now
                        StandardOutput.error("lodestone track: ignoring fixes (\(why)); see --accuracy and --min-mode")
                    }
                case .filtered:
                    break
                }
            }
            if update.latestIsStale, update.state.isConnected, !staleNoted, let latest = update.latest {
                staleNoted = true
                StandardOutput.error("lodestone track: no new fix for \(Int(now - latest.receivedAt)) s; the last one is stale")
            }
            if let duration, now - started >= duration {
                if !everConnected, case .disconnected(let error) = update.state { throw error }
                return .success
            }
            signals.wait(seconds: 0.05)
        }
        return .success
    }
}
