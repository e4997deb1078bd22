import Linear

/// Detects rest — the body still, not merely turning slowly — from the gyro and the accelerometer
/// over a window, and measures the gyro bias there.
///
/// At rest the gyro reads its bias and the specific force is gravity, fixed in the body. A sample
/// counts towards rest when
/// - each gyro and accelerometer sample stays close to its short average (`restFilterTimeConstant`):
///   within `restGyroThreshold` and `restAccelerationThreshold` (shocks and vibration end a rest);
/// - the averaged gyro is below `restGyroThreshold` (a bias larger than that is not a bias);
/// - since the window began, the averaged gyro has not moved by more than `restGyroSteadiness` and
///   the averaged specific force not by more than `restAccelerationSteadiness`. This is what tells
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
    private var started = false

    public init() {}

    /// True once the window has lasted `restMinimumDuration`.
    public func isAtRest(_ settings: AttitudeSettings) -> Bool { restDuration >= settings.restMinimumDuration }

    /// Mean gyro over the still window (°/s): the bias, when at rest.
    public var averageGyro: Vector3 { restDuration > 0 ? gyroSum / restDuration : filteredGyro }

    /// Variance (°/s)² per axis of `averageGyro` as a measurement of the bias: white gyro noise
    /// averaged over the window, plus the residual rotation a still body may have.
    public func measurementVariance(_ settings: AttitudeSettings) -> Double {
        let n = settings.gyroNoiseDensity, r = settings.restResidualRate
        return n * n / max(restDuration, 1e-3) + r * r
    }

    /// Feeds one sample: gyro in °/s, specific force in g, both finite.
    public mutating func update(gyro: Vector3, accelerometer: Vector3, dt: Double, settings: AttitudeSettings) {
        update(gyro: gyro, accelerometer: accelerometer, dt: dt,
               gain: lowPassGain(dt: dt, tau: settings.restFilterTimeConstant), settings: settings)
    }

    /// The same, with the short averages' gain for this step worked out already.
    @inline(__always)
    mutating func update(gyro: Vector3, accelerometer: Vector3, dt: Double, gain k: Double, settings: AttitudeSettings) {
        if !started {
            filteredGyro = gyro; filteredAcceleration = accelerometer; started = true
            windowGyro = gyro; windowAcceleration = accelerometer
        }
        filteredGyro += (gyro - filteredGyro) * k
        filteredAcceleration += (accelerometer - filteredAcceleration) * k
        let limit = settings.restGyroThreshold
        let steadyGyro = settings.restGyroSteadiness, steadyAcceleration = settings.restAccelerationSteadiness
        let still = (gyro - filteredGyro).squaredNorm < limit * limit
            && filteredGyro.squaredNorm < limit * limit
            && (accelerometer - filteredAcceleration).squaredNorm
                < settings.restAccelerationThreshold * settings.restAccelerationThreshold
            && (filteredGyro - windowGyro).squaredNorm < steadyGyro * steadyGyro
            && (filteredAcceleration - windowAcceleration).squaredNorm < steadyAcceleration * steadyAcceleration
        if still {
            restDuration += dt
            gyroSum += gyro * dt
        } else {
            // A new window starts here, from the averages as they are now.
            restDuration = 0
            gyroSum = .zero
            windowGyro = filteredGyro
            windowAcceleration = filteredAcceleration
        }
    }

    /// Forgets the averages (after a gap or a restart).
    public mutating func reset() { self = RestDetector() }
}
