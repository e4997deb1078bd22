import Calibration
import Glibc
import Heading
import Linear
import Platform
import Simulation

/// A simulated drive or sail whose truth is known, run through the pipeline `heading --from-file`
/// builds, with and without `--refine`: the refinement's tests and `make bench` score it the same way.
///
/// ```swift
/// let trial = RefinementTrial(scenario: .car(), duration: 1200,
///                             changes: [FieldChange(field: Vector3(6, -5, 3), start: 300)])
/// let errors = trial.headingErrors(refine: true)
/// print(RefinementTrial.percentile95(errors, from: 840, to: 1200))
/// ```
public struct RefinementTrial: Sendable {
    public var recording: InertialRecording
    /// The board's distortion the profile calibrates exactly (before any change).
    public var board: MagnetometerModel
    /// Added to the profile's deviation card, when the test wants one (corrections per 15°, as stored).
    public var deviationCard: [Double]?
    /// Feed the pipeline the vehicle's ground track once a second, as a live session's GNSS fixes do
    /// (a replay has none).
    public var groundTrack = false
    /// Learn the deviation card from the ground track's course once a second (`--deviation learn`),
    /// starting from the profile's card (or none).
    public var learnsCard = false

    /// A soft-iron error in body axes that the profile does not model (identity: none): it leaves a
    /// heading-dependent residual that only a deviation card removes.
    public let unmodelled: Matrix3

    public init(scenario: AttitudeScenario, duration: Double, changes: [FieldChange] = [], rate: Double = 50,
                board: MagnetometerModel = .typicalBoard, unmodelled: Matrix3 = .identity, seed: UInt64 = 7) {
        var recording = InertialRecording(scenario: scenario, duration: duration, rate: rate, seed: seed)
        recording.model = MagnetometerModel(hardIron: board.hardIron, softIron: board.softIron * unmodelled)
        self.unmodelled = unmodelled
        recording.fieldChanges = changes
        self.recording = recording
        self.board = board
    }

    /// The profile calibrated before the change: the board's exact calibration (the noise as its residual).
    public var profile: CalibrationProfile {
        var p = CalibrationProfile(
            sensor: SensorIdentity(chip: "simulated"), offset: board.hardIron, matrix: board.softIron.inverse ?? .identity,
            fieldStrength: recording.world.field.norm,
            residualPercent: 100 * max(recording.magneticNoise, 0.1) / recording.world.field.norm, coveragePercent: 100,
            model: .full, created: "2026-01-01T00:00:00Z")
        if let card = deviationCard { p.deviation = DeviationCard(corrections: card) }
        return p
    }

    /// The deviation card (36 sectors) that removes the unmodelled error's heading-dependent residual for a
    /// level compass: at each compass heading, the true heading minus it.
    public var cardForUnmodelled: [Double] {
        let m = unmodelled
        func compass(_ psi: Double) -> Double {
            let v = Vector3(cos(radians(psi)), -sin(radians(psi)), 0)
            let d = m * v
            return degrees(atan2(-d.y, d.x))
        }
        return (0..<36).map { i in
            let c = Double(i) * 10
            var psi = c
            for _ in 0..<20 { psi -= angleDifference(compass(psi), c) }
            return angleDifference(psi, c)
        }
    }

    /// The pipeline's settings: the WMM at the simulated place (as `--location` gives it).
    public var settings: HeadingSettings {
        HeadingSettings(declinationSource: .location(latitude: recording.world.latitude, longitude: recording.world.longitude))
    }

    /// Unix time at the start (2026.0, the simulated world's field epoch).
    public static let startWall = 1_767_225_600.0

    /// The heading error (degrees, estimate − truth, magnetic) at each sample, with the pipeline's
    /// refinement report at the end.
    public func headingErrors(refine: Bool) -> (errors: [(time: Double, error: Double)], report: RefinementReport?) {
        var settings = self.settings
        if learnsCard { settings.deviation = .learn }
        let pipeline = HeadingPipeline(PipelineSetup(profile: profile, settings: settings,
                                                     refinement: refine ? HardIronRefinerSettings() : nil))
        var errors: [(time: Double, error: Double)] = []
        var nextFix = 1.0
        var previous: GroundTrack?
        for row in recording.rows() {
            if groundTrack || learnsCard, row.time >= nextFix, let track = recording.scenario.groundTrack(at: row.time) {
                if learnsCard {
                    _ = pipeline.observeCourse(CourseObservation(monotonic: row.time, course: track.course, courseError: 1,
                                                                 speed: track.speed))
                }
                if groundTrack, let p = previous, track.speed >= 1, p.speed >= 1 {
                    pipeline.observeGroundTrack(speed: track.speed, speedRate: track.speed - p.speed,
                                                courseRate: angleDifference(track.course, p.course), monotonic: row.time)
                }
                previous = track
                nextFix += 1
            }
            guard let e = pipeline.process(field: row.magnetometer, acceleration: row.accelerometer,
                                           rotationRate: row.gyroscope, monotonic: row.time,
                                           wall: Self.startWall + row.time) else { continue }
            errors.append((row.time, angleDifference(e.magneticHeading, row.magneticHeading)))
        }
        return (errors, pipeline.refinementReport)
    }

    /// The 95th percentile of |error| for samples with `from ≤ time < to`.
    public static func percentile95(_ errors: [(time: Double, error: Double)], from: Double, to: Double) -> Double {
        var a = errors.filter { $0.time >= from && $0.time < to }.map { abs($0.error) }
        guard !a.isEmpty else { return .nan }
        a.sort()
        return a[min(a.count - 1, Int((0.95 * Double(a.count)).rounded(.up)) - 1)]
    }
}
