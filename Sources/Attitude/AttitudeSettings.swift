/// Every tunable of the `AttitudeFilter`, with its unit and default.
///
/// The defaults come from physics and typical MEMS noise figures, not from fitting one recording:
/// - gravity is averaged in a gyro-stabilised frame over `accelerationTimeConstant` (5 s, two
///   stages): shaking by several g averages out, while a rest-calibrated gyro (bias error about
///   0.05 °/s) drifts only about 0.25° in that time;
/// - the magnetometer corrects heading over `magneticTimeConstant` (15 s): an uncalibrated or
///   distorted field gives heading errors of several degrees from sample to sample, which a gyro
///   bias of 0.05 °/s would take 60 s to match.
///
/// How far each reference is trusted follows from the physics where it can: gravity's time constant
/// is the one that balances the tilt the gyro lets drift (its scale error times the rotation rate,
/// and the bias's uncertainty) against the accelerations the average lets in (the specific force's
/// measured scatter), between `accelerationMinimumTimeConstant` and `accelerationTimeConstant`; a
/// still body is levelled within a second or two (`restAccelerationTimeConstant`), unless its
/// specific force leans where the gyro saw nothing turn (a steady push); the innovation gate widens
/// by the vertical rate times the magnetometer's timing uncertainty. A few settings still strike a
/// balance between trusting the gyro and trusting the references (the innovation gate's floor, the
/// rejection angle and the drift allowed while gravity is rejected, `gyroRotationUncertainty`);
/// their defaults were picked where all four BROAD development trials (01, 07, 15, 30) improved
/// together, not for one of them.
///
/// The noise figures (`gyroNoiseDensity`, `gyroBiasInstability`, `accelerometerNoiseDensity`,
/// `magnetometerNoise`, `gyroScaleUncertainty`) are datasheet values of consumer MEMS parts, and
/// the rest thresholds follow from them; none was fitted to a recording. The one new balance,
/// how fast the |B| and dip tolerances learn the field's scatter (`magneticSpreadTimeConstant`),
/// was chosen on the simulated boat through 15 µT disturbances, with BROAD 04, 16, 27 and 33
/// only checked afterwards.
///
/// ```swift
/// var settings = AttitudeSettings()
/// settings.magneticTimeConstant = 20      // s: trust the gyro longer in a noisy magnetic field
/// var filter = AttitudeFilter(settings: settings)
/// ```
public struct AttitudeSettings: Sendable, Hashable {
    // MARK: Gravity (accelerometer)

    /// Time constant (s) of the low-pass filter applied to the specific force in the gyro-stabilised
    /// frame before it corrects roll and pitch (two first-order stages of half this each). Longer
    /// rejects longer accelerations but lets gyro errors build up. Default 5 s.
    public var accelerationTimeConstant: Double = 5

    /// Shortest time constant (s) of the gravity average. Gravity's time constant is the one that
    /// balances the two errors it trades (`AttitudeFilter`): the tilt the gyro lets drift, which grows
    /// with the rotation rate (`gyroScaleUncertainty`, `gyroRotationUncertainty`) and the bias's
    /// uncertainty, against the accelerations the average lets in (the specific force's measured
    /// scatter about the vertical, correlated over `accelerationCorrelationTime`). Fast rotation with
    /// little acceleration shortens it towards this; a vehicle's accelerations hold it at
    /// `accelerationTimeConstant`. It stays above a quarter of `motionBiasInitialTimeConstant`, so
    /// the loop that learns the bias from gravity stays damped (½·√(T/τ) ≥ 1). Default 2 s.
    public var accelerationMinimumTimeConstant: Double = 2

    /// How long a body's accelerations stay correlated (s): a hand's strokes and a walker's steps
    /// for a fraction of a second, a vehicle's turns and launches for seconds. Default 1 s.
    public var accelerationCorrelationTime: Double = 1

    /// Time constant (s) of the short average of the specific force (in the gyro-stabilised frame)
    /// that rejection compares with the slow one (`accelerationReferenceTimeConstant`), in two
    /// stages of half this each, as gravity's own average: it smooths vibration and strokes of
    /// shaking (a hand moved to and fro, a body translated back and forth), not a vehicle's launch
    /// or turn. Default 2 s.
    public var accelerationRejectionTimeConstant: Double = 2

