import Calibration
import Heading
import Linear
import Options
import Platform
import Sensors

/// The filter stage as the commands run it: reader samples → calibration profile → mounting yaw →
/// `HeadingFilter` → `HeadingEstimate`. `watch`, `log` and the benchmarks share it, so every front end
/// sees the same numbers.
///
/// ```swift
/// let pipeline = try HeadingPipeline(source: source, reader: reader, options: try HeadingOptions(arguments))
/// if let estimate = pipeline.process(sample) { show(estimate) }
/// ```
final class HeadingPipeline {
    let reader: MagnetometerReader
    let profile: CalibrationProfile?
    /// Extra rotation applied after the reader's orientation: the profile's custom mounting and its
    /// heading-alignment yaw.
    let correction: Matrix3?
    private(set) var filter: HeadingFilter
    private(set) var estimate: HeadingEstimate?
    private(set) var lastSample: MagnetometerSample?
    private(set) var lastCalibrated: Vector3?
    private(set) var sampleCount = 0

    init(reader: MagnetometerReader, profile: CalibrationProfile?, configuration: HeadingFilterConfiguration,
         userOrientation: Bool) {
        self.reader = reader
        self.profile = profile
        var config = configuration
        if let profile {
            // The profile's fit residual (percent of its field) as an absolute error in µT.
            config.calibrationResidualMicrotesla = profile.residualField()
            if let card = profile.deviation, config.deviationMode != .off,
               let table = try? DeviationTable(corrections: card.corrections) {
                config.deviationTable = table
            }
        } else {
            config.calibrationResidualMicrotesla = uncalibratedResidualMicrotesla
        }
        config.noiseMicrotesla = max(config.noiseMicrotesla, reader.magnetometer.info.noise)
        filter = HeadingFilter(configuration: config)
        correction = HeadingPipeline.correction(profile: profile, orientation: reader.orientation,
                                                userOrientation: userOrientation)
    }

    /// The rotation that the profile adds: its custom mounting (unless --orientation was given) and a
    /// yaw that turns the heading by the stored alignment offset.
    static func correction(profile: CalibrationProfile?, orientation: MountingOrientation,
                           userOrientation: Bool) -> Matrix3? {
        guard let profile else { return nil }
        var m: Matrix3?
        if let mounting = profile.mounting, !userOrientation {
            m = mounting * orientation.matrix.transposed
        }
        if let yaw = profile.yawOffsetDegrees, yaw.isFinite, yaw != 0 {
            // Rotating the body vectors by −yaw about z adds +yaw to atan2(−y, x).
            let rz = Matrix3.rotation(roll: 0, pitch: 0, yaw: radians(-yaw))
            m = rz * (m ?? .identity)
        }
        return m
    }

    /// Runs one reader sample through calibration and the filter.
    @discardableResult
    func process(_ sample: MagnetometerSample) -> HeadingEstimate? {
        lastSample = sample
        var magnetic = profile.map { $0.apply(sample.field) } ?? sample.field
        var acceleration = sample.acceleration.map { a in profile?.accelerometer?.apply(a) ?? a }
        if let correction {
            magnetic = correction * magnetic
            acceleration = acceleration.map { correction * $0 }
        }
        lastCalibrated = magnetic
        guard let e = filter.update(sample: CalibratedSample(monotonic: sample.monotonic, wall: sample.wall,
                                                             magnetic: magnetic, acceleration: acceleration))
        else { return nil }
        sampleCount += 1
        estimate = e
        return e
    }

    /// Reads every sample that is ready now (never blocks) and returns the newest estimate, if any.
    @discardableResult
    func pump(limit: Int = 1000) -> HeadingEstimate? {
        var newest: HeadingEstimate?
        for _ in 0..<limit {
            guard let s = reader.poll() else { break }
            if let e = process(s) { newest = e }
        }
        return newest
    }

    /// A GNSS position for the declination (WMM at the fix), unless a manual declination is set.
    func updateFix(latitude: Double, longitude: Double) {
        filter.updateFix(latitude: latitude, longitude: longitude)
    }

    /// A GNSS course observation for the deviation learner (opt-in).
    func observeCourse(_ observation: CourseObservation) -> DeviationLearningResult {
        filter.observeCourse(observation)
    }
}

/// The field error assumed without a calibration profile, µT: a hobby board's hard iron is typically
/// tens of µT, so an uncalibrated heading's accuracy must say "tens of degrees", not "a few".
let uncalibratedResidualMicrotesla = 20.0

extension CalibrationProfile {
    /// The fit's RMS residual as a field error (the profile's unit × `scale`; µT for a µT profile),
    /// for the accuracy model. Never below 0.05, so a perfect-looking fit still counts for something.
    func residualField(scale: Double = 1) -> Double {
        max(0.05, residualPercent / 100 * fieldStrength * scale)
    }
}
