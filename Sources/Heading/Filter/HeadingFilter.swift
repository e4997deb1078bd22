#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Attitude
import Linear

/// The heading stage: calibrated samples in, `HeadingEstimate`s out.
///
/// Per sample: reject non-finite input; restart on a gap or a backwards timestamp; estimate the tilt
/// from the accelerometer (held for a moment after a knock, level-only without one); rotate the field
/// into the level frame; heading = atan2(−y, x); smooth it on the circle (adaptive); look up the
/// expected field (cached); flag disturbances and blackout zones; apply the deviation card; add the
/// declination; work out the accuracy.
///
/// ```swift
/// var config = HeadingFilterConfiguration()
/// config.declinationSource = .manual(degrees: 12.8)
/// var filter = HeadingFilter(configuration: config)
/// for sample in samples {
///     guard let e = filter.update(sample: sample) else { continue }   // nil: rejected sample
///     print(e.trueHeading ?? e.magneticHeading, e.accuracy)
/// }
/// ```
public struct HeadingFilter: Sendable {
    public internal(set) var configuration: HeadingFilterConfiguration
    /// The declination source in use (see `setDeclinationSource(_:)`, `updateFix(latitude:longitude:)`).
    public internal(set) var declinationSource: DeclinationSource
    /// The deviation card (learned in `.learn` mode); store it with the calibration profile.
    public internal(set) var deviationTable: DeviationTable

    var tilt: TiltEstimator
    var smoother: CircularSmoother
    var disturbance: DisturbanceDetector
    var cache: DeclinationCache
    var lastTime: Double?
    /// What the deviation learner needs from the last estimate.
    var last: LastHeading?
    var cardInUse: Bool
    /// The gyro-aided attitude filter, from the first sample with a rotation rate on.
    var attitude: AttitudeFilter?
    /// The expected field last handed to the attitude filter.
    var attitudeField: ExpectedField?

    public init(configuration: HeadingFilterConfiguration = HeadingFilterConfiguration()) {
        self.configuration = configuration
        declinationSource = configuration.declinationSource
        deviationTable = configuration.deviationTable
        tilt = TiltEstimator(configuration: configuration.tilt)
        smoother = CircularSmoother(timeConstant: configuration.smoothingSeconds,
                                    fastTimeConstant: configuration.turnSmoothingSeconds,
                                    adaptive: configuration.adaptive,
                                    thresholdSigma: configuration.turnThresholdSigma)
        disturbance = DisturbanceDetector(configuration: configuration.disturbance)
        cache = DeclinationCache(provider: configuration.fieldProvider,
                                 refreshDistanceMeters: configuration.declinationRefreshMeters,
                                 refreshSeconds: configuration.declinationRefreshSeconds)
        cardInUse = configuration.deviationMode != .off && configuration.deviationTable.isUsable
    }

    /// Restarts the smoothing and the tilt (keeps the card, the cached field and the baseline).
    public mutating func reset() {
        tilt.reset(); smoother.reset(); disturbance.resetShortTerm()
        attitude?.reset()
        lastTime = nil; last = nil
    }

    /// Processes one sample. Returns nil (and changes nothing) when a timestamp or the field is not finite.
    public mutating func update(sample s: CalibratedSample) -> HeadingEstimate? {
        var estimate: HeadingEstimate?
        _ = update(sample: s, into: &estimate)
        return estimate
    }

