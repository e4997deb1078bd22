import Geodesy
import GNSS
import JSON
import Navigation
import Outputs
import Places
import Platform

/// What `lodestone goto` was asked to do.
public struct GotoRequest: Sendable {
    public enum Format: String, Sendable, CaseIterable { case text, csv, json }

    public var destination: Destination
    public var source: GNSSSourceChoice
    public var format: Format
    public var language: Language
    public var maximumHorizontalError: Double?
    public var minimumMode: FixMode
    public var duration: Double?
    /// Stop after this many reports.
    public var count: Int?
    /// Stop on arrival.
    public var stopOnArrival: Bool
    /// Units of the text format; nil: `GPSD_UNITS`, else metric.
    public var units: UnitSystem?
    /// The heading (degrees from true north) at a monotonic time, when a compass is read; nil
    /// without one.
    public var heading: (@Sendable (Double) -> Double?)?
    /// Read the compass too (`--compass`): its true heading gives the relative bearing.
    public var compass: LiveRequest?
    /// How the destination is named on stderr ("Hoorn, North Holland, NL"); nil: its name.
    public var title: String?
    /// The longest wait for the first good fix, seconds (`--timeout`, exit 69); nil: no limit.
    public var timeout: Double?

    public init(destination: Destination, source: GNSSSourceChoice, format: Format = .text, language: Language = .en,
                maximumHorizontalError: Double? = nil, minimumMode: FixMode = .twoD, duration: Double? = nil,
                count: Int? = nil, stopOnArrival: Bool = false, units: UnitSystem? = nil,
                heading: (@Sendable (Double) -> Double?)? = nil) {
        self.destination = destination
        self.source = source
        self.format = format
        self.language = language
        self.maximumHorizontalError = maximumHorizontalError
        self.minimumMode = minimumMode
        self.duration = duration
        self.count = count
        self.stopOnArrival = stopOnArrival
        self.units = units
        self.heading = heading
    }
}

/// `lodestone goto`: from each fix, the way to a destination — distance and bearing (geodesic),
/// the turn from the compass heading, speed made good, time to go and cross-track error.
///
/// ```swift
/// try GotoSession.run(GotoRequest(destination: hoorn, source: .simulated, count: 5), runtime: runtime)
/// ```
public enum GotoSession {
    /// The CSV header: the guidance's keys, as in JSON.
    public static let csvHeader = ReportCSV.header(ReportJSON.guidanceKeys)

    public static func run(_ request: GotoRequest, runtime: Runtime) throws -> ExitCode {
        var guide = DestinationGuide(request.destination)
        let units = request.units ?? runtime.environment.units
        let out = runtime.output
        if request.format == .csv, !out.write(csvHeader) { return .success }
        let target = request.destination
        runtime.say((request.language == .en ? "going to " : "前往") + sanitize(request.title ?? target.name) + " ("
                    + plain(target.point.latitude) + ", " + plain(target.point.longitude) + ")")
        var reports = 0
        var arrivedSaid = false
        let gate = QualityGate(minimumMode: request.minimumMode, maximumHorizontalError: request.maximumHorizontalError)
        let body = { (fix: Fix, receivedAt: Double, heading: Double?) -> Bool in
            guard let lat = fix.lat, let lon = fix.lon, let point = try? GeoPoint(latitude: lat, longitude: lon) else { return true }
            let guidance = guide.update(at: point, time: receivedAt, speed: fix.speed, course: fix.course,
                                        heading: heading ?? request.heading?(receivedAt))
            let line: String
            switch request.format {
            case .csv: line = ReportCSV.row(ReportJSON.guidance(GuidanceRecord(fix, guidance)))
            case .json: line = ReportJSON.guidance(GuidanceRecord(fix, guidance)).serialized() + "\n"
            case .text: line = textLine(fix, guidance, target: target, language: request.language, units: units)
            }
            if !out.write(line) { return false }
            reports += 1
            if guidance.arrived && !arrivedSaid {
                arrivedSaid = true
                runtime.say((request.language == .en ? "arrived at " : "已到达") + sanitize(target.name))
                if request.stopOnArrival { return false }
            } else if !guidance.arrived && arrivedSaid && guidance.distance > target.radius * 1.5 {
                arrivedSaid = false
            }
            if let count = request.count, reports >= count { return false }
            return true
        }
        if let compass = request.compass {
            try withCompass(compass, gate: gate, duration: request.duration, timeout: request.timeout, runtime: runtime, body)
        } else {
            try FixLoop(source: request.source, gate: gate, duration: request.duration, timeout: request.timeout)
                .run(runtime: runtime) { fix, at in
                body(fix, at, nil)
            }
        }
        return .success
    }

    /// The fix loop with the compass read alongside (a `LiveSession`, as `watch` opens it, on the
    /// live loop): each new fix comes with the newest true heading (none until the declination is known).
    static func withCompass(_ request: LiveRequest, gate: QualityGate, duration: Double?, timeout: Double?, runtime: Runtime,
                            _ body: @escaping (Fix, Double, Double?) throws -> Bool) throws {
        let inbox = ControlInbox(runtime.events)
        let live = try LiveSession.open(request, runtime: runtime, inbox: inbox)
        defer { live.gnss?.stop() }
        try LiveLoop(live: live, runtime: runtime, inbox: inbox, rate: 20, duration: duration)
            .run([CompassFixes(gate: gate, timeout: timeout, runtime: runtime, body: body)])
    }

