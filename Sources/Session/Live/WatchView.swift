import Geodesy
import GNSS
import Heading
import HeadingLog
import Navigation
import Places
import Platform
import Sensors
import Terminal

/// The dashboard side of `watch`: steps the live session, reacts to keys, and maps the estimate, the
/// GNSS fix and the movement reports onto the Terminal module's `DashboardState`.
final class WatchView {
    let live: LiveSession
    private var notice = ""
    private var lastLogged = -Double.infinity
    /// Rows per second written by `watch --log`.
    static let logRate = 10.0

    /// Units of the movement reports' distances and speeds.
    let units: UnitSystem

    /// Names where the fix is ("3.35 km NE of Hoorn, NL"); nil: not shown.
    let places: NearbySearch?
    private var lastPlace: (lat: Double, lon: Double, language: Language, text: String)?

    /// `watch --goto`: the destination's guidance, and its marker on the rose.
    private var guide: DestinationGuide?
    private var guided: (at: Double, guidance: Guidance)?

    init(live: LiveSession, units: UnitSystem = .metric, places: NearbySearch? = nil, destination: Destination? = nil) {
        self.live = live
        self.units = units
        self.places = places
        guide = destination.map { DestinationGuide($0) }
    }

    /// Reads every ready sample, takes GNSS fixes, and logs at `logRate`.
    func step(log: LogSession?) throws {
        live.pump()
        live.pollGNSS()
        if let log {
            if let sample = live.pipeline.lastSample, sample.monotonic - lastLogged >= 1 / Self.logRate,
               let row = live.logRow() {
                try log.append(row)
                lastLogged = sample.monotonic
            }
            try log.tick()
        }
    }

    func handle(_ action: KeyAction) {
        switch action {
        case .calibrate: notice = "to calibrate, quit (q) and run: lodestone calibrate"
        case .resetTrack:
            live.resetTrack()
            notice = "track reset"
        default: notice = ""
        }
    }

    func state(settings: DashboardSettings) -> DashboardState {
        let now = live.time.monotonic()
        let language = settings.language
        var state = DashboardState()
        let reader = live.reader
        let info = reader.magnetometer.info
        if let e = live.pipeline.estimate {
            state.magneticHeading = e.magneticHeading
            state.trueHeading = e.trueHeading
            let shown = settings.primary == .true ? (e.trueHeading ?? e.magneticHeading) : e.magneticHeading
            state.pointName = formatBearing(shown, style: .points16, language: language)
            state.quadrant = formatBearing(shown, style: .quadrant(decimals: 0), language: language)
            state.accuracy = e.isAccuracyAvailable ? e.accuracy : nil
            state.disturbance = disturbance(of: e)
            state.declination = e.declination
            state.declinationSource = sourceText(e.declinationSource)
            state.fieldStrength = e.fieldStrength
            state.roll = e.roll
            state.pitch = e.pitch
            state.rollAccuracy = e.rollAccuracy
            state.pitchAccuracy = e.pitchAccuracy
            state.rateOfTurn = e.flags.contains(.gyroAided) ? e.turnRate : nil
        }
        let simulated = live.simulated
        state.sensor = SensorPanel(
            chip: info.chip.displayName + (simulated ? " (simulated)" : ""), bus: info.bus,
            address: Int(info.address), rateHz: info.outputRate, errorCount: reader.counters.errors,
            status: reader.statusMessage ?? (live.pipeline.profile == nil ? "ok, uncalibrated" : "ok, calibrated"))
        if let gnss = live.gnss {
            state.gnss = gnssPanel(source: gnss, now: now)
            state.gnss?.place = placeText(language: language)
        }
        state.reports = live.reports.suffix(6).map { report in
            sanitize(formatReportSummary(report, style: .quadrant(decimals: 0), language: language, units: units))
        }
        if let refinement = live.pipeline.refinementReport { state.reports.append(refinement.line) }
        if let guide, let g = guidance() {
            // The marker in the shown heading's reference; the turn from the true heading.
            if let bearing = g.bearing {
                if state.shownHeading?.reference == .true {
                    state.targetBearing = bearing
                } else if let declination = live.pipeline.estimate?.declination {
                    state.targetBearing = bearing - declination
                }
            }
            var shown = g
            shown.relativeBearing = live.pipeline.estimate?.trueHeading.flatMap { h in g.bearing.map { relativeAngle($0 - h) } }
            state.reports.append("→ " + formatGuidance(shown, to: guide.destination.name, language: language, units: units))
        }
        // A receiver's time that cannot be trusted (the piped commands say it on stderr).
        if let problem = live.fixTimeProblem { state.reports.append(problem.summary + " (rows keep the system's time)") }
        // The newest region event (--region) while there is no other notice.
        if notice.isEmpty, let last = live.regionEvents.last {
            state.notice = formatRegionEvent(last.event.kind, region: last.name, distance: last.event.distance,
                                             language: language, units: units)
        } else {
            state.notice = notice
        }
        return state
    }

