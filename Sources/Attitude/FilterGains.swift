#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// What the filter's settings come to per sample, worked out once from them (`AttitudeFilter.init`):
/// the time constants as reciprocals, so a gain is a multiplication and a short series, and the
/// constant products the corrections use.
struct FilterTuning: Sendable {
    let netRate: LowPass
    let rejection: LowPass                  // the short average's span (the rotation speed's average)
    let rejectionStage: LowPass             // each of the short average's two stages
    let reference: LowPass                  // the slow one
    let gravity: LowPass                    // the gravity average, and the tilt residuals' mean squares
    let gravityStage: LowPass               // each of its two stages (half the time constant)
    let magnetic: LowPass                   // the heading, and the innovations' mean squares
    let spread: LowPass
    let magneticReference: LowPass
    let candidate: LowPass
    let lag: LowPass
    let restFilter: LowPass
    let innovationProbe: LowPass            // the innovations' short average (accuracy model)
    let dipReference: LowPass               // the dip's slow average (accuracy model)
    let tiltError: LowPass                  // the mean square of the dip's stray from it
    let restGravity: LowPass                // the gravity average while at rest
    let restGravityStage: LowPass           // each of its stages
    /// The accelerometer's white noise as a tilt variance (degrees²) times 2 dt.
    let accelerometerNoise: Double
    /// tan(`accelerationRejectionDegrees`), the lean beyond which the specific force is rejected.
    let rejectionTangent: Double
    /// The lean tolerance's bias part: 3 × the two averages' time constants apart (s).
    let biasLeanSpan: Double
    /// `magneticLagMinimumRate` in rad/s.
    let lagMinimumRate: Double
    /// `tiltNoiseDegrees`².
    let tiltNoiseSquare: Double
    /// The gyro's integration error per degree turned, scale and rotation together (fraction).
    let rotationDrift: Double
    /// Bounds of gravity's time constant (s).
    let gravityShortest: Double
    let gravityLongest: Double

    init(_ s: AttitudeSettings) {
        netRate = LowPass(tau: s.netRateTimeConstant)
        rejection = LowPass(tau: s.accelerationRejectionTimeConstant)
        rejectionStage = LowPass(tau: s.accelerationRejectionTimeConstant / 2)
        reference = LowPass(tau: s.accelerationReferenceTimeConstant)
        gravity = LowPass(tau: s.accelerationTimeConstant)
        gravityStage = LowPass(tau: s.accelerationTimeConstant / 2)
        magnetic = LowPass(tau: s.magneticTimeConstant)
        spread = LowPass(tau: s.magneticSpreadTimeConstant)
        magneticReference = LowPass(tau: s.magneticReferenceTimeConstant)
        candidate = LowPass(tau: s.magneticCandidateTimeConstant)
        lag = LowPass(tau: s.magneticLagTimeConstant)
        restFilter = LowPass(tau: s.restFilterTimeConstant)
        innovationProbe = LowPass(tau: AttitudeAccuracyModel.probeTimeConstant)
        dipReference = LowPass(tau: s.dipReferenceTimeConstant)
        tiltError = LowPass(tau: s.tiltErrorAveragingTimeConstant)
        restGravity = LowPass(tau: s.restAccelerationTimeConstant)
        restGravityStage = LowPass(tau: s.restAccelerationTimeConstant / 2)
        let noise = degrees(s.accelerometerNoiseDensity)
        accelerometerNoise = noise * noise
        rejectionTangent = tan(radians(min(89.9, max(0, s.accelerationRejectionDegrees))))
        biasLeanSpan = 3 * max(0, s.accelerationReferenceTimeConstant - s.accelerationRejectionTimeConstant)
        lagMinimumRate = radians(s.magneticLagMinimumRate)
        tiltNoiseSquare = s.tiltNoiseDegrees * s.tiltNoiseDegrees
        rotationDrift = (s.gyroScaleUncertainty * s.gyroScaleUncertainty
                         + s.gyroRotationUncertainty * s.gyroRotationUncertainty).squareRoot()
        gravityLongest = s.accelerationTimeConstant
        gravityShortest = min(s.accelerationTimeConstant,
                              max(s.accelerationMinimumTimeConstant, s.motionBiasInitialTimeConstant / 4))
    }
}

/// The gains of one sample period, kept while the period stays the same (to 1e-12 of itself, so
/// that reusing them changes no result) and worked out again when it changes: a steady sample rate
/// costs no gain at all, a jittering clock a multiplication and a series per gain.
struct StepGains: Sendable {
    private(set) var dt = -1.0
    private(set) var netRate = 0.0
    private(set) var rejection = 0.0
    private(set) var rejectionStage = 0.0
    private(set) var reference = 0.0
    private(set) var gravity = 0.0
    private(set) var gravityStage = 0.0
    private(set) var magnetic = 0.0
    private(set) var spread = 0.0
    private(set) var magneticReference = 0.0
    private(set) var candidate = 0.0
    private(set) var lag = 0.0
    private(set) var restFilter = 0.0
    private(set) var innovationProbe = 0.0
    private(set) var dipReference = 0.0
    private(set) var tiltError = 0.0
    private(set) var restGravity = 0.0
    private(set) var restGravityStage = 0.0
    /// The accelerometer's tilt noise per sample (degrees²).
    private(set) var tiltNoise = 0.0

    init() {}

    /// Brings the gains to the period `dt` (s), unless they are for it already.
    @inline(__always) mutating func update(dt step: Double, tuning t: FilterTuning) {
        if abs(step - dt) <= 1e-12 * step { return }
        dt = step
        netRate = t.netRate.gain(step)
        rejection = t.rejection.gain(step)
        rejectionStage = t.rejectionStage.gain(step)
        reference = t.reference.gain(step)
        gravity = t.gravity.gain(step)
        gravityStage = t.gravityStage.gain(step)
        magnetic = t.magnetic.gain(step)
        spread = t.spread.gain(step)
        magneticReference = t.magneticReference.gain(step)
        candidate = t.candidate.gain(step)
        lag = t.lag.gain(step)
        restFilter = t.restFilter.gain(step)
        innovationProbe = t.innovationProbe.gain(step)
        dipReference = t.dipReference.gain(step)
        tiltError = t.tiltError.gain(step)
        restGravity = t.restGravity.gain(step)
        restGravityStage = t.restGravityStage.gain(step)
        tiltNoise = t.accelerometerNoise / max(2 * step, 1e-6)
    }
}
