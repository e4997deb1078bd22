import Geodesy
import GNSS
import JSON
import Outputs
import Navigation
import Places
import Platform

/// What `lodestone regions` was asked to do.
public struct RegionsRequest: Sendable {
    public enum Format: String, Sendable, CaseIterable { case csv, text, json }

    public var regions: [Region]
    public var source: GNSSSourceChoice
    public var format: Format
    public var language: Language
    /// Seconds inside before a dwell event.
    public var dwell: Double?
    public var maximumHorizontalError: Double?
    public var minimumMode: FixMode
    public var duration: Double?
    public var onEnter: String?
    public var onExit: String?
    public var units: UnitSystem?
    /// `--hook-jobs` and `--hook-timeout`: how many hooks run at once, and for how long.
    public var hookLimits: HookRunner.Limits
    /// The longest wait for the first good fix, seconds (`--timeout`, exit 69); nil: no limit.
    public var timeout: Double?

    public init(regions: [Region], source: GNSSSourceChoice, format: Format = .csv, language: Language = .en,
                dwell: Double? = nil, maximumHorizontalError: Double? = nil, minimumMode: FixMode = .twoD,
                duration: Double? = nil, onEnter: String? = nil, onExit: String? = nil, units: UnitSystem? = nil,
                hookLimits: HookRunner.Limits = HookRunner.Limits(), timeout: Double? = nil) {
        self.hookLimits = hookLimits
        self.timeout = timeout
        self.regions = regions
        self.source = source
        self.format = format
        self.language = language
        self.dwell = dwell
        self.maximumHorizontalError = maximumHorizontalError
        self.minimumMode = minimumMode
        self.duration = duration
        self.onEnter = onEnter
        self.onExit = onExit
        self.units = units
    }
}

/// `lodestone regions`: enter, exit and dwell events for circular regions, from GNSS fixes, with
/// hysteresis by each fix's horizontal error (`RegionMonitor`).
///
/// ```swift
/// try RegionsSession.run(RegionsRequest(regions: [home], source: .simulated, duration: 60), runtime: runtime)
/// ```
public enum RegionsSession {
    /// The CSV header: the region event's keys, as in JSON.
    public static let csvHeader = ReportCSV.header(ReportJSON.regionKeys)

    /// The `LODESTONE_*` variables a hook gets besides the inherited environment, with what each holds.
    public static let hookEnvironment: [(String, String)] = [
        ("LODESTONE_REGION", "the region's name"),
        ("LODESTONE_EVENT", "enter or exit"),
        ("LODESTONE_TIME", "the row's time in ISO 8601 UTC, empty when there is none"),
        ("LODESTONE_LAT", "the fix's latitude, degrees"),
        ("LODESTONE_LON", "the fix's longitude, degrees"),
        ("LODESTONE_DISTANCE_M", "the distance from the region's centre, metres"),
    ]

    /// `processes` replaces the system's hook processes (tests).
    public static func run(_ request: RegionsRequest, runtime: Runtime,
                           processes: any HookProcesses = SystemHookProcesses()) throws -> ExitCode {
        guard !request.regions.isEmpty else {
            throw InvalidRequest("no regions: give --region NAME:LAT,LON,RADIUS_M, or add places with 'lodestone places add'")
        }
        var monitor = RegionMonitor(regions: request.regions, dwell: request.dwell)
        let out = runtime.output
        if request.format == .csv, !out.write(csvHeader) { return .success }
        let units = request.units ?? runtime.environment.units
        let loop = FixLoop(source: request.source,
                           gate: QualityGate(minimumMode: request.minimumMode, maximumHorizontalError: request.maximumHorizontalError),
                           duration: request.duration, timeout: request.timeout)
        let hooks = HookRunner(limits: request.hookLimits, processes: processes, time: runtime.time, say: runtime.say)
        defer { hooks.finish() }
        try loop.run(runtime: runtime, tick: { hooks.poll() }) { fix, receivedAt in
            guard let lat = fix.lat, let lon = fix.lon, let point = try? GeoPoint(latitude: lat, longitude: lon) else { return true }
            for event in monitor.update(at: point, horizontalError: fix.horizontalError, time: receivedAt) {
                let region = request.regions[event.region]
                let time = fix.time.map { ISO8601.format($0) } ?? ""
                let line: String
                let record = ReportJSON.region(RegionReport(
                    wall: fix.time, region: region.name, event: event.kind.rawValue, latitude: lat, longitude: lon,
                    distance: event.distance))
                switch request.format {
                case .csv:
                    line = ReportCSV.row(record)
                case .json:
                    line = record.serialized() + "\n"
                case .text:
                    line = (fix.time.map { utcClockTime($0) } ?? "--:--:--") + "  "
                        + formatRegionEvent(event.kind, region: region.name, distance: event.distance,
                                            language: request.language, units: units) + "\n"
                }
                if !out.write(line) { return false }
                let command = event.kind == .enter ? request.onEnter : (event.kind == .exit ? request.onExit : nil)
                if let command {
                    hooks.run(command, key: region.name, environment: [
                        ("LODESTONE_REGION", region.name), ("LODESTONE_EVENT", event.kind.rawValue),
                        ("LODESTONE_TIME", time), ("LODESTONE_LAT", plain(lat)), ("LODESTONE_LON", plain(lon)),
                        ("LODESTONE_DISTANCE_M", plain(event.distance, decimals: 3)),
                    ])
                }
            }
            return true
        }
        return .success
    }
}

/// "entered home (12 m from its centre)", "left home", "inside home", "outside home", "in home
/// for the dwell time"; Chinese "进入home", "离开home", "在home内", "在home外", "在home停留".
public func formatRegionEvent(_ kind: RegionEventKind, region: String, distance: Double, language: Language = .en,
                              units: UnitSystem = .metric) -> String {
    let name = sanitize(region)
    let d = formatDistance(distance, language: language, units: units)
    switch language {
    case .en:
        let verb = ["inside": "inside ", "outside": "outside ", "enter": "entered ", "exit": "left ",
                    "dwell": "staying in "][kind.rawValue] ?? ""
        return verb + name + " (" + d + " from its centre)"
    case .zh:
        switch kind {
        case .inside: return "在" + name + "内（距中心" + d + "）"
        case .outside: return "在" + name + "外（距中心" + d + "）"
        case .enter: return "进入" + name + "（距中心" + d + "）"
        case .exit: return "离开" + name + "（距中心" + d + "）"
        case .dwell: return "在" + name + "停留（距中心" + d + "）"
        }
    }
}

/// Has a live session say its region events (`--region`) on stderr, with the time of day.
func sayRegionEvents(_ live: LiveSession, runtime: Runtime, language: Language, units: UnitSystem) {
    guard live.regionMonitor != nil else { return }
    live.onRegionEvent { event, name in
        runtime.say("region " + formatRegionEvent(event.kind, region: name, distance: event.distance,
                                                  language: language, units: units))
    }
}
