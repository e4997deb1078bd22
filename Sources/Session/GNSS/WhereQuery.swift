import Geodesy
import GNSS
import JSON
import Navigation
import Places
import Platform

/// `lodestone where`: the current position once a good enough fix arrives.
public struct WhereQuery: Sendable {
    public var source: GNSSSourceChoice
    /// Give up after this many seconds (exit 69).
    public var timeout: Double
    /// Wait for a fix with at most this horizontal error, metres.
    public var maximumHorizontalError: Double?
    public var minimumMode: FixMode
    public var json: Bool
    /// Units of the error and altitude in the text form; nil: `GPSD_UNITS`, else metric.
    public var units: UnitSystem?
    /// The language of the nearby place ("3.35 km NE of Hoorn, NL" / "位于Hoorn东北3.35公里").
    public var language: Language

    public init(source: GNSSSourceChoice, timeout: Double = 30, maximumHorizontalError: Double? = nil,
                minimumMode: FixMode = .twoD, json: Bool = false, units: UnitSystem? = nil, language: Language = .en) {
        self.language = language
        self.source = source
        self.timeout = timeout
        self.maximumHorizontalError = maximumHorizontalError
        self.minimumMode = minimumMode
        self.json = json
        self.units = units
    }

    /// Waits for the fix and prints it; on timeout or a stop signal, throws what it saw.
    ///
    /// ```swift
    /// try WhereQuery(source: .simulated, timeout: 5).run(runtime: runtime)
    /// ```
    public func run(runtime: Runtime) throws -> ExitCode {
        let inbox = ControlInbox(runtime.events)
        let time = runtime.time
        let source = self.source.open(time: time)
        var search = FixSearch(gate: QualityGate(minimumMode: minimumMode, maximumHorizontalError: maximumHorizontalError))
        source.start()
        defer { source.stop() }
        let started = time.monotonic()
        while true {
            let now = time.monotonic()
            if let fix = search.observe(source.take(now: now)) {
                let units = self.units ?? runtime.environment.units
                let near = fix.lat.flatMap { lat in fix.lon.flatMap { try? GeoPoint(latitude: lat, longitude: $0) } }
                    .flatMap { nearbySearch(runtime: runtime).nearest(to: $0, count: 1).first }
                if json {
                    runtime.output.write(Self.jsonText(fix, near: near))
                } else {
                    let place = near.map { "  " + formatNearby($0, language: language, units: units) } ?? ""
                    var line = Self.text(fix, units: units)
                    line.removeLast()
                    runtime.output.write(line + place + "\n")
                }
                return .success
            }
            if now - started >= timeout || inbox.stopRequested {
                throw WhereFailure(search.failure(afterSeconds: now - started))
            }
            inbox.wait(seconds: min(0.05, max(0, started + timeout - now)))
        }
    }

    static func text(_ fix: Fix, units: UnitSystem) -> String {
        var parts = [plain(fix.lat ?? 0) + ", " + plain(fix.lon ?? 0)]
        if let e = fix.horizontalError { parts.append("±" + formatLength(e, units: units)) }
        parts.append(fix.mode.description)
        if let t = fix.time { parts.append(ISO8601.format(t)) }
        if let alt = fix.altMSL { parts.append("alt " + formatLength(alt, units: units)) }
        return parts.joined(separator: "  ") + "\n"
    }

    static func jsonText(_ fix: Fix, near: NearbyPlace? = nil) -> String {
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
            ("near", near.map { n in
                .object([
                    ("name", .string(sanitize(n.place.name))),
                    ("country", n.place.country.isEmpty ? .null : .string(n.place.country)),
                    ("lat", .number(n.place.latitude)), ("lon", .number(n.place.longitude)),
                    ("distance_m", .number(roundedToDecimals(n.distance, 3))),
                    ("direction_deg", n.direction.map { .number(roundedToDecimals($0, 6)) } ?? .null),
                ])
            } ?? .null),
        ])
        return value.serialized() + "\n"
    }
}

/// No good enough fix in time: what was seen. Exit 69.
public struct WhereFailure: UserFacingError {
    public var reason: FixSearchFailure
    public init(_ reason: FixSearchFailure) { self.reason = reason }
    public var message: String { reason.message }
    public var exitCode: ExitCode { .unavailable }
}
