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
/// A few settings strike a balance between trusting the gyro and trusting the references (the
/// innovation gate's width, the rejection angle and the drift allowed while gravity is rejected,
/// `gyroRotationUncertainty`, `tiltLeanFraction`);
/// their defaults were picked where all four BROAD development trials (01, 07, 15, 30) improved
/// together, not for one of them.
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

    /// Time constant (s) of the short average of the specific force (in the gyro-stabilised frame)
    /// that rejection compares with the slow one (`accelerationReferenceTimeConstant`): it smooths
    /// vibration and strokes of shaking (a hand moved to and fro), not a vehicle's launch or turn.
    /// Default 2 s.
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
    /// `magneticMinimumTimeConstant`. Default 2°.
    public var magneticDriftAllowanceDegrees: Double = 2

    /// Shortest heading time constant (s) that `magneticDriftAllowanceDegrees` can bring. Default 2 s.
    public var magneticMinimumTimeConstant: Double = 2

    /// Relative deviation of |B| from the reference beyond which the field is disturbed (fraction);
    /// beyond it the heading correction is weighted by (tolerance / deviation)². Default 0.1 (10 %).
    public var magneticNormTolerance: Double = 0.1

    /// Deviation of the dip angle from the reference beyond which the field is disturbed (degrees).
    /// Default 10°.
    public var magneticDipToleranceDegrees: Double = 10

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

    /// A sample counts towards rest when the gyro differs from its 0.5 s average by less than this
    /// and that average is below it (°/s). Default 2 °/s.
    public var restGyroThreshold: Double = 2

    /// A sample counts towards rest when the specific force differs from its 0.5 s average by less
    /// than this (g). Default 0.05 g.
    public var restAccelerationThreshold: Double = 0.05

    /// Time constant (s) of the averages used for rest detection. Default 0.5 s.
    public var restFilterTimeConstant: Double = 0.5

    /// Continuous rest (s) needed before the gyro bias is learned from the averaged gyro. Default 1.5 s.
    public var restMinimumDuration: Double = 1.5

    /// Time constant (s) with which the bias follows the averaged gyro at rest. Default 3 s.
    public var restBiasTimeConstant: Double = 3

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

    /// Gyro bias uncertainty (°/s) that learning in motion brings the estimate to, when there has
    /// been no rest. Default 0.1 °/s.
    public var motionBiasUncertainty: Double = 0.1

    /// Largest rotation rate (°/s) at which motion bias estimation runs. Default 30 °/s.
    public var motionBiasRateLimit: Double = 30

    /// Largest bias the estimate may reach (°/s); MEMS gyros stay within a few °/s. Default 5 °/s.
    public var maximumBias: Double = 5

    // MARK: Accuracy model

    /// Gyro bias uncertainty (°/s, 1σ) before any rest. Default 1 °/s.
    public var initialBiasUncertainty: Double = 1

    /// Gyro bias uncertainty (°/s, 1σ) reached after rest calibration. Default 0.05 °/s.
    public var restBiasUncertainty: Double = 0.05

    /// Growth of the bias uncertainty with time (°/s per s), from temperature and ageing. Default 1e-4.
    public var biasUncertaintyGrowth: Double = 1e-4

    /// Gyro scale-factor uncertainty (fraction of the rate), after the factory trim of a consumer
    /// MEMS gyro. Default 0.005 (0.5 %).
    public var gyroScaleUncertainty: Double = 0.005

    /// Integration error per degree of any rotation, back and forth included (coning between
    /// samples, axis misalignment), as a fraction. Default 0.0005 (0.5° per 1000° turned).
    public var gyroRotationUncertainty: Double = 0.0005

    /// Tilt uncertainty (degrees, 1σ) of the averaged gravity when the motion is calm. Default 0.5°.
    public var tiltNoiseDegrees: Double = 0.5

    /// Fraction of a sustained lean of the specific force (short against slow average) taken as tilt
    /// error: the short average needs about its own time constant to show a launch, and the gravity
    /// average takes part of it in meanwhile. Default 0.75.
    public var tiltLeanFraction: Double = 0.75

    /// Fraction of the specific force's scatter about the vertical (RMS, degrees) that survives the
    /// gravity average: about √(correlation time / (2 × accelerationTimeConstant)) with motions
    /// correlated over 0.1 s. Default 0.1.
    public var tiltResidualFraction: Double = 0.1

    /// Fraction of the magnetometer's heading scatter about the filtered heading (RMS) that remains in
    /// the heading: a distorted or uncalibrated field errs the same way at the same orientation, so
    /// averaging removes only part of it. Default 0.5.
    public var magneticScatterFraction: Double = 0.5

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