    /// Time constant (s) of the slow average of the specific force that rejection compares with:
    /// longer than a launch or a turn, so those stand out, and it also ends a lasting rejection.
    /// Default 20 s.
    public var accelerationReferenceTimeConstant: Double = 20

    /// Angle (degrees) between the short and the slow average of the specific force beyond which
    /// samples are treated as vehicle acceleration and weighted by `accelerationRejectionWeight`:
    /// a 0.12 g launch or turn. Default 7°.
    public var accelerationRejectionDegrees: Double = 7

    /// Deviation of the short average's magnitude from 1 g beyond which samples are also rejected (g).
    /// A vertical acceleration (heave) does not tilt the estimate, so this only guards against
    /// shocks and free fall. Default 0.5 g.
    public var accelerationRejectionNorm: Double = 0.5

    /// How long rejection holds on after the lean has ended (s): a stroke's return is left out with
    /// its push, so the average stays unbiased. Default 2 s.
    public var accelerationRejectionHold: Double = 2

    /// Weight (0…1) of a rejected accelerometer sample in the gravity average. Default 0.1.
    public var accelerationRejectionWeight: Double = 0.1

    /// Gravity is rejected only while the tilt the gyro carries on its own is believed within this
    /// (degrees, 1σ drift of the accuracy model): a gyro that drifts in vigorous motion gets
    /// gravity back before its error exceeds what the acceleration would cause. Default 2°.
    public var accelerationRejectionMaximumDriftDegrees: Double = 2

    /// Rejection balance (s) at which gravity is trusted again at full weight: rejected time adds to
    /// the balance, accepted time drains it (see `accelerationRejectionBudget`); once it reaches
    /// this, every sample counts until the balance is drained. So a long acceleration or a wrong
    /// estimate never freezes the tilt. Default 10 s.
    public var accelerationRejectionTimeout: Double = 10

    /// How fast accepted time drains the rejection balance, relative to rejected time filling it
    /// (per second). With 0.5, rejecting more than a third of the time ends in recovery. Default 0.5.
    public var accelerationRejectionBudget: Double = 0.5

    // MARK: Heading (magnetometer)

    /// Time constant (s) of the heading correction from the magnetometer. Default 15 s.
    public var magneticTimeConstant: Double = 15

    /// Heading drift (degrees) the gyro may accumulate in one heading time constant: while the gyro
    /// bias about the vertical is uncertain (σ °/s), the time constant shortens to this / σ, down to
    /// `magneticMinimumTimeConstant`. About what a calibrated magnetometer's heading is good to (a
    /// 0.5 µT residual across a 20–25 µT horizontal field is 1.2–1.4°): a gyro whose bias is still
    /// being learned should add no more than the field's own error. Default 1°.
    public var magneticDriftAllowanceDegrees: Double = 1

    /// Shortest heading time constant (s) that `magneticDriftAllowanceDegrees` can bring. Default 2 s.
    public var magneticMinimumTimeConstant: Double = 2

    /// Widest relative deviation of |B| from the reference that passes for undisturbed (fraction);
    /// beyond the tolerance the heading correction is weighted by (tolerance / deviation)². The
    /// tolerance itself is `magneticToleranceSigmas` times the field's learned scatter, between
    /// `magneticNormMinimumTolerance` and this (see `MagneticReference`). Default 0.1 (10 %).
    public var magneticNormTolerance: Double = 0.1

    /// Widest deviation of the dip angle from the reference that passes for undisturbed (degrees).
    /// Default 10°.
    public var magneticDipToleranceDegrees: Double = 10

    /// Narrowest |B| tolerance (fraction), however steady the field: the field itself changes by
    /// this much with temperature and a magnetometer's scale by about as much. Default 0.02 (2 %).
    public var magneticNormMinimumTolerance: Double = 0.02

    /// Narrowest dip tolerance (degrees): what a tilt error of the averaged gravity moves the dip by.
    /// Default 2°.
    public var magneticDipMinimumToleranceDegrees: Double = 2

