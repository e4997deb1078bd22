import Linear

/// Learns how far the magnetometer lags the gyro and removes the heading error that lag causes in
/// fast turns.
///
/// A magnetometer sample that is `lag` seconds older than the gyro (filtering inside the chip,
/// conversion time, read-out order) shows the heading of `lag` seconds ago: in a turn at rate ω the
/// heading disagreement is −lag × ω. Regressing the disagreement on the vertical rate (both averaged
/// over `magneticLagTimeConstant`) gives the lag; the correction adds lag × ω back. Only turns
/// faster than `magneticLagMinimumRate` teach it, and the lag is limited to ±`magneticLagLimit`.
///
/// ```swift
/// var lag = MagneticLag()
/// let correction = lag.update(innovation: -0.05, verticalRate: 5, dt: 0.01, settings: settings)
/// ```
public struct MagneticLag: Sendable {
    private var product = 0.0       // mean of innovation × rate (rad²/s)
    private var rateSquare = 0.0    // mean of rate² (rad²/s²)
    /// The estimated lag (s), positive when the magnetometer is late.
    public private(set) var seconds = 0.0

    public init() {}

    /// Feeds one innovation (radians) and vertical rate (rad/s); returns the correction (radians) to
    /// add to the innovation.
    public mutating func update(innovation: Double, verticalRate: Double, dt: Double, settings: AttitudeSettings) -> Double {
        update(innovation: innovation, verticalRate: verticalRate, minimumRate: settings.magneticLagMinimumRate * .pi / 180,
               gain: lowPassGain(dt: dt, tau: settings.magneticLagTimeConstant), limit: settings.magneticLagLimit)
    }

    /// The same, with the minimum rate in rad/s and the averages' gain for this step worked out already.
    @inline(__always)
    mutating func update(innovation: Double, verticalRate: Double, minimumRate minimum: Double, gain k: Double,
                         limit: Double) -> Double {
        if abs(verticalRate) > minimum, abs(innovation) < 0.5 {
            product += k * (innovation * verticalRate - product)
            rateSquare += k * (verticalRate * verticalRate - rateSquare)
            if rateSquare > minimum * minimum {
                seconds = max(-limit, min(limit, -product / rateSquare))
            }
        }
        return seconds * verticalRate
    }
}
