#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// Tracks how uncertain tilt and heading are: both grow with gyro-only time (bias uncertainty and
/// scale-factor error times the rotation), and shrink towards the noise of the reference that
/// corrects them (averaged gravity for tilt; the magnetometer's own scatter for heading) at the rate
/// that reference is trusted.
///
/// ```swift
/// var model = AccuracyModel(settings: settings)
/// model.propagate(rateDegreesPerSecond: 90, dt: 0.01, settings: settings)
/// let accuracy = model.headingAccuracyDegrees(dipDegrees: 60, settings: settings)
/// ```
public struct AccuracyModel: Sendable {
    /// Gyro bias uncertainty (°/s, 1σ).
    public private(set) var biasUncertainty: Double
    /// Tilt uncertainty (degrees, 1σ).
    public private(set) var tiltUncertainty: Double = 30
    /// Heading uncertainty from the gyro and magnetometer alone (degrees, 1σ).
    public private(set) var headingUncertainty: Double = 180
    /// Mean square of the heading innovations (degrees²): how far the magnetometer scatters.
    public private(set) var innovationMeanSquare: Double = 0
    /// Mean square of the angle between the specific force and the vertical (degrees²).
    public private(set) var tiltResidualMeanSquare: Double = 0

    public init(settings: AttitudeSettings) {
        biasUncertainty = settings.initialBiasUncertainty
    }

    /// Gyro-only growth over one step at the given rotation rate (°/s).
    public mutating func propagate(rateDegreesPerSecond rate: Double, dt: Double, settings: AttitudeSettings) {
        biasUncertainty = min(settings.initialBiasUncertainty, biasUncertainty + settings.biasUncertaintyGrowth * dt)
        let drift = (biasUncertainty + settings.gyroScaleUncertainty * abs(rate)) * dt
        tiltUncertainty = min(90, tiltUncertainty + drift)
        headingUncertainty = min(180, headingUncertainty + drift)
    }

    /// The gyro is at rest and its bias is being learned with gain `gain`.
    public mutating func restCalibrated(gain: Double, settings: AttitudeSettings) {
        biasUncertainty += gain * (settings.restBiasUncertainty - biasUncertainty)
    }

    /// Gravity corrected the tilt with gain `gain`; `residualDegrees` is the angle between this
    /// sample's specific force and the vertical.
    public mutating func tiltCorrected(gain: Double, residualDegrees: Double, averagingGain: Double,
                                       settings: AttitudeSettings) {
        tiltResidualMeanSquare += averagingGain * (residualDegrees * residualDegrees - tiltResidualMeanSquare)
        // Dynamic acceleration averaged over the gravity time constant leaves a fraction of its
        // scatter in the tilt: about sqrt(gain / 2) of it for uncorrelated samples.
        let floor = (settings.tiltNoiseDegrees * settings.tiltNoiseDegrees
                     + tiltResidualMeanSquare * min(1, gain * 50)).squareRoot()
        tiltUncertainty += gain * (floor - tiltUncertainty)
    }

    /// The magnetometer corrected the heading with gain `gain`; `innovationDegrees` is its disagreement.
    public mutating func headingCorrected(gain: Double, innovationDegrees: Double, averagingGain: Double) {
        innovationMeanSquare += averagingGain * (innovationDegrees * innovationDegrees - innovationMeanSquare)
        let floor = innovationMeanSquare.squareRoot()
        headingUncertainty += gain * (floor - headingUncertainty)
    }

    /// Sets the heading uncertainty directly (at initialisation from one field measurement).
    public mutating func setHeadingUncertainty(_ degrees: Double) { headingUncertainty = degrees }

    /// Sets the tilt uncertainty directly (at initialisation from one gravity measurement).
    public mutating func setTiltUncertainty(_ degrees: Double) { tiltUncertainty = degrees }

    /// Reported heading accuracy (degrees): heading and tilt uncertainty combined (a tilt error moves
    /// the magnetic heading by up to tan(dip) times itself), times the coverage factor, capped at 180°.
    public func headingAccuracyDegrees(dipDegrees: Double, settings: AttitudeSettings) -> Double {
        let leverage = min(4, abs(tan(radians(min(80, abs(dipDegrees))))))
        let tilt = tiltUncertainty * max(1, leverage) * 0.5
        let sigma = (headingUncertainty * headingUncertainty + tilt * tilt).squareRoot()
        return min(180, settings.accuracyCoverageFactor * sigma)
    }

    /// Reported tilt accuracy (degrees).
    public func tiltAccuracyDegrees(settings: AttitudeSettings) -> Double {
        min(90, settings.accuracyCoverageFactor * tiltUncertainty)
    }
}
