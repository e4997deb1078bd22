#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// The filter's own uncertainty: a covariance for tilt and one for heading, each over two states —
/// the angle's error and the gyro's rate error about the same axes (its bias) — propagated through
/// the gyro integration and updated with the gain of every correction the filter actually made.
///
/// - *propagation*: the angle error grows with the rate error (P_ab·dt, P_bb·dt²) and the gyro's
///   white noise (angle random walk, `gyroNoiseDensity`² per second); the rate error with the bias
///   instability (`gyroBiasInstability`² per second);
/// - *correction*: the filter moves the angle by `k` of the disagreement with a reference and the
///   bias by `c` of it; the covariance follows in Joseph form, `(I − KH) P (I − KH)ᵀ + K R Kᵀ`, with
///   `R` the reference's own noise (magnetometer and accelerometer noise). A rejected or disturbed
///   reference corrects with a small gain or none, so the variance grows while it lasts;
/// - *rest*: a bias measured at rest sets the rate error's variance (`restMeasured`);
/// - *systematic* terms that do not average out: the gyro's scale-factor error times the net
///   rotation, integration errors per degree turned, the lean of a sustained acceleration let into the
///   gravity average, the references' own correlated error (the magnetometer's scatter about the
///   filtered heading, the averaged gravity's tilt noise);
/// - *leverage*: a tilt error about the horizontal axis along the field turns the heading by
///   tan(dip) times itself and shows nowhere; the one about the axis across the field shows in the
///   dip one for one. Tilt errors have no preferred direction on the horizontal (a push, a lean, an
///   accelerometer's bias or misalignment turn with the vehicle), so the dip's stray from its slow
///   average, averaged as the heading averages the field (`dipObserved`), measures the one the
///   heading takes in; the model's roll and pitch variances only weigh the two axes against each
///   other (a boat's roll error against its pitch's).
///
/// The reported accuracies are `accuracyCoverageFactor` (1.645: 90 % of a normal error) times the
/// standard deviation.
///
/// ```swift
/// var model = AttitudeAccuracyModel(settings: settings)
/// model.propagate(netRate: Vector3(0, 0, 3), rate: 3, dt: 0.01, settings: settings)
/// let accuracy = model.headingAccuracyDegrees(dipTangent: 1.7, tiltAlongField: 0.3, settings: settings)
/// ```
public struct AttitudeAccuracyModel: Sendable {
    /// Tilt error variance per horizontal axis (degrees²), gyro part.
    public private(set) var tiltVariance: Double = 30 * 30
    private var tiltCovariance = 0.0                    // degrees · °/s
    /// Variance of the gyro's rate error about the horizontal axes ((°/s)²).
    public private(set) var tiltBiasVariance: Double
    /// Heading error variance (degrees²), gyro part.
    public private(set) var headingVariance: Double = 180 * 180
    private var headingCovariance = 0.0                 // degrees · °/s
    /// Variance of the gyro's rate error about the vertical ((°/s)²).
    public private(set) var headingBiasVariance: Double
    /// Systematic drift (degrees) since the references last corrected it: scale factor and coning.
    public private(set) var tiltSystematic = 0.0
    public private(set) var headingSystematic = 0.0
    /// Tilt error let in with the gravity average (degrees), about the body's x (roll) and y (pitch)
    /// axes: how far the specific force it followed leant from the vertical over the last seconds.
    public private(set) var rollLean = 0.0
    public private(set) var pitchLean = 0.0
    /// Mean square of the heading innovations (degrees²): how far the magnetometer scatters.
    public private(set) var innovationMeanSquare: Double = 0
    /// Mean square of the innovation's change from one sample to the next (degrees²): twice the
    /// magnetometer's white noise (`whiteNoise`), its correlated error changing little in a sample.
    public private(set) var innovationStepMeanSquare: Double = 0
    private var lastInnovation: Double?
    private var innovationProbe = 0.0                   // degrees, the innovations' short average
    private var innovationLagProduct = 0.0              // degrees², mean of innovation × that average before it
    /// The magnetometer's white heading noise per sample (degrees²), as the innovations show it.
    public private(set) var whiteNoise = 0.0
    /// The part of the innovations' mean square that survives the heading's averaging (degrees²).
    public private(set) var surviving: Double = 0
    /// Mean square of the specific force's angle from the vertical (degrees²), about the roll and
    /// the pitch axis.
    public private(set) var rollResidualMeanSquare: Double = 0
    public private(set) var pitchResidualMeanSquare: Double = 0
    /// Roll and pitch variances (degrees²) averaged over `magneticTimeConstant`: the heading takes
    /// a tilt error in only as the field seen through it corrects the heading, over that time, so a
    /// burst of tilt error (an acceleration let in for a second) moves it far less than a lasting one.
    /// Only their ratio is used for the heading: it splits the tilt error the dip measures
    /// (`dipStrayMeanSquare`) between the axis across the field and the one along it.
    public private(set) var slowRollVariance: Double = 30 * 30
    public private(set) var slowPitchVariance: Double = 30 * 30
    /// The dip's slow average (degrees), as the field is seen through the estimated tilt; nil
    /// until a trusted field has been seen (and again after the field's reference was replaced).
    public private(set) var dipAverage: Double?
    /// The dip's stray from that average, averaged as the heading averages the field (degrees).
    public private(set) var dipStray = 0.0
    /// Mean square of that stray (degrees²): the tilt error about the horizontal axis across the
    /// field that lasts long enough for the heading to take it in; by symmetry, the same as the
    /// one about the axis along the field, which turns the heading by tan(dip) times itself.
    public private(set) var dipStrayMeanSquare: Double
    /// The gyro's scale error (fraction) the references' corrections bound it by, about the
    /// horizontal axes and about the vertical (`observeCorrections`); at most `gyroScaleUncertainty`.
    public private(set) var tiltScale: Double
    public private(set) var headingScale: Double
    private var scaleCountdown = 0
    private var survivingCountdown = 0
    private var tiltWatchedSeconds = 0.0                // s of trusted corrections seen
    private var headingWatchedSeconds = 0.0
    private var tiltCorrectionRate = (x: 0.0, y: 0.0)  // °/s, averaged
    private var headingCorrectionRate = 0.0             // °/s, averaged
    /// The heading's time constant (s) at its last correction by the field.
    public private(set) var headingTimeConstant = 15.0
    private let biasVarianceLimit: Double
    private let angleRandomWalk: Double                 // degrees² per second
    private let biasRandomWalk: Double                  // (°/s)² per second

