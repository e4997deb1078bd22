import Calibration
import Geodesy
import GNSS
import Heading
import HeadingLog
import Linear
import Navigation
import Places
import Platform
import Sensors

/// Where a live session's position comes from.
public enum GNSSChoice: Sendable, Equatable {
    /// No position (`--no-gnss`).
    case none
    /// gpsd at this address.
    case gpsd(GpsdAddress)
    /// gpsd at the default address, or the simulated receiver when the sensors are simulated.
    case automatic
}

/// What `watch` and `log` open: the sensors, the calibration profile, the filter settings and the
/// GNSS source.
public struct LiveRequest: Sendable {
    public var sensors: SensorSelection
    /// `--calibration FILE`; nil: the sensor's profile in the default file.
    public var calibrationPath: String?
    public var heading: HeadingSettings
    public var gnss: GNSSChoice
    /// Minimum distance between movement reports, metres (0: every fix).
    public var distanceFilter: Double
    /// Regions whose enter and exit events the session reports (`--region`).
    public var regions: [Region] = []

    public init(sensors: SensorSelection, calibrationPath: String? = nil, heading: HeadingSettings = HeadingSettings(),
                gnss: GNSSChoice = .automatic, distanceFilter: Double = 5) {
        self.sensors = sensors
        self.calibrationPath = calibrationPath
        self.heading = heading
        self.gnss = gnss
        self.distanceFilter = distanceFilter
    }
}

/// What `watch` and `log` run while they are live: the sensor reader, the heading pipeline, the GNSS
/// source (its fixes set the declination, make movement reports and, opt-in, teach the deviation
/// card), and the log row built from both. The front ends only read its state.
///
/// ```swift
/// let live = try LiveSession.open(request, runtime: runtime, inbox: inbox)
/// live.pump()
/// live.pollGNSS()
/// if let e = live.pipeline.estimate { show(e) }
/// ```
public final class LiveSession {
    public let reader: MagnetometerReader
    public let pipeline: HeadingPipeline
    public let gnss: (any GNSSSource)?
    let time: any TimeSource
    public private(set) var tracker: MovementTracker
    /// The newest GNSS fix and when it arrived.
    public private(set) var latestFix: ReceivedFix?
    public private(set) var gnssState: GNSSState?
    /// The last few movement reports, newest last.
    public private(set) var reports: [MovementReport] = []
    /// The fix the last log row carried, and the distance travelled then, for the leg of the next.
    private var lastLoggedFix: Fix?
    private var travelledAtLastLoggedFix = 0.0
    /// The last fix with a speed and course, for the rates of change the attitude needs.
    private var lastGroundTrack: (time: Double, speed: Double, course: Double)?
    public private(set) var deviationLearned = 0
    public let learnsDeviation: Bool
    /// True when the sensor is the simulator's.
    public let simulated: Bool
    /// The regions watched (`--region`), and their events so far (the last 20, newest last).
    public var regionMonitor: RegionMonitor?
    public private(set) var regionEvents: [(event: RegionEvent, name: String)] = []
    /// Told each region event as it happens, in the order added (`onRegionEvent(_:)`).
    private var regionEventHandlers: [(RegionEvent, String) -> Void] = []

    public init(reader: MagnetometerReader, pipeline: HeadingPipeline, gnss: (any GNSSSource)?, time: any TimeSource,
                distanceFilter: Double, learnsDeviation: Bool, simulated: Bool) {
        self.reader = reader
        self.pipeline = pipeline
        self.simulated = simulated
        self.gnss = gnss
        self.time = time
        self.learnsDeviation = learnsDeviation
        tracker = MovementTracker(gate: QualityGate(), distanceFilter: distanceFilter)
        gnss?.start()
    }

    deinit { gnss?.stop() }