    /// The |B| and dip tolerances are this many times the undisturbed field's RMS scatter. Default 3.
    public var magneticToleranceSigmas: Double = 3

    /// Time constant (s) over which that scatter is learned, from undisturbed samples only: as the
    /// reference itself (`magneticReferenceTimeConstant`). Default 20 s.
    public var magneticSpreadTimeConstant: Double = 20

    /// Smallest disagreement (degrees) between the magnetometer's heading and the gyro-carried
    /// heading that rejects the field, whatever its magnitude and dip. Default 5°.
    public var magneticInnovationGateDegrees: Double = 5

    /// The disagreement limit also scales with how far the field usually scatters: this many times
    /// the RMS of the accepted disagreements. Default 3.
    public var magneticInnovationGateSigmas: Double = 3

    /// Time constant (s) over which the magnetometer's lag behind the gyro is learned from fast
    /// turns (see `MagneticLag`); 0 disables the lag correction. Default 30 s.
    public var magneticLagTimeConstant: Double = 30

    /// Slowest turn (°/s) from which the lag is learned. Default 60 °/s.
    public var magneticLagMinimumRate: Double = 60

    /// Largest lag (s) the correction may assume. Default 0.05 s.
    public var magneticLagLimit: Double = 0.05

    /// How far apart in time a magnetometer sample and the gyro's may be, beyond the learned lag
    /// (s, 1σ): half the period of a 100 Hz magnetometer, whose sample is held until its next. In a
    /// fast turn the field's heading and the gyro's then disagree by the vertical rate times this,
    /// which the innovation gate allows for (`InnovationGate`). Default 0.005 s.
    public var magneticTimingUncertainty: Double = 0.005

    /// Time constant (s) with which the learned field reference (|B|, dip) follows an undisturbed
    /// field. Default 20 s.
    public var magneticReferenceTimeConstant: Double = 20

    /// Longest a disturbance is rejected while the gyro alone carries the heading (s); after it the
    /// current field becomes the reference (a new magnetic environment). Default 60 s.
    public var magneticRejectionTimeout: Double = 60

    /// Heading uncertainty the gyro may accumulate during a disturbance before the field is accepted
    /// again (degrees, 1σ). Default 10°.
    public var magneticRejectionMaximumDriftDegrees: Double = 10

    /// Time constant (s) of the heading correction after a rejection outlasted the gyro (the field is
    /// then right and the gyro-held heading is not): converge quickly. Default 2 s.
    public var magneticRecoveryTimeConstant: Double = 2

    /// Time constant (s) of the candidate reference tracked during a disturbance. Default 3 s.
    public var magneticCandidateTimeConstant: Double = 3

    // MARK: Gyroscope bias

    // MARK: Sensor noise figures (datasheet values of consumer MEMS parts)

    /// Gyro white noise density (°/s/√Hz): the angle random walk, how far the integrated angle
    /// wanders per √s. ICM-20948 0.015, MPU-6050 0.005, LSM6DSL 0.004, BMI160 0.007. Default 0.015.
    public var gyroNoiseDensity: Double = 0.015

    /// Gyro bias instability as a random walk of the bias (°/s per √s): temperature and ageing move
    /// a MEMS bias by about a tenth of a degree per second over an hour. Default 0.002.
    public var gyroBiasInstability: Double = 0.002

    /// Accelerometer white noise density (g/√Hz). MPU-6050 400 µg, ICM-20948 230 µg, LSM6DSL 90 µg.
    /// Default 0.0003 (300 µg/√Hz).
    public var accelerometerNoiseDensity: Double = 0.0003

    /// Magnetometer noise (µT RMS per sample). QMC5883L and HMC5883L about 0.2, LIS3MDL 0.3 at high
    /// rates, AK09916 0.15 per LSB. Default 0.3 µT.
    public var magnetometerNoise: Double = 0.3

    // MARK: Rest (gyroscope and accelerometer over a window)

    /// A sample counts towards rest when the gyro differs from its short average by less than this
    /// and that average is below it (°/s): shocks end a rest, and a bias is never this large. Default 2 °/s.
    public var restGyroThreshold: Double = 2

