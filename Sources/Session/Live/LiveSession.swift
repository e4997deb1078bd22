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

    /// The request with the chip read only as fast as a service updating at `rate` needs: at `rate`,
    /// and at least `SensorSelection.serviceSampleRate` (`serve`, `log`). A chip's default rate was
    /// the fastest it offers (200 Hz for the QMC5883L); each sample costs the reader a wake-up and an
    /// I²C read, and four of them per update were most of `serve`'s CPU.
    public func sampled(forUpdateRate rate: Double) -> LiveRequest {
        var request = self
        if request.sensors.outputRate == nil { request.sensors.outputRate = max(rate, SensorSelection.serviceSampleRate) }
        return request
    }
}

/// What `watch`, `log` and `serve` run while they are live: the sensor reader, the heading pipeline,
/// the GNSS source, the per-fix stage (`FixStage`: declination, movement, regions, ground track,
/// course) and the log row built from both. `LiveLoop` drives it; the front ends only read its state.
///
/// ```swift
/// let live = try LiveSession.open(request, runtime: runtime, inbox: inbox)
/// live.pump()
/// live.apply(gnss.take(now: clock.monotonic()))
/// if let e = live.pipeline.estimate { show(e) }
/// ```
public final class LiveSession {
    public let reader: MagnetometerReader
    public let pipeline: HeadingPipeline
    public let gnss: (any GNSSSource)?
    let time: any TimeSource
    /// The per-fix stage: tracker, regions, ground track.
    public private(set) var fixStage: FixStage
    public var tracker: MovementTracker { fixStage.tracker }
    /// The newest GNSS fix and when it arrived.
    /// Not checked for exclusivity at run time (read at every update): set only by `apply`, which
    /// calls nothing while it sets it, and read as a copy.
    @exclusivity(unchecked) public private(set) var latestFix: ReceivedFix?
    public private(set) var gnssState: GNSSState?
    /// The last few movement reports, newest last.
    public private(set) var reports: [MovementReport] = []
    /// The fix the last log row carried, and the distance travelled then, for the leg of the next.
    private var lastLoggedFix: Fix?
    private var travelledAtLastLoggedFix = 0.0
    /// `--refine`: the refinement as the last log row carried it (its flags say each change once).
    private var lastLoggedRefinement: RefinementFlags?
    public private(set) var deviationLearned = 0
    public var learnsDeviation: Bool { fixStage.learnsDeviation }
    /// True when the sensor is the simulator's.
    public let simulated: Bool
    /// The regions watched (`--region`), nil when none.
    public var regionMonitor: RegionMonitor? { fixStage.regionMonitor }
    /// The region events so far (the last 20, newest last).
    public private(set) var regionEvents: [(event: RegionEvent, name: String)] = []
    /// Told each region event as it happens, in the order added (`onRegionEvent(_:)`).
    private var regionEventHandlers: [(RegionEvent, String) -> Void] = []
    /// Told each sample after the pipeline has run it, with the estimate it made (`onSample(_:)`).
    private var sampleHandlers: [(MagnetometerSample, HeadingEstimate?) -> Void] = []
    /// The fixes' times against the system clock: what stamps them, and what is wrong with them.
    private var fixTimes: FixTimes
    /// What is wrong with the newest fix's time (more than a day from the system clock, or going
    /// backwards), nil when it can be trusted; the log rows that carry the fix are flagged with it.
    public private(set) var fixTimeProblem: FixTimeCheck.Problem?
    /// Told, once for each kind, when a fix's time cannot be trusted (`onFixTimeProblem(_:)`).
    private var fixTimeHandlers: [(String) -> Void] = []

