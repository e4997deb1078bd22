#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// Detects rest — the body still, not merely turning slowly — from the gyro, the accelerometer and
/// the magnetometer over a window, and measures the gyro bias there.
///
/// At rest the gyro reads its bias and the specific force is gravity, fixed in the body. A sample
/// counts towards rest when
/// - each gyro and accelerometer sample stays close to its short average (`restFilterTimeConstant`):
///   within `restGyroThreshold` and `restAccelerationThreshold` (shocks and vibration end a rest);
/// - the averaged gyro is below `restGyroThreshold` (a bias larger than that is not a bias);
/// - since the window began, the averaged gyro has not moved by more than `restGyroSteadiness` and
///   the averaged specific force not by more than `restAccelerationSteadiness`, and the averaged
///   field has not turned about gravity by more than `restFieldTurnSigmas` times the noise of
///   reading that turn (`fieldTurnNoise`; a steady turn about
///   the vertical leaves gravity and the gyro's reading as steady as a bias: only the field shows
///   it; without a magnetometer it cannot be told). This is what tells
///   rest from slow motion: a boat rolling in a swell slows to a near stop at each end of a roll,
///   and a body turning slowly reads a small rate, but their rate and their tilt keep changing,
///   while a body at rest holds both within the noise.
///
/// After `restMinimumDuration` of that, `averageGyro` is the mean of the gyro over the whole window
/// (not an average that forgets): a measurement of the bias whose variance `measurementVariance`
/// gives from the gyro's noise density and the residual rate a still body may have.
///
/// ```swift
/// var rest = RestDetector()
/// rest.update(gyro: g, accelerometer: a, dt: 0.01, settings: settings)
/// if rest.isAtRest(settings) { print(rest.averageGyro, rest.measurementVariance(settings)) }
/// ```
public struct RestDetector: Sendable {
    /// Short average of the gyro (°/s).
    public private(set) var filteredGyro = Vector3.zero
    /// Short average of the specific force (g).
    public private(set) var filteredAcceleration = Vector3.zero
    /// How long the current still window has lasted (s).
    public private(set) var restDuration = 0.0
    private var gyroSum = Vector3.zero          // °/s · s over the window
    private var windowGyro = Vector3.zero       // the short averages when the window began
    private var windowAcceleration = Vector3.zero
    /// Short average of the field (µT), and that average when the window began.
    private var filteredField: Vector3?
    private var windowField: Vector3?
    /// Variance (degrees²) of the averaged field's turn as read from two of its short averages: the
    /// field's white heading noise per sample times each average's share k / (2 − k), twice.
    public private(set) var fieldTurnNoise = 0.0
    private var started = false

    public init() {}

    /// True once the window has lasted `restMinimumDuration`.
    public func isAtRest(_ settings: AttitudeSettings) -> Bool { restDuration >= settings.restMinimumDuration }

    /// Mean gyro over the still window (°/s): the bias, when at rest.
    public var averageGyro: Vector3 { restDuration > 0 ? gyroSum / restDuration : filteredGyro }

    /// Variance (°/s)² per axis of `averageGyro` as a measurement of the bias: white gyro noise
    /// averaged over the window, plus the residual rotation a still body may have.
    @inline(__always)
    public func measurementVariance(_ settings: AttitudeSettings) -> Double {
        let n = settings.gyroNoiseDensity, r = settings.restResidualRate
        return n * n / max(restDuration, 1e-3) + r * r
    }

    /// The same about the vertical: the gyro read whatever the field turned over the window (within
    /// `restFieldTurnSigmas`) as well as the bias, so the rest's mean is uncertain by that turn,
    /// and by the noise of reading it from two averaged fields (`fieldTurnNoise`, degrees²), over
    /// the window's duration. The turn is not taken out of the mean: a still field also drifts
    /// (BROAD's lab by 0.1 °/s at rest, by 0.3 °/s beside a magnet), and that would then move the
    /// bias. Without a field, as about the other axes.
    @inline(__always)
    public func verticalMeasurementVariance(_ settings: AttitudeSettings) -> Double {
        guard let (a, b) = fieldsAcrossGravity() else { return measurementVariance(settings) }
        // The angle between them: by the arctangent's series while it is small (a rest's field turns
        // little), the same to rounding as atan2, whose call would hold up the bias's update.
        let across = a.cross(b).norm, along = a.dot(b)
        let turn = (along > 0 && across < 0.1 * along ? arctangentSeries(across / along) : atan2(across, along)) * degreesPerRadian
        let duration = max(restDuration, 1e-3)
        return measurementVariance(settings) + (turn * turn + fieldTurnNoise) / (duration * duration)
    }