    /// The same, writing the estimate into `estimate` (left as it was, and false returned, when the
    /// sample is rejected). For a caller that keeps the last estimate: an estimate is 0.3 kB, and one
    /// returned through the layers is copied at each.
    public mutating func update(sample s: CalibratedSample, into estimate: inout HeadingEstimate?) -> Bool {
        let b = s.magnetic
        guard s.monotonic.isFinite, s.wall.isFinite, b.isFinite else { return false }
        let strength = b.norm
        guard strength.isFinite else { return false }
        if let rate = s.rotationRate { return updateWithGyroscope(s, rate: rate, into: &estimate) }
        var flags: HeadingFlags = []

        var dt = 0.0
        if let last = lastTime {
            dt = s.monotonic - last
            if dt < 0 || dt > configuration.maxGapSeconds {
                reset()
                dt = 0
                flags.insert(.restarted)
            }
        }
        lastTime = s.monotonic

        // Tilt and the level-frame field.
        let reading = tilt.update(acceleration: s.acceleration, time: s.monotonic, dt: dt, field: b)
        let level = reading.tilt.map { $0.levelled(b) } ?? b
        if reading.tilt == nil { flags.insert(.levelOnly) }
        if reading.held { flags.insert(.tiltHeld) }
        let horizontal = (level.x * level.x + level.y * level.y).squareRoot()
        let rawCompass = Tilt.heading(ofLevelled: level)
        let model = configuration.accuracy

        // Smoothing on the circle (a field too weak to point anywhere leaves the heading where it was).
        let compass: Double
        if horizontal < model.minimumHorizontalField {
            flags.insert([.weakField, .caution])
            compass = smoother.value ?? rawCompass
        } else {
            compass = smoother.update(rawCompass, dt: dt, noiseDegrees: deg(model.noiseMicrotesla / horizontal))
            if configuration.adaptive && smoother.isTurning { flags.insert(.turning) }
        }

        // Expected field, disturbance, zones.
        let inclination = reading.tilt == nil ? nil : Tilt.inclination(ofLevelled: level)
        var expected: ExpectedField?
        if let cached = expectedField(wall: s.wall) {
            expected = cached.field
            if cached.stale { flags.insert(.stale) }
        }
        let check = disturbance.update(fieldStrength: strength, inclination: reading.held ? nil : inclination,
                                       expected: expected, dt: dt)
        if check.disturbed { flags.insert(.disturbed) }
        flags.formUnion(Self.conditionFlags(zone: expected?.zone, saturated: s.saturated))

        // Deviation card.
        var deviation = 0.0, rawDeviation = 0.0
        if cardInUse {
            deviation = deviationTable.correction(atCompassHeading: compass)
            rawDeviation = deviationTable.correction(atCompassHeading: rawCompass)
            flags.insert(.deviationApplied)
        }
        let magnetic = normalizeDegrees(compass + deviation)

        // Declination and true heading.
        let (declination, declinationUncertainty) = declinationNow(expected: expected)
        if declination == nil { flags.insert(.noDeclination) }

        // Accuracy.
        // The tilt's noise passes through the tilt's low-pass and then the heading's: a cascade of
        // two reduces it at least as much as the stronger of them.
        let tiltNoise = configuration.tilt.noiseG
            * Swift.min(noiseReduction(alpha: reading.alpha), noiseReduction(alpha: smoother.alpha))
        let accuracyHorizontal = Self.accuracyHorizontalField(measured: horizontal, expected: expected)
        let accuracyInputs = AccuracyInputs(
            horizontalField: accuracyHorizontal,
            verticalField: Self.accuracyVerticalField(measured: level.z, horizontal: accuracyHorizontal,
                                                      referenceInclination: check.referenceInclination),
            smoothingAlpha: smoother.alpha,
            tiltKnown: reading.tilt != nil, tiltHeld: reading.held, tiltNoise: tiltNoise,
            disturbance: check.anomaly, tiltAccelerated: reading.accelerated,
            tiltAccelerationExcess: reading.accelerationExcess, accelerationActivity: reading.accelerationActivity,
            dipMismatch: inclination.flatMap { i in check.referenceInclination.map { abs(i - $0) } } ?? 0)
        var accuracy = model.totalAccuracy(accuracyInputs)
        let tiltAccuracy = model.tiltAccuracy(accuracyInputs)
        if s.saturated { accuracy = AccuracyModel.unavailable }
        let trueAccuracy = declination.map { _ in Self.combined(accuracy, declinationUncertainty) }

        let turnRate = smoother.turnRate.isFinite ? smoother.turnRate : 0
        estimate = HeadingEstimate(
            monotonic: s.monotonic, wall: s.wall, magneticHeading: magnetic,
            trueHeading: declination.map { normalizeDegrees(magnetic + $0) },
            rawMagneticHeading: normalizeDegrees(rawCompass + rawDeviation),
            accuracy: accuracy, trueAccuracy: trueAccuracy, declination: declination,
            declinationSource: declinationSource, deviation: deviation, fieldStrength: strength,
            horizontalField: horizontal, inclination: inclination,
            tilt: reading.tilt,
            turnRate: turnRate, flags: flags,
            rollAccuracy: tiltAccuracy, pitchAccuracy: tiltAccuracy)
        last = LastHeading(monotonic: s.monotonic, compassHeading: compass, turnRate: turnRate,
                           declination: declination, flags: flags)
        return true
    }
}

