import Calibration
import Heading
import Linear
import Sensors

/// How to build the filter stage: the calibration profile, the heading settings, and how the sensor
/// is mounted. Every command that turns samples into headings (watch, log, heading --from-file) and
/// the benchmark build their pipeline from one of these with the one `HeadingPipeline.init`.
public struct PipelineSetup: Sendable {
    public var profile: CalibrationProfile?
    public var settings: HeadingSettings
    /// The reader's mounting orientation (chip axes → body axes).
    public var orientation: MountingOrientation
    /// True when `--orientation` was given: it then overrides the profile's custom mounting.
    public var orientationGiven: Bool
    /// The magnetometer's noise, µT RMS per axis (the chip's `SensorInfo.noise`).
    public var sensorNoise: Double
    /// The calibration's field error when it is not the profile's own (a profile applied in another
    /// unit), µT. nil: from the profile, or `uncalibratedResidualMicrotesla` without one.
    public var residualMicrotesla: Double?
    /// `--refine`: the background refinement of the hard-iron offset (nil: off, the output exactly as
    /// without it).
    public var refinement: HardIronRefinerSettings?

    public init(profile: CalibrationProfile?, settings: HeadingSettings = HeadingSettings(),
                orientation: MountingOrientation = .componentSideUp, orientationGiven: Bool = false,
                sensorNoise: Double = 0, residualMicrotesla: Double? = nil,
                refinement: HardIronRefinerSettings? = nil) {
        self.refinement = refinement
        self.profile = profile
        self.settings = settings
        self.orientation = orientation
        self.orientationGiven = orientationGiven
        self.sensorNoise = sensorNoise
        self.residualMicrotesla = residualMicrotesla
    }
}

/// The filter stage as the commands run it: sample → calibration profile → mounting and heading-
/// alignment rotation → `HeadingFilter` (tilt, smoothing, declination, deviation, accuracy) →
/// `HeadingEstimate`. `watch`, `log`, `heading` and the benchmarks share it, so every front end sees the
/// same numbers.
///
/// ```swift
/// let pipeline = HeadingPipeline(PipelineSetup(profile: profile, settings: settings))
/// if let estimate = pipeline.process(sample) { show(estimate) }
/// ```
public final class HeadingPipeline {
    public let profile: CalibrationProfile?
    /// Extra rotation applied after the reader's orientation: the profile's custom mounting and its
    /// heading-alignment yaw.
    public let correction: Matrix3?
    public var filter: HeadingFilter { stage.filter }
    public var estimate: HeadingEstimate? { stage.estimate }
    public var lastSample: MagnetometerSample? { stage.lastSample }
    public var lastCalibrated: Vector3? { stage.lastCalibrated }
    /// What each sample changes, in one value. Not checked for exclusivity at run time (the check, a
    /// tenth of the pipeline's own cost, is for overlapping accesses): it is private, the pipeline is
    /// not Sendable, and nothing the stage holds can reach the pipeline again during an access.
    @exclusivity(unchecked) private var stage: Stage
    /// `--refine`: the background refinement (its offset is subtracted from the calibrated field).
    public private(set) var refiner: HardIronRefiner?
    /// The calibration's field error before any refinement (µT), for the accuracy.
    public let baseResidualMicrotesla: Double
    private var refinerReference: ExpectedField?
    /// The profile's field and accelerometer calibrations, taken out once (reading them through the
    /// optional profile, 0.4 kB with its strings and card, costs a check of it per sample each).
    private let fieldCalibration: EllipsoidFit?
    private let accelerometerCalibration: AccelerometerCalibration?
    /// Whether there is a refiner (set once: asking the optional copies the refiner, 0.8 kB, per sample).
    private let refines: Bool
    private var narrator = RefinementNarrator()

