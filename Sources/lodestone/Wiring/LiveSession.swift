import Geodesy
import GNSS
import Heading
import HeadingLog
import Navigation
import Platform
import Sensors

/// What `watch` and `log` run while they are live: the heading pipeline, the GNSS source (its fixes
/// set the declination, make movement reports and, opt-in, teach the deviation card), and the log row
/// built from both. The front ends only read its state.
final class LiveSession {
    let pipeline: HeadingPipeline
    let gnss: (any GNSSSource)?
    private(set) var tracker: MovementTracker
    /// The newest GNSS fix and when it arrived.
    private(set) var latestFix: ReceivedFix?
    private(set) var gnssState: GNSSState?
    /// The last few movement reports, newest last.
    private(set) var reports: [MovementReport] = []
    /// The fix the last log row carried, for the distance and bearing of the next new one.
    private var lastLoggedFix: Fix?
    private(set) var deviationLearned = 0
    let learnsDeviation: Bool
    /// True when the sensor is the simulator's.
    let simulated: Bool

    init(pipeline: HeadingPipeline, gnss: (any GNSSSource)?, distanceFilter: Double, learnsDeviation: Bool,
         simulated: Bool) {
        self.pipeline = pipeline
        self.simulated = simulated
        self.gnss = gnss
        self.learnsDeviation = learnsDeviation
        tracker = MovementTracker(gate: QualityGate(), distanceFilter: distanceFilter)
        gnss?.start()
    }

    deinit { gnss?.stop() }

    /// Takes what the GNSS source has (never blocks) and feeds it on.
    func pollGNSS(now: Double) {
        guard let gnss else { return }
        let update = gnss.take(now: now)
        gnssState = update.state
        for received in update.fixes {
            latestFix = received
            let fix = received.fix
            guard fix.hasPosition, let lat = fix.lat, let lon = fix.lon else { continue }
            pipeline.updateFix(latitude: lat, longitude: lon)
            if case .report(let report) = tracker.process(fix) {
                reports.append(report)
                if reports.count > 20 { reports.removeFirst(reports.count - 20) }
            }
            if learnsDeviation, let course = fix.course, let speed = fix.speed {
                if case .learned = pipeline.observeCourse(CourseObservation(
                    monotonic: received.receivedAt, course: course, courseError: fix.epd, speed: speed)) {
                    deviationLearned += 1
                }
            }
        }
        if update.latestIsStale, let latest = update.latest { latestFix = latest }
    }

    /// The newest fix unless it is stale.
    func currentFix(now: Double) -> Fix? {
        guard let received = latestFix, !received.isStale(now: now) else { return nil }
        return received.fix
    }

    /// Forgets the movement track (the dashboard's r key).
    func resetTrack() {
        tracker.reset()
        reports.removeAll()
    }

    /// The log row for the newest sample and estimate, with the current fix. `fix_distance_m` and
    /// `fix_bearing_deg` are set on the first row that carries a new fix: the geodesic from the fix the
    /// previous such row carried, so their sum is the distance travelled.
    func logRow(now: Double) -> LogRow? {
        guard let sample = pipeline.lastSample else { return nil }
        let e = pipeline.estimate
        var row = LogRow(time: sample.wall, monotonic: sample.monotonic, rawField: sample.field,
                         calibratedField: pipeline.profile == nil ? nil : pipeline.lastCalibrated, fieldStrength: e?.fieldStrength ?? sample.field.norm,
                         roll: e?.roll, pitch: e?.pitch, rawMagneticHeading: e?.rawMagneticHeading,
                         magneticHeading: e?.magneticHeading, declination: e?.declination,
                         declinationSource: e?.declinationSource.label, trueHeading: e?.trueHeading,
                         accuracy: e.flatMap { $0.isAccuracyAvailable ? $0.accuracy : nil },
                         flags: e?.flags.names ?? [])
        if let fix = currentFix(now: now), fix.hasPosition {
            row.gnssMode = fix.mode == .threeD ? "3d" : "2d"
            row.latitude = fix.lat
            row.longitude = fix.lon
            row.altitude = fix.altMSL ?? fix.altHAE
            row.speed = fix.speed
            row.course = fix.course
            row.horizontalError = fix.horizontalError
            if fix != lastLoggedFix {
                if let previous = lastLoggedFix, let plat = previous.lat, let plon = previous.lon,
                   let lat = fix.lat, let lon = fix.lon,
                   let a = try? GeoPoint(latitude: plat, longitude: plon), let b = try? GeoPoint(latitude: lat, longitude: lon) {
                    let leg = Geodesic.inverse(a, b)
                    row.fixDistance = leg.distance
                    row.fixBearing = leg.azimuth1
                }
                lastLoggedFix = fix
            }
        }
        return row
    }
}