    public init(settings: AttitudeSettings) {
        let initial = settings.initialBiasUncertainty * settings.initialBiasUncertainty
        tiltBiasVariance = initial
        headingBiasVariance = initial
        biasVarianceLimit = initial
        tiltScale = settings.gyroScaleUncertainty
        headingScale = settings.gyroScaleUncertainty
        angleRandomWalk = settings.gyroNoiseDensity * settings.gyroNoiseDensity
        biasRandomWalk = settings.gyroBiasInstability * settings.gyroBiasInstability
        dipStrayMeanSquare = settings.tiltNoiseDegrees * settings.tiltNoiseDegrees
    }

    /// A trusted field's dip (degrees) through the estimated tilt. Its stray from the slow average
    /// (`referenceGain`), averaged over the heading's time constant (`slowGain`) as the heading
    /// averages the field, is the tilt error about the axis across the field that the heading
    /// would take in; its mean square (`averagingGain`) stands for the one along the field, which
    /// nothing shows. A stray shorter than the heading's averaging is mostly averaged away here as
    /// it is in the heading (what is left of it the innovations show as well).
    @inline(__always)
    public mutating func dipObserved(_ dip: Double, referenceGain: Double, slowGain: Double, averagingGain: Double) {
        guard let average = dipAverage else {
            dipAverage = dip
            dipStray = 0
            return
        }
        let updated = average + referenceGain * (dip - average)
        dipAverage = updated
        dipStray += slowGain * ((dip - updated) - dipStray)
        dipStrayMeanSquare += averagingGain * (dipStray * dipStray - dipStrayMeanSquare)
    }

    /// The field's reference was replaced (another place, another environment): its dip is learnt anew.
    public mutating func forgetDip() {
        dipAverage = nil
        dipStray = 0
    }