    public init(_ setup: PipelineSetup) {
        let profile = setup.profile
        self.profile = profile
        fieldCalibration = profile?.fit
        accelerometerCalibration = profile?.accelerometer
        var config = setup.settings.configuration
        if let residual = setup.residualMicrotesla {
            config.calibrationResidualMicrotesla = residual
        } else if let profile {
            // The profile's fit residual (percent of its field) as an absolute error in µT.
            config.calibrationResidualMicrotesla = profile.residualField()
        } else {
            config.calibrationResidualMicrotesla = uncalibratedResidualMicrotesla
        }
        // The card applies when the profile has one, unless switched off; `learn` starts from it.
        if let card = profile?.deviation, config.deviationMode != .off,
           let table = try? DeviationTable(corrections: card.corrections) {
            config.deviationTable = table
        } else if setup.settings.deviation == nil {
            config.deviationMode = .off
        }
        config.noiseMicrotesla = max(config.noiseMicrotesla, setup.sensorNoise)
        baseResidualMicrotesla = config.calibrationResidualMicrotesla
        stage = Stage(filter: HeadingFilter(configuration: config))
        refiner = (setup.refinement ?? (setup.settings.refine ? HardIronRefinerSettings() : nil)).map { settings in
            var settings = settings
            // A deviation card (applied or learned) owns the heading-dependent residual: the soft iron
            // it was learned over stays as it is, or the two would correct the same quadrantal term twice.
            if config.deviationMode != .off { settings.maximumSoftIronUncertainty = nil }
            return HardIronRefiner(settings: settings)
        }
        refines = refiner != nil
        correction = HeadingPipeline.correction(profile: profile, orientation: setup.orientation,
                                                userOrientation: setup.orientationGiven)
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
    public func process(_ sample: MagnetometerSample) -> HeadingEstimate? {
        process(field: sample.field, acceleration: sample.acceleration, rotationRate: sample.rotationRate,
                monotonic: sample.monotonic, wall: sample.wall, reader: sample)
    }

    /// Runs one body-axis field (µT, before calibration), optional specific force (g) and rotation
    /// rate (°/s; with it the heading is gyro-aided) through calibration and the filter.
    @discardableResult
    public func process(field: Vector3, acceleration: Vector3?, rotationRate: Vector3? = nil, monotonic: Double,
                        wall: Double) -> HeadingEstimate? {
        process(field: field, acceleration: acceleration, rotationRate: rotationRate, monotonic: monotonic, wall: wall,
                reader: nil)
    }

    /// The same, keeping `reader` as `lastSample` when given.
    @inline(__always)
    private func process(field: Vector3, acceleration: Vector3?, rotationRate: Vector3?, monotonic: Double,
                         wall: Double, reader: MagnetometerSample?) -> HeadingEstimate? {
        var magnetic = fieldCalibration?.apply(field) ?? field
        var acceleration = acceleration.map { a in accelerometerCalibration?.apply(a) ?? a }
        var rotationRate = rotationRate
        if let correction {
            magnetic = correction * magnetic
            acceleration = acceleration.map { correction * $0 }
            rotationRate = rotationRate.map { correction * $0 }
        }
        let calibrated = magnetic
        if refines, let refiner { magnetic = refiner.correct(magnetic) }
        let sample = CalibratedSample(monotonic: monotonic, wall: wall, magnetic: magnetic, acceleration: acceleration,
                                      rotationRate: rotationRate)
        let made = stage.run(sample, reader: reader)
        if made && refines { refine(calibrated: calibrated, rotationRate: rotationRate, wall: wall) }
        return made ? stage.estimate : nil
    }

    /// The filter and what it last gave (`stage`).
    private struct Stage {
        var filter: HeadingFilter
        var estimate: HeadingEstimate?
        var lastSample: MagnetometerSample?
        var lastCalibrated: Vector3?

        /// One calibrated sample through the filter; the estimate is kept (an estimate is 0.3 kB: the
        /// filter makes it in `estimate`, and it is copied out only to be returned).
        @inline(__always)
        mutating func run(_ sample: CalibratedSample, reader: MagnetometerSample?) -> Bool {
            if let reader { lastSample = reader }
            lastCalibrated = sample.magnetic
            return filter.update(sample: sample, into: &estimate)
        }
    }

    /// Feeds the background refinement one sample (the calibrated field before its offset), keeps the
    /// accuracy's calibration error at the refined calibration's, and flags the kept estimate.
    private func refine(calibrated: Vector3, rotationRate: Vector3?, wall: Double) {
        guard var r = refiner, let e = stage.estimate else { return }
        if let field = stage.filter.referenceField(wall: wall), field != refinerReference {
            r.setReference(fieldStrength: field.totalField, inclinationDegrees: field.inclination)
            refinerReference = field
        }
        let bias = stage.filter.attitudeEstimate?.gyroBias ?? .zero
        let down = e.tilt.map { Vector3(-$0.sinPitch, $0.cosPitch * $0.sinRoll, $0.cosPitch * $0.cosRoll) }
        let before = (r.offset, r.state, r.adoptions + r.softIronAdoptions)
        r.add(time: e.monotonic, field: calibrated, rotationRate: rotationRate.map { $0 - bias }, down: down,
              disturbed: e.flags.contains(.disturbed), heading: e.magneticHeading)
        refiner = r
        if r.adoptions + r.softIronAdoptions != before.2 { stage.filter.restartMagneticReference() }
        if before.0 != r.offset || before.1 != r.state || r.adoptions + r.softIronAdoptions != before.2 {
            stage.filter.setCalibrationResidual(microtesla: Self.refinedResidual(base: baseResidualMicrotesla, refiner: r))
        }
        if r.hasConverged { stage.estimate?.flags.insert(.refined) }
        if r.state == .changeSuspected { stage.estimate?.flags.insert(.calibrationChanged) }
    }

    /// The calibration's field error with a refinement (µT): the profile's own, the refined offset's
    /// horizontal uncertainty and the refined soft iron's in quadrature, and at least the size of a
    /// suspected change.
    static func refinedResidual(base: Double, refiner r: HardIronRefiner) -> Double {
        var residual = base
        if let sigma = r.uncertainty { residual = (base * base + sigma.x * sigma.x + sigma.y * sigma.y).squareRoot() }
        if let soft = r.softIronUncertainty { residual = (residual * residual + soft * soft).squareRoot() }
        if let suspected = r.suspected { residual = max(residual, (suspected - r.offset).norm) }
        return residual
    }

    /// The refinement's report: the offset in use, its change from the profile's in the profile's own
    /// axes, its uncertainty. nil without `--refine`.
    public var refinementReport: RefinementReport? {
        // Without a refiner (the usual case, asked at every update) the stored optional is not
        // read at all: reading it is a run-time exclusivity check.
        guard refines, let r = refiner else { return nil }
        var change = r.offset
        var newOffset: Vector3?
        var newMatrix: Matrix3?
        if let profile {
            let c = correction ?? .identity
            let toProfile = c.inverse.flatMap { ci in profile.matrix.inverse.map { $0 * ci } }
            if let m = toProfile {
                change = m * r.offset
                newOffset = profile.offset + change
            }
            // S·(C·M·(raw − o) − b) = C·M′·(raw − o′) with M′ = C⁻¹·S·C·M, o′ = o + (C·M)⁻¹·b.
            if let s = r.softIron, let ci = c.inverse { newMatrix = ci * s * c * profile.matrix }
        }
        return RefinementReport(state: r.state, offset: r.offset, profileChange: change, refinedProfileOffset: newOffset,
                                uncertainty: r.uncertainty, suspected: r.suspected, adoptions: r.adoptions,
                                fittedStrength: r.fittedStrength, softIron: r.softIron,
                                softIronUncertainty: r.softIronUncertainty, softIronAdoptions: r.softIronAdoptions,
                                refinedProfileMatrix: newMatrix)
    }

    /// The refinement's news since the last call (converged, a change suspected, adopted), for stderr;
    /// nil when there is none or without `--refine`.
    public func takeRefinementNews() -> String? {
        // No refiner, no news (and no access to the narrator at every update).
        guard refines else { return nil }
        return narrator.update(refinementReport, monotonic: estimate?.monotonic ?? 0)
    }

    /// The profile with the refined offset, when the refinement has converged on one that differs from
    /// the profile's; nil otherwise.
    public func refinedProfile() -> CalibrationProfile? {
        guard var p = profile, let report = refinementReport, report.uncertainty != nil,
              let offset = report.refinedProfileOffset, offset.isFinite,
              report.offset != .zero || report.softIron != nil else { return nil }
        p.offset = offset
        if let matrix = report.refinedProfileMatrix, matrix.isFinite { p.matrix = matrix; p.model = .full }
        return p
    }

    /// A GNSS position for the declination (WMM at the fix), unless a manual declination is set.
    public func updateFix(latitude: Double, longitude: Double) {
        stage.filter.updateFix(latitude: latitude, longitude: longitude)
    }

    /// The vehicle's motion over the ground, for the gyro-aided attitude (see
    /// `HeadingFilter.observeGroundTrack`).
    public func observeGroundTrack(speed: Double, speedRate: Double, courseRate: Double, monotonic: Double) {
        stage.filter.observeGroundTrack(speed: speed, speedRate: speedRate, courseRate: courseRate, monotonic: monotonic)
    }

    /// A GNSS course observation for the deviation learner (opt-in).
    public func observeCourse(_ observation: CourseObservation) -> DeviationLearningResult {
        // The card owns the residual the refined calibration leaves: it learns only once that is settled.
        if let refiner, !refiner.hasConverged || refiner.state == .changeSuspected {
            return .rejected(.calibrationUnsettled)
        }
        return stage.filter.observeCourse(observation)
    }
}

/// What the background refinement (`--refine`) reports.
public struct RefinementReport: Sendable, Equatable {
    public var state: RefinementState
    /// The offset subtracted from the calibrated field (µT, body axes).
    public var offset: Vector3
    /// The change of the profile's offset (the profile's axes and unit).
    public var profileChange: Vector3
    /// The profile's offset after the refinement, nil without a profile.
    public var refinedProfileOffset: Vector3?
    /// 1σ per axis (µT), nil until converged.
    public var uncertainty: Vector3?
    /// The offset the recent data suggest while a change is being confirmed.
    public var suspected: Vector3?
    public var adoptions: Int
    public var fittedStrength: Double?
    /// The refined soft-iron correction (body axes, after the offset), nil while the data have not
    /// constrained it (see `HardIronRefiner`).
    public var softIron: Matrix3?
    /// Its largest 1σ as a field error (µT), nil while it is not refined.
    public var softIronUncertainty: Double?
    /// How many times a refined soft iron was adopted.
    public var softIronAdoptions = 0
    /// The profile's matrix after the refinement, nil while the soft iron is not refined.
    public var refinedProfileMatrix: Matrix3?

    /// The refined soft iron's largest change of the field (a fraction of it: the largest singular value
    /// of S − I), nil while it is not refined.
    public var softIronChange: Double? {
        softIron.flatMap { s in ((s - .identity).transposed * (s - .identity)).symmetricEigen().map { $0.values.z.squareRoot() } }
    }

    /// The horizontal 1σ (µT), nil until converged.
    public var horizontalUncertainty: Double? { uncertainty.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() } }
}

/// The field error assumed without a calibration profile, µT: a hobby board's hard iron is typically
/// tens of µT, so an uncalibrated heading's accuracy must say "tens of degrees", not "a few".
public let uncalibratedResidualMicrotesla = 20.0

extension CalibrationProfile {
    /// The fit's RMS residual as a field error (the profile's unit × `scale`; µT for a µT profile),
    /// for the accuracy model. Never below 0.05, so a perfect-looking fit still counts for something.
    public func residualField(scale: Double = 1) -> Double {
        max(0.05, residualPercent / 100 * fieldStrength * scale)
    }
}