    /// Opens everything a live command needs: sensors, the calibration profile (said on stderr), the
    /// heading pipeline, and the GNSS source (the simulated receiver with simulated sensors, gpsd
    /// otherwise, none with `.none`). The reader waits through `inbox`, so a signal cuts its waits short.
    public static func open(_ request: LiveRequest, runtime: Runtime, inbox: ControlInbox) throws -> LiveSession {
        let source = try request.sensors.open(time: runtime.time)
        var (profile, description) = try loadProfile(for: source.info, explicitPath: request.calibrationPath,
                                                     simulated: source.isSimulated,
                                                     configFolder: runtime.environment.configFolder,
                                                     home: runtime.environment.value("HOME"))
        // A simulated vehicle's compass was calibrated where it is mounted.
        if profile == nil, request.calibrationPath == nil, request.sensors.simulatesVehicle, let rig = source.rig,
           let exact = simulatedBoardCalibration(setup: rig.setup, sensor: profileIdentity(for: source.info, simulated: true),
                                                 noise: source.info.noise, wall: runtime.time.wall()) {
            profile = exact
            description = "calibrated where it is mounted, as a vehicle's compass is (the simulated board's exact "
                + "calibration; 'lodestone calibrate --simulate' runs the wizard and saves its own)"
        }
        runtime.say("\(source.isSimulated ? "simulated " : "")\(source.info.summary); " + description)
        for note in source.info.notes { runtime.say("warning: " + note) }
        let reader = source.makeReader(clock: ReaderClock(runtime.time, inbox: inbox))
        let pipeline = HeadingPipeline(PipelineSetup(
            profile: profile, settings: request.heading, orientation: source.orientation,
            orientationGiven: request.sensors.orientationGiven, sensorNoise: source.info.noise))
        var gnss: (any GNSSSource)?
        switch request.gnss {
        case .none: gnss = nil
        case .gpsd(let address): gnss = GpsdClient(address: address)
        case .automatic:
            gnss = source.rig.map { simulatedGNSS(time: runtime.time, scenario: $0.setup.scenario) } ?? GpsdClient(address: .default)
        }
        let live = LiveSession(reader: reader, pipeline: pipeline, gnss: gnss, time: runtime.time,
                               distanceFilter: request.distanceFilter, learnsDeviation: request.heading.learnsDeviation,
                               simulated: source.isSimulated)
        if !request.regions.isEmpty { live.regionMonitor = RegionMonitor(regions: request.regions) }
        return live
    }

    /// Adds a handler told each region event (`--region`) with the region's name: the piped `watch`,
    /// `log` and `serve` say them on stderr, and `serve` publishes them.
    public func onRegionEvent(_ handler: @escaping (RegionEvent, String) -> Void) {
        regionEventHandlers.append(handler)
    }

    /// Reads every sample that is ready now (never blocks) and returns the newest estimate, if any.
    @discardableResult
    public func pump(limit: Int = 1000) -> HeadingEstimate? {
        var newest: HeadingEstimate?
        for _ in 0..<limit {
            guard let s = reader.poll() else { break }
            if let e = pipeline.process(s) { newest = e }
        }
        return newest
    }

    /// Waits up to `timeout` for the next sample, runs it and everything else that is ready through the
    /// pipeline, and returns the newest estimate made (nil when no sample came).
    @discardableResult
    public func next(timeout: Double) -> HeadingEstimate? {
        guard let sample = reader.next(timeout: timeout) else { return nil }
        let first = pipeline.process(sample)
        return pump() ?? first
    }

    /// Takes what the GNSS source has (never blocks) and feeds it on.
    public func pollGNSS() {
        guard let gnss else { return }
        let update = gnss.take(now: time.monotonic())
        gnssState = update.state
        for received in update.fixes {
            latestFix = received
            let fix = received.fix
            guard fix.hasPosition, let lat = fix.lat, let lon = fix.lon else { continue }
            pipeline.updateFix(latitude: lat, longitude: lon)
            if regionMonitor != nil, let point = try? GeoPoint(latitude: lat, longitude: lon),
               let events = regionMonitor?.update(at: point, horizontalError: fix.horizontalError, time: received.receivedAt) {
                for event in events {
                    let name = regionMonitor?.regions[event.region].name ?? ""
                    regionEvents.append((event, name))
                    for handler in regionEventHandlers { handler(event, name) }
                }
                if regionEvents.count > 20 { regionEvents.removeFirst(regionEvents.count - 20) }
            }
            if case .report(let report) = tracker.process(fix) {
                reports.append(report)
                if reports.count > 20 { reports.removeFirst(reports.count - 20) }
            }
            observeGroundTrack(fix, receivedAt: received.receivedAt)
            if learnsDeviation, let course = fix.course, let speed = fix.speed {
                if case .learned = pipeline.observeCourse(CourseObservation(
                    monotonic: received.receivedAt, course: course, courseError: fix.epd, speed: speed)) {
                    deviationLearned += 1
                }
            }
        }
        if update.latestIsStale, let latest = update.latest { latestFix = latest }
    }