    /// Gyro rate error about the horizontal axes (°/s, 1σ): the part of the bias that tilts.
    @inline(__always)
    public var tiltBiasUncertainty: Double { tiltBiasVariance.squareRoot() }
    /// Gyro rate error about the vertical (°/s, 1σ): the part of the bias that turns the heading.
    @inline(__always)
    public var headingBiasUncertainty: Double { headingBiasVariance.squareRoot() }
    /// The larger of the two (°/s, 1σ).
    public var biasUncertainty: Double { max(tiltBiasUncertainty, headingBiasUncertainty) }
    /// What the gyro has let the tilt drift by since gravity corrected it (degrees, 1σ).
    @inline(__always)
    public var tiltDrift: Double { tiltDriftSquare.squareRoot() }
    /// Its square (degrees²).
    @inline(__always)
    public var tiltDriftSquare: Double { tiltVariance + tiltSystematic * tiltSystematic }
    /// What the gyro has let the heading drift by since the field corrected it (degrees, 1σ).
    @inline(__always)
    public var headingDrift: Double { headingDriftSquare.squareRoot() }
    /// Its square (degrees²).
    @inline(__always)
    public var headingDriftSquare: Double { headingVariance + headingSystematic * headingSystematic }

    /// Roll uncertainty (degrees, 1σ): gyro drift, the lean let in, and the averaged gravity's own noise.
    @inline(__always)
    public func rollUncertainty(settings: AttitudeSettings) -> Double {
        axisUncertainty(lean: rollLean, settings: settings)
    }

    /// Pitch uncertainty (degrees, 1σ).
    @inline(__always)
    public func pitchUncertainty(settings: AttitudeSettings) -> Double {
        axisUncertainty(lean: pitchLean, settings: settings)
    }

    @inline(__always)
    private func axisUncertainty(lean: Double, settings: AttitudeSettings) -> Double {
        let floor = settings.tiltNoiseDegrees * settings.tiltNoiseDegrees
        return (tiltVariance + tiltSystematic * tiltSystematic + lean * lean + floor).squareRoot()
    }

    /// Heading uncertainty (degrees, 1σ) before the tilt's leverage: drift and the magnetometer's
    /// correlated error that survives the heading's averaging.
    @inline(__always)
    public func headingUncertainty(settings: AttitudeSettings) -> Double {
        (headingVariance + headingSystematic * headingSystematic + surviving).squareRoot()
    }

    /// Gyro-only growth over one step. `netRate` is the rotation rate averaged in the earth frame
    /// (°/s, NED): its down component turns the heading, its horizontal part the tilt (a scale
    /// error cancels when rotating back and forth). `rate` is the current rotation rate (°/s):
    /// integration errors that grow with any rotation (coning between samples, axis misalignment).
    @inline(__always)
    public mutating func propagate(netRate: Vector3, rate: Double, dt: Double, settings: AttitudeSettings) {
        // Integration errors that grow with any rotation (coning between samples, axis
        // misalignment) change sign as the motion does: a random walk whose steps, correlated over
        // about a second, are `gyroRotationUncertainty` of the angle turned.
        let rotation = settings.gyroRotationUncertainty * rate
        let q = biasRandomWalk * dt, w = (angleRandomWalk + rotation * rotation) * dt
        tiltVariance = min(8100, tiltVariance + dt * (2 * tiltCovariance + tiltBiasVariance * dt) + w)
        tiltCovariance += tiltBiasVariance * dt
        tiltBiasVariance = min(biasVarianceLimit, tiltBiasVariance + q)
        headingVariance = min(32400, headingVariance + dt * (2 * headingCovariance + headingBiasVariance * dt) + w)
        headingCovariance += headingBiasVariance * dt
        headingBiasVariance = min(biasVarianceLimit, headingBiasVariance + q)
        let horizontal = (netRate.x * netRate.x + netRate.y * netRate.y).squareRoot()
        // The scale error the references' corrections have shown (`observeCorrections`); the
        // datasheet's until they have watched for long enough.
        tiltSystematic = min(90, tiltSystematic + tiltScale * horizontal * dt)
        headingSystematic = min(180, headingSystematic + headingScale * abs(netRate.z) * dt)
    }

