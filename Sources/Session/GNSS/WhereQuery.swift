import Geodesy
import GNSS
import JSON
import Navigation
import Outputs
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

    /// How long a fix is waited for when the command does not say (`--timeout`), seconds.
    public static let defaultTimeout = 30.0

    public init(source: GNSSSourceChoice, timeout: Double = defaultTimeout, maximumHorizontalError: Double? = nil,
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
        var progress = GNSSProgress(gate: QualityGate(minimumMode: minimumMode, maximumHorizontalError: maximumHorizontalError),
                                    timeout: timeout, saysStates: false)
        source.start()
        defer { source.stop() }
        while true {
            let now = time.monotonic()
            if var fix = progress.observe(source.take(now: now), now: now, source: source, runtime: runtime) {
                // A receiver's time more than a day from the system clock is said, and not shown.
                var check = FixTimeCheck()
                if let problem = check.check(fixTime: fix.time, systemWall: time.wall()) {
                    runtime.say(problem.summary + ": the system's time is shown")
                    fix.time = time.wall()
                }
                let units = self.units ?? runtime.environment.units
                let point = fix.lat.flatMap { lat in fix.lon.flatMap { try? GeoPoint(latitude: lat, longitude: $0) } }
                let places = nearbySearch(runtime: runtime)
                let near = point.flatMap { places.nearest(to: $0, count: 1).first }
                let town = point.flatMap { p in near.flatMap { places.town(near: p, beside: $0) } }
                // The local time at the fix (the receiver's time, else the clock's), in the zone
                // of the place nearest to it.
                let wall = fix.time ?? time.wall()
                let local = near.flatMap { n -> Result<(text: String, type: TimeZoneRules.LocalType), TimeZoneError>? in
                    n.place.timeZone.isEmpty ? nil : localTime(wall, zone: n.place.timeZone, environment: runtime.environment)
                }
                if json {
                    runtime.output.write(Self.jsonText(fix, near: near, town: town, localTime: local.flatMap { try? $0.get().text }))
                } else {
                    let place = near.map { "  " + formatNearby($0, town: town, language: language, units: units) } ?? ""
                    var line = Self.text(fix, units: units)
                    line.removeLast()
                    var text = line + place + "\n"
                    if let near, case .gazetteer = near.source {
                        text += Self.placemarkLine(near.place, localTime: local, wall: wall, language: language) + "\n"
                    }
                    runtime.output.write(text)
                }
                return .success
            }
            if inbox.stopRequested { throw progress.failure(at: now) }
            try progress.check(now: now, source: source, runtime: runtime)
            inbox.wait(seconds: 0.05)
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

    /// "Edam, North Holland, Netherlands  Europe/Amsterdam  local time 21:41 CET  population 7380".
    static func placemarkLine(_ place: Place, localTime: Result<(text: String, type: TimeZoneRules.LocalType), TimeZoneError>?,
                              wall: Double, language: Language) -> String {
        let zh = language == .zh
        var parts = [sanitize(place.name(zh: zh))]
        let area = [place.region, place.countryName.isEmpty ? place.country : place.countryName]
            .filter { !$0.isEmpty }.map(sanitize).joined(separator: ", ")
        if !area.isEmpty { parts[0] += ", " + area }
        if !place.timeZone.isEmpty { parts.append(sanitize(place.timeZone)) }
        switch localTime {
        case .success(let t)?: parts.append((zh ? "当地时间" : "local time ") + LocalTime.clock(wall, offset: t.type))
        case .failure(let e)?: parts.append((zh ? "当地时间未知：" : "local time unknown: ") + e.message)
        case nil: break
        }
        parts.append((zh ? "人口" : "population ") + String(place.population))
        return parts.joined(separator: "  ")
    }

    static func jsonText(_ fix: Fix, near: NearbyPlace? = nil, town: NearbyPlace? = nil, localTime: String? = nil) -> String {
        ReportJSON.position(fix: FixReport(fix, wall: .nan), device: fix.device.map(sanitize), near: near.map { PlaceRecord($0) },
                            town: town.map { PlaceRecord($0) }, localTime: localTime).serialized() + "\n"
    }
}