    /// A sample counts towards rest when the specific force differs from its short average by less
    /// than this (g). Default 0.05 g.
    public var restAccelerationThreshold: Double = 0.05

    /// Farthest the gyro's short average may move during a rest (°/s): a still gyro's average holds
    /// within its noise (0.015 °/s/√Hz over 0.5 s: 0.015 °/s) ten times over, while a slow motion's
    /// rate keeps changing (a swell's roll by several °/s per second). Default 0.2 °/s.
    public var restGyroSteadiness: Double = 0.2

    /// Farthest the specific force's short average may move during a rest (g): the tilt of a still
    /// body holds within the accelerometer's noise (0.3 mg averaged) while a rolling boat's changes
    /// by a degree (0.017 g) within a second even as its roll stops. Default 0.005 g (0.3°).
    public var restAccelerationSteadiness: Double = 0.005

    /// Farthest the field may turn about gravity during a rest, in standard deviations of the noise
    /// of reading that turn from two averages of the field over `restFilterTimeConstant`. A turn
    /// about the vertical leaves gravity where it is in the body and can read as steady as a bias on
    /// the gyro (a ship turning at 0.5 °/s); only the field shows it. The noise is the field's white
    /// heading noise per sample (as the innovations measure it, at least `magnetometerNoise` across
    /// the horizontal field) times each average's share k / (2 − k), twice: about 0.26° on BROAD's
    /// magnetometer, 0.08° for 0.2 µT across 20 µT at 100 Hz. A still body's field stays within
    /// 3σ all but 0.3 % of the time; a steady 0.2 °/s turn passes 3 × 0.08° in 1.2 s, before the
    /// 1.5 s a rest needs. A rest claims the vertical bias no better than the turn it saw over its
    /// duration. Default 3.
    public var restFieldTurnSigmas: Double = 3

    /// Time constant (s) of the short averages used for rest detection. Default 0.5 s.
    public var restFilterTimeConstant: Double = 0.5

    /// Continuous stillness (s) before the window counts as rest and measures the bias. Default 1.5 s.
    public var restMinimumDuration: Double = 1.5

    /// Time constant (s) of the gravity average while at rest (two stages of half this each): a still
    /// body's specific force is gravity and the accelerometer's noise alone (0.3 mg/√Hz: 0.02° over
    /// half a second), so the tilt a motion left wrong is levelled within a second or two rather
    /// than over `accelerationTimeConstant`. Default 0.5 s.
    public var restAccelerationTimeConstant: Double = 0.5

    /// How far (g) the magnitude of a still body's specific force may be from the one at the last
    /// rest for the rest to level the tilt although the specific force leans from its slow average
    /// (a car cruising after a launch or a turn that the average took in). 2 mg: an accelerometer's
    /// offset drifts about 1 mg per °C; a push leaning the specific force by 3.6° lengthens it by as
    /// much, so only a push that small can pass for rest. Default 0.002 g.
    public var restMagnitudeTolerance: Double = 0.002

    /// Rotation rate (°/s, 1σ) a body that passes for still may yet have (a desk's sway, a slow turn
    /// within the steadiness limits): what one rest's mean gyro is uncertain by beyond the averaged
    /// noise. The rest measurement is blended with the bias known before in proportion to their
    /// uncertainties. Default 0.02 °/s.
    public var restResidualRate: Double = 0.02

    /// Time constant (s) of the bias estimate while moving, once settled, from the corrections that
    /// gravity and the field keep making. Each reference teaches the bias only while it is trusted:
    /// gravity while no acceleration is being rejected (an acceleration that averages out, such as a
    /// boat's heave or a walker's steps, does not stop it), the field while it agrees with the
    /// gyro and the reference. Default 100 s.
    public var motionBiasTimeConstant: Double = 100

    /// Time constant (s) of the motion bias estimate for a gyro whose bias is uncertain by
    /// `initialBiasUncertainty`: it lengthens in inverse proportion to the uncertainty, up to
    /// `motionBiasTimeConstant`, so a fresh gyro's bias is learned in about a minute of moving,
    /// then held steady, and one known from a rest is only refined. With `accelerationTimeConstant`
    /// τ it forms a loop damped by ½·√(T/τ): keep T above τ, or the loop rings. Default 8 s.
    public var motionBiasInitialTimeConstant: Double = 8