    /// The corrections the references made this step (degrees: the levelling's rotation about the
    /// two horizontal axes of the unheaded earth frame, and the heading's turn), averaged as the net
    /// rotation rate is (`gain`, over `netRateTimeConstant`), and whether each reference was
    /// trusted in full this step. As the body turns, what the gyro's scale factor gets wrong the
    /// references keep correcting: over the net rotation `netRate` (°/s, the same frame) the
    /// average correction rate bounds the scale error the gyro really has, which the systematic
    /// drifts then grow by where it is below `gyroScaleUncertainty`. A correction rate also counts
    /// an unlearned bias and accelerations let in, so the bound errs large; the innovations' own
    /// scatter, averaged the same way, is taken out of the heading's. Below `minimumNetRate` (°/s)
    /// of rotation it is taken over that rate. Only a trusted reference's corrections are averaged,
    /// and a bound is used only once it spans the average's time constant of them (the datasheet's
    /// figure until then); while a reference is rejected the bound it last showed stands, since the
    /// scale factor is the gyro's own.
    @inline(__always)
    public mutating func observeCorrections(tiltX: Double, tiltY: Double, heading: Double,
                                            tiltTrusted: Bool, headingTrusted: Bool, netRate: Vector3,
                                            gain: Double, dt: Double, minimumNetRate: Double,
                                            settings: AttitudeSettings) {
        guard dt > 0 else { return }
        let perSecond = gain / dt
        // (gain × (x / dt − average), with the division once.)
        // Only a trusted reference's corrections count: a rejected one corrects little or nothing,
        // which would read as a good gyro. The scale is the gyro's own and does not change while a
        // reference is rejected, so the bound stands then as it was last shown.
        if tiltTrusted {
            tiltCorrectionRate.x += tiltX * perSecond - gain * tiltCorrectionRate.x
            tiltCorrectionRate.y += tiltY * perSecond - gain * tiltCorrectionRate.y
            tiltWatchedSeconds += dt
        }
        if headingTrusted {
            headingCorrectionRate += heading * perSecond - gain * headingCorrectionRate
            headingWatchedSeconds += dt
        }
        // The bounds move with 15 s averages: worked out again every few samples.
        scaleCountdown -= 1
        guard scaleCountdown <= 0 else { return }
        scaleCountdown = 8
        let prior = settings.gyroScaleUncertainty, floor = minimumNetRate * minimumNetRate
        let horizontal = max(floor, netRate.x * netRate.x + netRate.y * netRate.y)
        // An average is a bound only once it spans its time constant of watched corrections.
        let spanned = dt / gain
        if tiltWatchedSeconds >= spanned {
            let tiltRate = tiltCorrectionRate.x * tiltCorrectionRate.x + tiltCorrectionRate.y * tiltCorrectionRate.y
            tiltScale = min(prior, (tiltRate / horizontal).squareRoot())
        }
        guard headingWatchedSeconds >= spanned else { return }
        // What the averaged correction rate would show with no scale error at all: the innovations'
        // own scatter (white and correlated) averaged the same way, through the heading's gain.
        let innovationNoise = surviving + whiteNoise * gain / (2 - gain)
        let noiseRate = innovationNoise / max(headingTimeConstant * headingTimeConstant, 1e-6)
        let systematicRate = max(0, headingCorrectionRate * headingCorrectionRate - noiseRate).squareRoot()
        headingScale = min(prior, systematicRate / max(abs(netRate.z), minimumNetRate))
    }

    /// A rest measured the bias: the rate errors' variances become these ((°/s)²), the angle errors'
    /// covariance with them shrinks in proportion.
    public mutating func restMeasured(tiltBiasVariance tilt: Double, headingBiasVariance heading: Double) {
        if tiltBiasVariance > 0 { tiltCovariance *= min(1, tilt / tiltBiasVariance) }
        if headingBiasVariance > 0 { headingCovariance *= min(1, heading / headingBiasVariance) }
        tiltBiasVariance = tilt
        headingBiasVariance = heading
    }

    /// One correction of a two-state error (angle, rate) in Joseph form: the angle moved by `k` of
    /// the disagreement, the rate by `c` (°/s per degree), the reference's noise variance `r`.
    @inline(__always)
    private static func correct(_ p: inout Double, _ pc: inout Double, _ pb: inout Double, k: Double, c: Double, r: Double) {
        let a = 1 - k
        let newP = a * a * p + k * k * r
        let newC = a * (pc - c * p) + k * c * r
        let newB = pb - 2 * c * pc + c * c * (p + r)
        p = newP; pc = newC; pb = max(0, newB)
    }