    /// Speed and course from consecutive fixes give the vehicle's acceleration along and across its
    /// track. Only while moving (below 1 m/s a course is noise) and for fixes at most 5 s apart.
    private func observeGroundTrack(_ fix: Fix, receivedAt: Double) {
        guard let time = fix.time, let speed = fix.speed, let course = fix.course, speed.isFinite, course.isFinite else {
            lastGroundTrack = nil
            return
        }
        defer { lastGroundTrack = (time, speed, course) }
        guard let previous = lastGroundTrack, speed >= 1, previous.speed >= 1 else { return }
        let dt = time - previous.time
        guard dt > 0, dt <= 5 else { return }
        pipeline.observeGroundTrack(speed: speed, speedRate: (speed - previous.speed) / dt,
                                    courseRate: angleDifference(course, previous.course) / dt,
                                    monotonic: receivedAt)
    }

    /// The newest fix unless it is stale.
    public func currentFix() -> Fix? {
        guard let received = latestFix, !received.isStale(now: time.monotonic()) else { return nil }
        return received.fix
    }

    /// Forgets the movement track (the dashboard's r key).
    public func resetTrack() {
        tracker.reset()
        reports.removeAll()
        travelledAtLastLoggedFix = 0
    }

    /// The log row for the newest sample and estimate, with the current fix. `fix_distance_m` and
    /// `fix_bearing_deg` are set on the first row that carries a new fix: the distance travelled
    /// since the fix the previous such row carried (the odometer's, so the column sums to the
    /// distance travelled and jitter adds nothing) and the direction of that leg.
    public func logRow() -> LogRow? {
        guard let sample = pipeline.lastSample else { return nil }
        let e = pipeline.estimate
        var row = LogRow(time: sample.wall, monotonic: sample.monotonic, rawField: sample.field,
                         calibratedField: pipeline.profile == nil ? nil : pipeline.lastCalibrated, fieldStrength: e?.fieldStrength ?? sample.field.norm,
                         roll: e?.roll, pitch: e?.pitch, rawMagneticHeading: e?.rawMagneticHeading,
                         magneticHeading: e?.magneticHeading, declination: e?.declination,
                         declinationSource: e?.declinationSource.label, trueHeading: e?.trueHeading,
                         accuracy: e.flatMap { $0.isAccuracyAvailable ? $0.accuracy : nil },
                         flags: e?.flags.names ?? [],
                         acceleration: sample.acceleration, rotationRate: sample.rotationRate)
        if let fix = currentFix(), fix.hasPosition {
            row.gnssMode = fix.mode == .threeD ? "3d" : "2d"
            row.latitude = fix.lat
            row.longitude = fix.lon
            row.altitude = fix.altMSL   // one datum only: never the ellipsoid height in its place
            row.speed = fix.speed
            row.course = fix.course
            row.horizontalError = fix.horizontalError
            if fix != lastLoggedFix {
                // The leg follows the movement rules: the distance is what the odometer counted
                // (movement, not jitter), the bearing the leg's direction (none while stationary).
                if let previous = lastLoggedFix, let leg = Leg(from: previous, to: fix) {
                    row.fixDistance = max(0, tracker.totalDistance - travelledAtLastLoggedFix)
                    row.fixBearing = leg.direction
                }
                lastLoggedFix = fix
                travelledAtLastLoggedFix = tracker.totalDistance
            }
        }
        return row
    }

    /// Saves the learned deviation card into the sensor's profile (atomic; a corrupt file is left
    /// alone). Does nothing unless learning was asked for and something was learned.
    public func saveLearnedDeviation(explicitPath: String?, runtime: Runtime) throws {
        guard learnsDeviation, deviationLearned > 0 else { return }
        guard var profile = pipeline.profile else {
            runtime.say("the learned deviation card was not saved: there is no calibration profile to keep it in (run 'lodestone calibrate')")
            return
        }
        profile.deviation = DeviationCard(corrections: pipeline.filter.deviationTable.corrections)
        let store = try ProfileStore(path: explicitPath, configFolder: runtime.environment.configFolder)
        try store.save(profile)
        runtime.say("deviation card (\(deviationLearned) observations) saved to "
                    + abbreviatingHome(store.path, home: runtime.environment.value("HOME")))
    }
}

extension ReaderClock {
    /// The reader's clock on a session's time, waiting through the session's inbox (so signals cut
    /// waits short and a manual clock advances while the reader waits).
    public init(_ time: any TimeSource, inbox: ControlInbox) {
        self.init(monotonic: { time.monotonic() }, wall: { time.wall() }, sleep: { inbox.wait(seconds: $0) })
    }
}