    /// `goto --compass`'s consumer: the GNSS state changes on stderr, each accepted fix with the true heading.
    final class CompassFixes: LiveConsumer {
        let gate: QualityGate
        let runtime: Runtime
        let body: (Fix, Double, Double?) throws -> Bool
        private var progress: GNSSProgress

        init(gate: QualityGate, timeout: Double?, runtime: Runtime, body: @escaping (Fix, Double, Double?) throws -> Bool) {
            self.gate = gate
            progress = GNSSProgress(gate: gate, timeout: timeout)
            self.runtime = runtime
            self.body = body
        }

        var turnInterval: Double { 0.05 }

        func gnss(_ update: GNSSUpdate, outcomes: [FixOutcome], loop: LiveLoop) throws -> LiveStep {
            if let source = loop.gnss { progress.observe(update, now: loop.time.monotonic(), source: source, runtime: runtime) }
            for received in update.fixes where gate.accepts(received.fix) {
                if try !body(received.fix, received.receivedAt, loop.live?.pipeline.estimate?.trueHeading) { return .finish }
            }
            return .proceed
        }

        func turn(_ loop: LiveLoop, now: Double) throws -> LiveStep {
            if let source = loop.gnss { try progress.check(now: now, source: source, runtime: runtime) }
            return .proceed
        }
    }

    static func textLine(_ fix: Fix, _ g: Guidance, target: Destination, language: Language, units: UnitSystem) -> String {
        var parts: [String] = [fix.time.map { utcClockTime($0) } ?? "--:--:--"]
        parts.append(formatGuidance(g, to: target.name, language: language, units: units))
        return parts.joined(separator: "  ") + "\n"
    }
}

/// One line of guidance: "Hoorn 3.20 km, bearing NE (45°); turn right 35°; 1.4 m/s made good,
/// ETA 38 min; 12 m right of track" / "Hoorn 3.20公里，方位东北（45°）；右转35°；…".
public func formatGuidance(_ g: Guidance, to name: String, language: Language = .en, units: UnitSystem = .metric) -> String {
    let en = language == .en
    let target = sanitize(name)
    if g.arrived { return en ? "arrived at " + target : "已到达" + target }
    var parts: [String] = []
    var head = target + (en ? " " : "") + formatDistance(g.distance, language: language, units: units)
    if let bearing = g.bearing {
        head += (en ? ", bearing " : "，方位") + formatBearing(bearing, style: .points16, language: language)
            + (en ? " (" : "（") + formatBearing(bearing, style: .degrees(decimals: 0)) + (en ? ")" : "）")
    }
    parts.append(head)
    if let turn = g.relativeBearing { parts.append(formatTurn(turn, language: language)) }
    if let vmg = g.speedMadeGood {
        var text = en ? formatSpeed(vmg, language: language, units: units) + " made good"
            : "有效速度" + formatSpeed(vmg, language: language, units: units)
        if let eta = g.timeToGo { text += (en ? ", ETA " : "，预计") + formatDuration(eta, language: language) }
        parts.append(text)
    }
    if let xte = g.crossTrackError, abs(xte) >= 0.5 {
        let off = formatDistance(abs(xte), language: language, units: units)
        parts.append(en ? off + (xte > 0 ? " right of track" : " left of track")
                        : (xte > 0 ? "偏航线右侧" : "偏航线左侧") + off)
    }
    return parts.joined(separator: en ? "; " : "；")
}

/// "turn right 35°", "turn left 10°", "ahead"; "右转35°", "左转10°", "正前方".
public func formatTurn(_ relative: Double, language: Language = .en) -> String {
    let degrees = Int(abs(relative).rounded())
    if degrees < 3 { return language == .en ? "ahead" : "正前方" }
    if degrees >= 178 { return language == .en ? "turn around" : "掉头" }
    switch language {
    case .en: return (relative > 0 ? "turn right " : "turn left ") + String(degrees) + "°"
    case .zh: return (relative > 0 ? "右转" : "左转") + String(degrees) + "°"
    }
}

/// "38 s", "12 min", "2 h 05 min", "3 d 04 h" (from 48 h on); "38秒", "12分钟", "2小时05分钟",
/// "3天04小时"; beyond 1,000 days (a crawl towards a far target) "over 1000 d", "超过1000天".
func formatDuration(_ seconds: Double, language: Language) -> String {
    guard seconds.isFinite, seconds >= 0 else { return "?" }
    let en = language == .en
    guard seconds < 1000 * 86_400 else { return en ? "over 1000 d" : "超过1000天" }
    let s = Int(seconds.rounded())
    if s < 60 { return String(s) + (en ? " s" : "秒") }
    let minutes = (s + 30) / 60
    if minutes < 60 { return String(minutes) + (en ? " min" : "分钟") }
    func twoDigits(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
    if minutes >= 48 * 60 {
        let hours = (minutes + 30) / 60
        return en ? "\(hours / 24) d \(twoDigits(hours % 24)) h" : "\(hours / 24)天\(twoDigits(hours % 24))小时"
    }
    let h = minutes / 60, m = minutes % 60
    return en ? "\(h) h \(twoDigits(m)) min" : "\(h)小时\(twoDigits(m))分钟"
}