    /// Largest rotation rate (°/s) at which motion bias estimation runs. Default 30 °/s.
    public var motionBiasRateLimit: Double = 30

    /// Largest bias the estimate may reach (°/s); MEMS gyros stay within a few °/s. Default 5 °/s.
    public var maximumBias: Double = 5

    // MARK: Accuracy model

    /// Gyro bias uncertainty (°/s, 1σ) before any rest. Default 1 °/s.
    public var initialBiasUncertainty: Double = 1

    /// Gyro scale-factor uncertainty (fraction of the rate), after the factory trim of a consumer
    /// MEMS gyro. Default 0.005 (0.5 %).
    public var gyroScaleUncertainty: Double = 0.005

    /// Net rotation rate (°/s) from which the references' corrections tell how good the gyro's scale
    /// factor really is (`AttitudeAccuracyModel.observeCorrections`): with at least this much
    /// turning over `netRateTimeConstant`, a scale error's drift stands above the bias's and the
    /// noise's. Default 10 °/s.
    public var gyroScaleObservationRate: Double = 10

    /// Integration error per degree of any rotation, back and forth included (coning between
    /// samples, axis misalignment), as a fraction. Default 0.0005 (0.5° per 1000° turned).
    public var gyroRotationUncertainty: Double = 0.0005

    /// Tilt uncertainty (degrees, 1σ) of the averaged gravity when the motion is calm. Default 0.5°.
    /// Also the prior of the tilt error the heading takes in (`tiltErrorAveragingTimeConstant`),
    /// until the field's dip has shown it.
    public var tiltNoiseDegrees: Double = 0.5

    /// Time constant (s) of the slow average of the field's dip as the estimated tilt shows it: the
    /// dip the sensor sees over minutes, against which the accuracy model measures how far the
    /// tilt strays about the horizontal axis across the field. Default 120 s.
    public var dipReferenceTimeConstant: Double = 120

    /// Time constant (s) of the mean square of the dip's stray from that average, each stray first
    /// averaged over `magneticTimeConstant` as the heading averages the field. A tilt error about
    /// the axis along the field turns the heading by tan(dip) times itself and shows nowhere; one
    /// about the axis across it shows as that stray in the dip, one for one. Errors of tilt have no
    /// preferred direction on the horizontal (a push, a lean, an accelerometer bias turn with the
    /// vehicle), so the one the dip shows measures the one it hides. Default 60 s.
    public var tiltErrorAveragingTimeConstant: Double = 60

    /// Time constant (s) of the earth-frame average of the rotation rate whose magnitude drives the
    /// scale-factor part of the drift (back-and-forth rotation cancels out). Default 15 s.
    public var netRateTimeConstant: Double = 15

    /// Multiplier from the 1σ model to the reported `accuracyDegrees`: 1.645 covers 90 % of a normal
    /// error. Default 1.645.
    public var accuracyCoverageFactor: Double = 1.645

    // MARK: Start-up, time and external acceleration

    /// Seconds after the first sample during which the filter converges quickly (time constants
    /// ramp up from `initialTimeConstant`) and the estimate is flagged initialising. Default 3 s.
    public var initialisationDuration: Double = 3

    /// Time constant (s) of both corrections at the very first sample. Default 0.2 s.
    public var initialTimeConstant: Double = 0.2

    /// Sample period assumed for the first sample (s). Default 0.01 s.
    public var nominalSamplePeriod: Double = 0.01

    /// Longest gap between samples that is integrated (s); a longer gap restarts the filter. Default 1 s.
    public var maximumSampleGap: Double = 1

    /// How long a vehicle acceleration (from GNSS) stays valid after it is set (s). Default 1.5 s.
    public var vehicleAccelerationHold: Double = 1.5

    /// Heading is reported only while |pitch| stays below this (degrees). Default 88°.
    public var headingPitchLimit: Double = 88

    public init() {}
}