    private func gnssPanel(source: any GNSSSource, now: Double) -> GNSSPanel {
        var panel = GNSSPanel(connection: live.gnssState.map { describe($0, source: source) } ?? "starting")
        if let received = live.latestFix {
            let fix = received.fix
            panel.fixMode = fix.mode == .threeD ? "3D" : (fix.mode == .twoD ? "2D" : "no fix")
            panel.latitude = fix.lat
            panel.longitude = fix.lon
            panel.speed = fix.speed
            panel.course = fix.course
            panel.horizontalError = fix.horizontalError
            panel.ageSeconds = now - received.receivedAt
            panel.stale = received.isStale(now: now)
        } else {
            panel.fixMode = "no fix"
        }
        return panel
    }

    /// The guidance from the newest fix (updated once per fix).
    private func guidance() -> Guidance? {
        guard guide != nil, let received = live.latestFix else { return guided?.guidance }
        if let guided, guided.at == received.receivedAt { return guided.guidance }
        let fix = received.fix
        guard let lat = fix.lat, let lon = fix.lon, let point = try? GeoPoint(latitude: lat, longitude: lon),
              let g = guide?.update(at: point, time: received.receivedAt, speed: fix.speed, course: fix.course) else {
            return guided?.guidance
        }
        guided = (received.receivedAt, g)
        return g
    }

    /// The nearest place to the latest fix, said in the dashboard's language (recomputed only when
    /// the fix or the language changes).
    private func placeText(language: Language) -> String {
        guard let places, let fix = live.latestFix?.fix, let lat = fix.lat, let lon = fix.lon,
              let point = try? GeoPoint(latitude: lat, longitude: lon) else { return "" }
        if let last = lastPlace, last.lat == lat, last.lon == lon, last.language == language { return last.text }
        let text = places.nearest(to: point, count: 1).first.map {
            formatNearby($0, town: places.town(near: point, beside: $0), language: language, units: units)
        } ?? ""
        lastPlace = (lat, lon, language, text)
        return text
    }

    private func disturbance(of e: HeadingEstimate) -> Disturbance {
        if e.flags.contains(.blackout) {
            return Disturbance(level: .severe, text: "WMM blackout zone: the horizontal field is too weak for a compass")
        }
        if e.flags.contains(.disturbed) {
            return Disturbance(level: .warning, text: "magnetic disturbance: field \(fixed(e.fieldStrength, 1)) µT — steel or a magnet nearby?")
        }
        if e.flags.contains(.caution) {
            return Disturbance(level: .warning, text: "WMM caution zone: weak horizontal field")
        }
        if e.flags.contains(.tiltHeld) {
            return Disturbance(level: .warning, text: "accelerating: tilt held")
        }
        return Disturbance()
    }
}

/// How the dashboard and plain lines name a declination source.
func sourceText(_ source: DeclinationSource) -> String {
    switch source {
    case .wmm: return "WMM at GNSS fix"
    case .location: return "WMM at --location"
    case .manual: return "manual (--declination)"
    case .none: return "none: give --location, --declination or a GNSS fix"
    }
}

/// The piped form of an estimate:
/// "123.4° SE  true 136.2°  ±1.1°  declination +12.8° (wmm)".
func plainLine(_ e: HeadingEstimate, language: Language) -> String {
    var line = formatHeadingLine(e.magneticHeading)
    if language == .zh {
        line = line.split(separator: " ")[0] + " " + formatBearing(e.magneticHeading, style: .points16, language: .zh)
    }
    if let t = e.trueHeading {
        line += "  true \(fixed(headingToTenths(t), 1))°"
    } else {
        line += "  true --"
    }
    line += e.isAccuracyAvailable ? "  ±\(fixed(e.accuracy, 1))°" : "  ±--"
    if let d = e.declination {
        line += "  declination \(d >= 0 ? "+" : "")\(fixed(d, 1))° (\(e.declinationSource.label))"
    } else {
        line += "  no declination"
    }
    if e.flags.contains(.disturbed) { line += "  DISTURBED" }
    if e.flags.contains(.blackout) { line += "  BLACKOUT" }
    return line
}
