import GNSS
import JSON
import Navigation
import Options
import Platform

/// `lodestone where`: waits for one good fix and prints it.
enum WhereCommand: Command {
    static let spec = CommandSpec(
        name: "where",
        abstract: "print the current position once a good fix arrives",
        usage: "[--timeout S] [--accuracy M] [--json] [--gpsd HOST:PORT | --simulate]",
        options: GNSSWiring.sourceOptions + [
            Option("timeout", value: "S", help: "give up after S seconds (default 30); exit status 69"),
            Option("accuracy", value: "M", help: "wait for a fix with a horizontal error of at most M metres"),
            Option("min-mode", value: "MODE", help: "wait for at least this mode: 2d (default) or 3d"),
            Option("json", help: "print one JSON object"),
        ],
        discussion: """
        Prints latitude and longitude (as many digits as gpsd gave), the horizontal error, mode and time:
          lodestone where --accuracy 10
          lodestone where --json --timeout 5 --gpsd 192.168.1.20:2947
        On timeout it says what it saw (no gpsd, no receiver, no fix, or fixes too poor with the best
        error) and exits 69.
        """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let timeout = try arguments.double("timeout", in: 0.1...86_400) ?? 30
        let accuracy = try arguments.double("accuracy", in: 0.1...1_000_000)
        let minimumMode = try GNSSWiring.minimumMode(arguments)
        let json = arguments.flag("json")
        let signals = SignalWatcher()
        let source = try GNSSWiring.source(arguments)
        var search = FixSearch(gate: QualityGate(minimumMode: minimumMode, maximumHorizontalError: accuracy))
        source.start()
        defer { source.stop() }
        let started = Clock.monotonic()
        while true {
            let now = Clock.monotonic()
            if let fix = search.observe(source.take(now: now)) {
                StandardOutput().write(json ? jsonText(fix) : text(fix))
                return .success
            }
            if now - started >= timeout || signals.stopRequested {
                throw WhereFailure(search.failure(afterSeconds: now - started))
            }
            signals.wait(seconds: min(0.05, max(0, started + timeout - now)))
        }
    }

    /// "-33.869412345, 151.199012345  ±3.1 m  3D  2026-01-01T00:00:00.000Z  alt 35.7 m"
    static func text(_ fix: Fix) -> String {
        var parts = [plain(fix.lat ?? 0) + ", " + plain(fix.lon ?? 0)]
        if let e = fix.horizontalError { parts.append("±" + fixed(e, 1) + " m") }
        parts.append(fix.mode.description)
        if let t = fix.time { parts.append(ISO8601.format(t)) }
        if let alt = fix.altMSL { parts.append("alt " + fixed(alt, 1) + " m") }
        return parts.joined(separator: "  ") + "\n"
    }

    static func jsonText(_ fix: Fix) -> String {
        func number(_ v: Double?) -> JSONValue { v.map { .number($0) } ?? .null }
        let value: JSONValue = .object([
            ("time", fix.time.map { .string(ISO8601.format($0)) } ?? .null),
            ("lat", number(fix.lat)),
            ("lon", number(fix.lon)),
            ("mode", .number(Double(fix.mode.rawValue))),
            ("eph_m", number(fix.horizontalError)),
            ("alt_hae_m", number(fix.altHAE)),
            ("alt_msl_m", number(fix.altMSL)),
            ("speed_mps", number(fix.speed)),
            ("course_deg", number(fix.course)),
            ("device", fix.device.map { .string($0) } ?? .null),
        ])
        return value.serialized() + "\n"
    }
}

/// No good fix in time: what was seen, and what to do. Exit status 69.
struct WhereFailure: UserFacingError {
    var reason: FixSearchFailure
    init(_ reason: FixSearchFailure) { self.reason = reason }
    var message: String { reason.message }
    var exitCode: ExitCode { .unavailable }
}
