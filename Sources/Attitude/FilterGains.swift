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
    /// (`magnetometerNoise` in radians as degrees)²: over the horizontal field's square, the field's
    /// heading noise per sample (degrees²).
    let magnetometerNoiseSquare: Double
    /// `magneticLagMinimumRate` in rad/s.
    let lagMinimumRate: Double
    /// `tiltNoiseDegrees`².
    let tiltNoiseSquare: Double
    /// The gyro's integration error per degree turned, scale and rotation together (fraction).
    let rotationDrift: Double
    /// Bounds of gravity's time constant (s).
    let gravityShortest: Double
    let gravityLongest: Double
    /// Their cubes, with a margin of 1e-9 outwards (or ∓∞ for a bound that is not positive): beyond
    /// them the bound is the time constant without a cube root.
    let gravityShortestCube: Double
    let gravityLongestCube: Double

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
        magnetometerNoiseSquare = (s.magnetometerNoise * degreesPerRadian) * (s.magnetometerNoise * degreesPerRadian)
        lagMinimumRate = radians(s.magneticLagMinimumRate)
        tiltNoiseSquare = s.tiltNoiseDegrees * s.tiltNoiseDegrees
        rotationDrift = (s.gyroScaleUncertainty * s.gyroScaleUncertainty
                         + s.gyroRotationUncertainty * s.gyroRotationUncertainty).squareRoot()
        gravityLongest = s.accelerationTimeConstant
        gravityShortest = min(s.accelerationTimeConstant,
                              max(s.accelerationMinimumTimeConstant, s.motionBiasInitialTimeConstant / 4))
        gravityShortestCube = gravityShortest > 0 ? gravityShortest * gravityShortest * gravityShortest * (1 - 1e-9) : -.infinity
        gravityLongestCube = gravityLongest > 0 ? gravityLongest * gravityLongest * gravityLongest * (1 + 1e-9) : .infinity
    }
}

/// The gains of one sample period, kept while the period stays the same (to 1e-12 of itself, so
/// that reusing them changes no result) and worked out again when it changes: a steady sample rate
/// costs no gain at all, a jittering clock a multiplication and a series per gain.
///
/// The gains of the last few periods are kept too (`recent`): times read from a file or a clock
/// as large doubles make the same nominal period come out as two or three values a rounding error
/// apart, further apart than 1e-12 of it once the times pass a few hundred seconds, so the period
/// alternates between them. Each is looked up exactly, so taking its gains from there gives
/// bit for bit what working them out again would.
struct StepGains: Sendable {
    /// The gains for the period `dt` now in use.
    private(set) var current = PeriodGains()
    private var recent = (PeriodGains(), PeriodGains(), PeriodGains(), PeriodGains())
    private var next = 0

    init() {}

    /// Brings the gains to the period `dt` (s) when they are for it already, or were for one of the
    /// last few periods; false when they must be worked out (`add`).
    @inline(__always) mutating func take(dt step: Double) -> Bool {
        if abs(step - current.dt) <= 1e-12 * step { return true }
        if step == recent.0.dt { current = recent.0; return true }
        if step == recent.1.dt { current = recent.1; return true }
        if step == recent.2.dt { current = recent.2; return true }
        if step == recent.3.dt { current = recent.3; return true }
        return false
    }

    /// Makes `gains` the current ones, and keeps them in place of the oldest kept.
    mutating func add(_ gains: PeriodGains) {
        current = gains
        switch next {
        case 0: recent.0 = gains
        case 1: recent.1 = gains
        case 2: recent.2 = gains
        default: recent.3 = gains
        }
        next = (next + 1) & 3
    }
}

/// The gains of one sample period `dt`, each over its time constant (`FilterTuning`).
struct PeriodGains: Sendable {
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

    /// No period yet (`dt` −1: no step matches it).
    init() {}

    init(dt step: Double, tuning t: FilterTuning) {
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
