import Linear

/// Detects rest from the gyro and accelerometer and learns the gyro bias while at rest.
///
/// At rest the averaged gyro reading *is* the bias. A sample counts towards rest when the gyro and
/// the specific force stay close to their short averages and the averaged rate is small; after
/// `restMinimumDuration` of that, the bias follows the averaged gyro.
///
/// ```swift
/// var rest = RestDetector()
/// rest.update(gyro: g, accelerometer: a, dt: 0.01, settings: settings)
/// if rest.isAtRest { bias = rest.averageGyro }
/// ```
public struct RestDetector: Sendable {
    /// Averaged gyro (°/s) over `restFilterTimeConstant`.
    public private(set) var averageGyro = Vector3.zero
    /// Averaged specific force (g).
    public private(set) var averageAcceleration = Vector3.zero
    /// How long the current rest has lasted (s).
    public private(set) var restDuration = 0.0
    private var started = false

    public init() {}

    /// True once rest has lasted `restMinimumDuration`.
    public func isAtRest(_ settings: AttitudeSettings) -> Bool { restDuration >= settings.restMinimumDuration }

    /// Feeds one sample: gyro in °/s, specific force in g, both finite.
    public mutating func update(gyro: Vector3, accelerometer: Vector3, dt: Double, settings: AttitudeSettings) {
        if !started {
            averageGyro = gyro; averageAcceleration = accelerometer; started = true
        }
        let k = lowPassGain(dt: dt, tau: settings.restFilterTimeConstant)
        averageGyro += (gyro - averageGyro) * k
        averageAcceleration += (accelerometer - averageAcceleration) * k
        let limit = settings.restGyroThreshold
        let calm = (gyro - averageGyro).squaredNorm < limit * limit
            && averageGyro.squaredNorm < limit * limit
            && (accelerometer - averageAcceleration).squaredNorm
                < settings.restAccelerationThreshold * settings.restAccelerationThreshold
        restDuration = calm ? restDuration + dt : 0
    }

    /// Forgets the averages (after a gap or a restart).
    public mutating func reset() { self = RestDetector() }
}