    public init(reader: MagnetometerReader, pipeline: HeadingPipeline, gnss: (any GNSSSource)?, time: any TimeSource,
                distanceFilter: Double, learnsDeviation: Bool, simulated: Bool, regions: [Region] = []) {
        self.reader = reader
        self.pipeline = pipeline
        self.simulated = simulated
        self.gnss = gnss
        self.time = time
        fixStage = FixStage(distanceFilter: distanceFilter, learnsDeviation: learnsDeviation, regions: regions)
        fixTimes = FixTimes(time: time)
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
                                                     home: runtime.environment.value("HOME"),
                                                     standardInput: runtime.standardInputPath)
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
        case .gpsd(let address): gnss = GpsdClient(address: address, time: runtime.time)
        case .automatic:
            gnss = source.rig.map {
                simulatedGNSS(time: runtime.time, scenario: $0.setup.scenario,
                              start: ($0.setup.world.latitude, $0.setup.world.longitude))
            } ?? GpsdClient(address: .default, time: runtime.time)
        }
        return LiveSession(reader: reader, pipeline: pipeline, gnss: gnss, time: runtime.time,
                           distanceFilter: request.distanceFilter, learnsDeviation: request.heading.learnsDeviation,
                           simulated: source.isSimulated, regions: request.regions)
    }

    /// Adds a handler told each region event (`--region`) with the region's name: the piped `watch`,
    /// `log` and `serve` say them on stderr, and `serve` publishes them.
    public func onRegionEvent(_ handler: @escaping (RegionEvent, String) -> Void) {
        regionEventHandlers.append(handler)
    }

    /// Adds a handler told each sample once the pipeline has run it, with the estimate it made (nil
    /// while the filter starts): the hook for work per sample beside the heading.
    public func onSample(_ handler: @escaping (MagnetometerSample, HeadingEstimate?) -> Void) {
        sampleHandlers.append(handler)
    }

    /// Adds a handler told, once for each kind of problem, that the receiver's time cannot be
    /// trusted (`FixTimeCheck`): the piped `watch`, `log` and `serve` say it on stderr; the
    /// dashboard shows `fixTimeProblem` instead.
    public func onFixTimeProblem(_ handler: @escaping (String) -> Void) {
        fixTimeHandlers.append(handler)
    }

    /// Runs one sample through the pipeline and the sample handlers.
    private func process(_ sample: MagnetometerSample) -> HeadingEstimate? {
        let estimate = pipeline.process(sample)
        for handler in sampleHandlers { handler(sample, estimate) }
        return estimate
    }

    /// Reads every sample that is ready now (never blocks) and returns the newest estimate, if any.
    @discardableResult
    public func pump(limit: Int = 1000) -> HeadingEstimate? {
        var newest: HeadingEstimate?
        for _ in 0..<limit {
            guard let s = reader.poll() else { break }
            if let e = process(s) { newest = e }
        }
        return newest
    }

    /// Waits up to `timeout` for the next sample, runs it and everything else that is ready through the
    /// pipeline, and returns the newest estimate made (nil when no sample came).
    @discardableResult
    public func next(timeout: Double) -> HeadingEstimate? {
        guard let sample = reader.next(timeout: timeout) else { return nil }
        let first = process(sample)
        return pump() ?? first
    }

    /// Samples read but not yet run through the pipeline (`gather(timeout:)`), oldest first.
    private var gathered: [MagnetometerSample] = []
    /// The most samples `gather` keeps before they must be run (`gatheredCount` says how many wait).
    public static let gatherLimit = 256

    /// Waits up to `timeout` for the next sample and keeps it, and every other one ready, for
    /// `runGathered` (the pipeline runs later, a batch at a time, while its code is still in the
    /// cache: `log`, whose rows nobody waits for). True when a sample came.
    @discardableResult
    public func gather(timeout: Double) -> Bool {
        if gathered.capacity == 0 { gathered.reserveCapacity(Self.gatherLimit) }
        guard let sample = reader.next(timeout: timeout) else { return false }
        gathered.append(sample)
        while gathered.count < Self.gatherLimit, let s = reader.poll() { gathered.append(s) }
        return true
    }

    /// Samples gathered and not yet run.
    public var gatheredCount: Int { gathered.count }

    /// Runs the gathered samples through the pipeline, oldest first, calling `after` with each
    /// sample's time once it has run (false from `after` stops: the rest are dropped).
    public func runGathered(_ after: (Double) throws -> Bool) rethrows {
        defer { gathered.removeAll(keepingCapacity: true) }
        for sample in gathered {
            _ = process(sample)
            guard try after(sample.monotonic) else { return }
        }
    }

    /// Takes what the GNSS source has (never blocks) and feeds it on; returns each fix's outcome.
    @discardableResult
    public func pollGNSS() -> [FixOutcome] {
        guard let gnss else { return [] }
        return apply(gnss.take(now: time.monotonic()))
    }

    /// Runs each new fix of `update` through the per-fix stage and applies what it says: the
    /// declination's position, the ground-track motion and the course observation to the pipeline,
    /// the movement report and region events to the session's lists (and the region handlers).
    /// Each fix's time is checked against the system clock first (`FixTimes`): the fix kept as the
    /// newest carries the time to stamp outputs with (the system's when its clock is synchronised
    /// or the receiver's time is not to be trusted); the per-fix stage keeps the receiver's own,
    /// whose differences time the ground track best.
    @discardableResult
    public func apply(_ update: GNSSUpdate) -> [FixOutcome] {
        gnssState = update.state
        var outcomes: [FixOutcome] = []
        for received in update.fixes {
            let handlers = fixTimeHandlers
            let observed = fixTimes.observe(received.fix, receivedAt: received.receivedAt) { text in
                for handler in handlers { handler(text) }
            }
            var stamped = received
            stamped.fix.time = observed.stamp
            latestFix = stamped
            fixTimeProblem = observed.problem
            let outcome = fixStage.process(received)
            apply(outcome)
            outcomes.append(outcome)
        }
        // A stale fix already taken keeps its stamped time.
        if update.latestIsStale, let latest = update.latest, latest.receivedAt != latestFix?.receivedAt { latestFix = latest }
        return outcomes
    }

    private func apply(_ outcome: FixOutcome) {
        guard let position = outcome.position else { return }
        pipeline.updateFix(latitude: position.latitude, longitude: position.longitude)
        for (event, name) in outcome.regionEvents {
            regionEvents.append((event, name))
            for handler in regionEventHandlers { handler(event, name) }
        }
        if regionEvents.count > 20 { regionEvents.removeFirst(regionEvents.count - 20) }
        if let report = outcome.report {
            reports.append(report)
            if reports.count > 20 { reports.removeFirst(reports.count - 20) }
        }
        if let g = outcome.groundTrack {
            pipeline.observeGroundTrack(speed: g.speed, speedRate: g.speedRate, courseRate: g.courseRate, monotonic: g.monotonic)
        }
        if let course = outcome.course, case .learned = pipeline.observeCourse(course) { deviationLearned += 1 }
    }

    /// The newest fix unless it is stale (now, or at `now` when the caller has just read the clock).
    public func currentFix(at now: Double? = nil) -> Fix? {
        guard let received = latestFix, !received.isStale(now: now ?? time.monotonic()) else { return nil }
        return received.fix
    }

    /// Forgets the movement track (the dashboard's r key).
    public func resetTrack() {
        fixStage.resetTrack()
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
                         acceleration: sample.acceleration, rotationRate: sample.rotationRate,
                         rollAccuracy: e?.rollAccuracy, pitchAccuracy: e?.pitchAccuracy)
        if let report = pipeline.refinementReport {
            let now = RefinementFlags(report)
            if now != lastLoggedRefinement { row.flags += now.words }
            lastLoggedRefinement = now
        }
        if let fix = currentFix(), fix.hasPosition {
            row.setFix(fix)   // the outputs' one mapping (OutputMapping): mode label, altitude above MSL only
            // A row carrying a fix whose time cannot be trusted says so (gnssTimeOff, gnssTimeBackwards).
            if let problem = fixTimeProblem { row.flags.append(problem.flag) }
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