    /// Gravity corrected the tilt with gain `gain` and the bias with `biasGain` (°/s per degree);
    /// `noiseVariance` is the accelerometer's own per-sample tilt noise (degrees²). `rollResidual` and
    /// `pitchResidual` are the specific force's angles from the vertical about the two axes, averaged
    /// into their mean squares with `averagingGain`; `rollLean` and `pitchLean` how far the specific
    /// force has leant over the last seconds (the short average against the slow one) — an
    /// acceleration the average may have taken in.
    public mutating func tiltCorrected(gain: Double, biasGain: Double, noiseVariance: Double,
                                       rollResidual: Double, pitchResidual: Double,
                                       rollLean leanX: Double, pitchLean leanY: Double, averagingGain: Double,
                                       dt: Double, settings: AttitudeSettings) {
        tiltCorrected(gain: gain, biasGain: biasGain, noiseVariance: noiseVariance,
                      rollResidual: rollResidual, pitchResidual: pitchResidual, rollLean: leanX, pitchLean: leanY,
                      averagingGain: averagingGain, slowGain: lowPassGain(dt: dt, tau: settings.magneticTimeConstant),
                      tiltNoiseSquare: settings.tiltNoiseDegrees * settings.tiltNoiseDegrees)
    }

    /// The same, with the gain over `magneticTimeConstant` for this step and `tiltNoiseDegrees`²
    /// worked out already.
    @inline(__always)
    mutating func tiltCorrected(gain: Double, biasGain: Double, noiseVariance: Double,
                                rollResidual: Double, pitchResidual: Double,
                                rollLean leanX: Double, pitchLean leanY: Double, averagingGain: Double,
                                slowGain slow: Double, tiltNoiseSquare: Double) {
        rollResidualMeanSquare += averagingGain * (rollResidual * rollResidual - rollResidualMeanSquare)
        pitchResidualMeanSquare += averagingGain * (pitchResidual * pitchResidual - pitchResidualMeanSquare)
        Self.correct(&tiltVariance, &tiltCovariance, &tiltBiasVariance, k: gain, c: biasGain, r: noiseVariance)
        tiltSystematic -= gain * tiltSystematic
        // Part of a sustained lean gets into the average before rejection holds it: rise at once.
        // It leaves the tilt as the average learns, but the heading, corrected from a field seen
        // through that tilt, keeps it for about `magneticTimeConstant`: decay at the slower rate.
        let decay = min(gain, slow)
        rollLean = max(rollLean - decay * rollLean, min(90, max(0, leanX)))
        pitchLean = max(pitchLean - decay * pitchLean, min(90, max(0, leanY)))
        let common = tiltVariance + tiltSystematic * tiltSystematic + tiltNoiseSquare
        // Rising at the heading's pace; falling as fast as the tilt itself is corrected (the heading's
        // own drift covers what it took in before).
        let roll = common + rollLean * rollLean, pitch = common + pitchLean * pitchLean
        slowRollVariance += (roll > slowRollVariance ? slow : max(slow, gain)) * (roll - slowRollVariance)
        slowPitchVariance += (pitch > slowPitchVariance ? slow : max(slow, gain)) * (pitch - slowPitchVariance)
    }

    /// The smaller of what the roll and pitch leans decay to with a gravity correction of `gain`
    /// (`tiltCorrected`): a lean of at most this leaves both as they decay.
    @inline(__always)
    func decayedLean(gain: Double, slowGain slow: Double) -> Double {
        let decay = min(gain, slow)
        return min(rollLean - decay * rollLean, pitchLean - decay * pitchLean)
    }