    /// Feeds one sample: gyro in °/s, specific force in g, both finite; the field in µT when this
    /// sample has one, and its white heading noise per sample (degrees²) as measured so far (0 when
    /// not known: `magnetometerNoise` across the horizontal field is the floor).
    public mutating func update(gyro: Vector3, accelerometer: Vector3, magnetometer: Vector3? = nil,
                                headingNoise: Double = 0, dt: Double, settings: AttitudeSettings) {
        update(gyro: gyro, accelerometer: accelerometer, magnetometer: magnetometer, headingNoise: headingNoise, dt: dt,
               gain: lowPassGain(dt: dt, tau: settings.restFilterTimeConstant), settings: settings)
    }

    /// The same, with the short averages' gain for this step worked out already.
    @inline(__always)
    mutating func update(gyro: Vector3, accelerometer: Vector3, magnetometer: Vector3?, headingNoise: Double,
                         dt: Double, gain k: Double, settings: AttitudeSettings) {
        if !started {
            filteredGyro = gyro; filteredAcceleration = accelerometer; started = true
            windowGyro = gyro; windowAcceleration = accelerometer
        }
        filteredGyro += (gyro - filteredGyro) * k
        filteredAcceleration += (accelerometer - filteredAcceleration) * k
        if let field = magnetometer {
            if let average = filteredField {
                filteredField = average + (field - average) * k
            } else {
                filteredField = field
                windowField = field
            }
        }
        let limit = settings.restGyroThreshold
        let steadyGyro = settings.restGyroSteadiness, steadyAcceleration = settings.restAccelerationSteadiness
        let still = (gyro - filteredGyro).squaredNorm < limit * limit
            && filteredGyro.squaredNorm < limit * limit
            && (accelerometer - filteredAcceleration).squaredNorm
                < settings.restAccelerationThreshold * settings.restAccelerationThreshold
            && (filteredGyro - windowGyro).squaredNorm < steadyGyro * steadyGyro
            && (filteredAcceleration - windowAcceleration).squaredNorm < steadyAcceleration * steadyAcceleration
            && fieldHeld(headingNoise: headingNoise, share: k / (2 - k), settings: settings)
        if still {
            restDuration += dt
            gyroSum += gyro * dt
        } else {
            // A new window starts here, from the averages as they are now.
            restDuration = 0
            gyroSum = .zero
            windowGyro = filteredGyro
            windowAcceleration = filteredAcceleration
            windowField = filteredField
        }
    }

    /// Whether the averaged field has turned about gravity by less than `restFieldTurnSigmas` times
    /// its reading noise since the window began (true without a field), and that noise
    /// (`fieldTurnNoise`) worked out for this sample: the white heading noise per sample, at least
    /// `magnetometerNoise` across the field's part across gravity, times `share` (an average's
    /// share k / (2 − k)), twice. The angle between the two fields' parts across gravity is
    /// compared by its sine (and the parts pointing the same way).
    @inline(__always)
    private mutating func fieldHeld(headingNoise: Double, share: Double, settings: AttitudeSettings) -> Bool {
        guard let (a, b) = fieldsAcrossGravity() else { return true }
        let across = a.squaredNorm, across0 = b.squaredNorm
        let noise = settings.magnetometerNoise * settings.magnetometerNoise / max(across, 1e-12)   // rad² per sample
        let white = max(headingNoise * radiansPerDegree * radiansPerDegree, noise)
        let turnNoise = 2 * white * share                                                        // rad²
        fieldTurnNoise = turnNoise * degreesPerRadian * degreesPerRadian
        let limit = settings.restFieldTurnSigmas * settings.restFieldTurnSigmas * turnNoise      // sin² θ ≈ θ²
        return a.dot(b) > 0 && a.cross(b).squaredNorm < limit * across * across0
    }

    /// The averaged field now and when the window began, each less its part along the averaged
    /// gravity (µT): what turns when the body turns about the vertical. Nil without a field.
    @inline(__always)
    private func fieldsAcrossGravity() -> (now: Vector3, then: Vector3)? {
        guard let now = filteredField, let then = windowField, let down = filteredAcceleration.normalized else { return nil }
        return (now - down * now.dot(down), then - down * then.dot(down))
    }

    /// Forgets the averages (after a gap or a restart).
    public mutating func reset() { self = RestDetector() }
}