extension HeadingFilter {
    /// The declination (east positive) and its 1σ uncertainty, from the source in use. (Inlined:
    /// called, it was handed a copy of the whole filter, 4 kB, per sample.)
    @inline(__always)
    func declinationNow(expected: ExpectedField?) -> (declination: Double?, uncertainty: Double) {
        switch declinationSource {
        case let .manual(d):
            return (d.isFinite ? signedDifference(d, 0) : nil, configuration.manualDeclinationUncertainty)
        case .wmm, .location:
            return (expected?.declination, expected?.declinationUncertainty ?? configuration.modelDeclinationUncertainty)
        case .none:
            return (nil, configuration.modelDeclinationUncertainty)
        }
    }

    /// The flags a field zone (blackout, caution) and a saturated magnetometer raise.
    static func conditionFlags(zone: FieldZone?, saturated: Bool) -> HeadingFlags {
        var flags: HeadingFlags = []
        switch zone {
        case .blackout: flags.insert([.blackout, .caution])
        case .caution: flags.insert(.caution)
        default: break
        }
        if saturated { flags.insert([.saturated, .caution]) }
        return flags
    }

    /// The horizontal field errors are measured against (µT): the measured one, but never more than
    /// the Earth's — the model's where it gives one, else the strongest anywhere on Earth. An
    /// uncalibrated board's hard iron inflates the measured field, and an error of so many µT turns
    /// the heading by its ratio to the Earth's field, not to the inflated one.
    static func accuracyHorizontalField(measured: Double, expected: ExpectedField?) -> Double {
        guard let h = expected?.horizontalField, h.isFinite, h > 0 else {
            return Swift.min(measured, strongestHorizontalField)
        }
        return Swift.min(measured, h)
    }

    /// The vertical field a tilt error is levered by (µT): the measured one, but at least what the
    /// reference dip (the model's, else the learned one) gives over `horizontal`. A wrong tilt
    /// levels the field wrongly, and the dip it then shows is no measure of the leverage.
    static func accuracyVerticalField(measured: Double, horizontal: Double, referenceInclination: Double?) -> Double {
        guard let dip = referenceInclination, dip.isFinite, abs(dip) < 89 else { return measured }
        return Swift.max(abs(measured), horizontal * abs(tan(rad(dip))))
    }

    /// The strongest horizontal component of the Earth's field anywhere (µT): about 41 µT, near the
    /// magnetic equator south of India and over Indonesia (WMM2025, rounded up).
    static let strongestHorizontalField = 42.0

    /// Largest calibration error (degrees, as `AccuracyModel.calibrationAccuracy` bounds it) that a
    /// turning body's heading is taken to average (`AttitudeEstimate.calibrationErrorShare`): below
    /// it the error turns the field's heading back and forth by about a sinusoid; a larger one (a
    /// board without a profile) may turn it right round, and is kept whole.
    static let averagedCalibrationLimitDegrees = 30.0

    /// The calibration's part of a gyro-aided heading's accuracy (degrees): the calibration's bound
    /// (`AccuracyModel.calibrationAccuracy`) with its variance scaled by the share the heading keeps
    /// (`AttitudeEstimate.calibrationErrorShare`), up to `averagedCalibrationLimitDegrees`.
    public static func calibrationAccuracy(_ bound: Double, share: Double) -> Double {
        bound <= averagedCalibrationLimitDegrees ? bound * max(0, min(1, share)).squareRoot() : bound
    }

    /// Two independent errors in degrees combined (root sum of squares), capped at "unavailable".
    public static func combined(_ a: Double, _ b: Double) -> Double {
        Swift.min(AccuracyModel.unavailable, (a * a + b * b).squareRoot())
    }

    /// The expected field at the declination source's position (cached), and whether it is stale.
    mutating func expectedField(wall: Double) -> (field: ExpectedField, stale: Bool)? {
        guard configuration.fieldProvider != nil, let p = declinationSource.position,
              let cached = cache.field(latitude: p.latitude, longitude: p.longitude, wall: wall) else { return nil }
        return (cached.field, cached.stale)
    }
}

/// The few facts about the last estimate that `observeCourse(_:)` needs.
struct LastHeading: Sendable {
    var monotonic: Double
    /// Smoothed magnetic heading without the deviation correction.
    var compassHeading: Double
    var turnRate: Double
    var declination: Double?
    var flags: HeadingFlags
}