    /// The magnetometer corrected the heading with gain `gain` and the bias with `biasGain` (°/s per
    /// degree); `noiseVariance` is the field's per-sample heading noise as the datasheet gives it
    /// (degrees²); `innovationDegrees` is the disagreement, averaged into its statistics with
    /// `averagingGain`; `probeGain` is the gain of `probeTimeConstant` for this step.
    ///
    /// The innovations tell the magnetometer's error apart, without assuming its noise:
    /// - *white noise*: half the mean square of the innovation's change from one sample to the next
    ///   (the part that changes from sample to sample), never less than the datasheet's;
    /// - *correlated error* (distortion, calibration residual: it depends on the orientation, so it
    ///   stays for a time τ_c): the mean square less the white noise, V;
    /// - its correlation time, from how much of it a short average of the past innovations
    ///   (`probeTimeConstant`, τ_p) still shares with the current one: ρ = τ_c / (τ_c + τ_p) of V
    ///   for an error correlated over τ_c, whatever the white noise (the current sample's is not in
    ///   the average).
    /// What the heading's average over τ leaves of it is V·τ_c / τ (at most V): a field that errs
    /// the same way for as long as the heading averages is followed, and that part the innovations
    /// cannot show at all (it is the calibration's, `calibrationResidual` where one is known).
    @inline(__always)
    public mutating func headingCorrected(gain: Double, biasGain: Double, noiseVariance: Double,
                                          innovationDegrees: Double, averagingGain: Double, probeGain: Double,
                                          dt: Double, timeConstant: Double) {
        innovationMeanSquare += averagingGain * (innovationDegrees * innovationDegrees - innovationMeanSquare)
        if let last = lastInnovation {
            let step = innovationDegrees - last
            innovationStepMeanSquare += averagingGain * (step * step - innovationStepMeanSquare)
            innovationLagProduct += averagingGain * (innovationDegrees * innovationProbe - innovationLagProduct)
        }
        innovationProbe += probeGain * (innovationDegrees - innovationProbe)
        lastInnovation = innovationDegrees
        whiteNoise = max(noiseVariance, 0.5 * innovationStepMeanSquare)
        // The correlated part moves with averages over the heading's time constant: worked out
        // again every few samples.
        survivingCountdown -= 1
        if survivingCountdown <= 0 {
            survivingCountdown = 8
            let correlated = max(0, innovationMeanSquare - whiteNoise)
            let shared = correlated > 0 ? min(0.95, max(0, innovationLagProduct / correlated)) : 0
            let correlationTime = Self.probeTimeConstant * shared / (1 - shared)
            surviving = correlated * min(1, correlationTime / max(timeConstant, 1e-3))
        }
        headingTimeConstant = timeConstant
        Self.correct(&headingVariance, &headingCovariance, &headingBiasVariance, k: gain, c: biasGain, r: whiteNoise)
        headingSystematic -= gain * headingSystematic
    }

    /// Time constant (s) of the short average of past innovations that measures how long the
    /// magnetometer's error stays correlated: longer than a sample, shorter than the heading's
    /// averaging.
    public static let probeTimeConstant = 0.5

    /// Restores both bias uncertainties (°/s, 1σ), as kept across a restart.
    public mutating func setBiasUncertainty(tilt: Double, heading: Double) {
        tiltBiasVariance = tilt * tilt
        headingBiasVariance = heading * heading
        tiltCovariance = 0
        headingCovariance = 0
    }

    /// Sets the heading drift directly (at initialisation from one field measurement), degrees 1σ.
    public mutating func setHeadingDrift(_ degrees: Double) {
        headingVariance = degrees * degrees; headingCovariance = 0; headingSystematic = 0
    }

    /// Sets the tilt drift directly (at initialisation from one gravity measurement), degrees 1σ.
    public mutating func setTiltDrift(_ degrees: Double) {
        tiltVariance = degrees * degrees; tiltCovariance = 0; tiltSystematic = 0
        slowRollVariance = tiltVariance; slowPitchVariance = tiltVariance
    }

    /// Reported heading accuracy (degrees): heading and tilt uncertainty combined, times the coverage
    /// factor, capped at 180°. `dipTangent` is tan(dip) of the measured field (vertical over
    /// horizontal component); `tiltAlongField` is the tilt uncertainty about the horizontal axis along
    /// the field's horizontal component (degrees, 1σ), the one a dip turns into heading.
    @inline(__always)
    public func headingAccuracyDegrees(dipTangent: Double, tiltAlongField: Double, settings: AttitudeSettings) -> Double {
        let leverage = min(8, abs(dipTangent.isFinite ? dipTangent : 8))
        let tilt = tiltAlongField * leverage
        let heading = headingUncertainty(settings: settings)
        return min(180, settings.accuracyCoverageFactor * (heading * heading + tilt * tilt).squareRoot())
    }

    /// Reported roll and pitch accuracies (degrees), capped at 90°.
    @inline(__always)
    public func rollAccuracyDegrees(settings: AttitudeSettings) -> Double {
        min(90, settings.accuracyCoverageFactor * rollUncertainty(settings: settings))
    }

    @inline(__always)
    public func pitchAccuracyDegrees(settings: AttitudeSettings) -> Double {
        min(90, settings.accuracyCoverageFactor * pitchUncertainty(settings: settings))
    }
}
