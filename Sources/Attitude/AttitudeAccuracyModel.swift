#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// Tracks how uncertain tilt and heading are, in three parts:
/// - *drift*: what the gyro has accumulated since the references last corrected it — bias
///   uncertainty × time, plus scale-factor uncertainty × the *net* rotation (rotating back and
///   forth cancels scale errors, turning circles does not); it grows during rejection and
///   disturbance and shrinks as the references correct it;
/// - *lean*: the tilt error let in with gravity — how far the specific force the average followed
///   leant from the vertical over the last seconds (a launch that outlasted rejection);
/// - *floor*: the error the references themselves leave — the magnetometer's scatter about the
///   filtered heading (part of it survives the averaging because it is correlated with orientation),
///   and the averaged gravity's tilt noise;
/// - *leverage*: a tilt error moves the magnetic heading by about tan(dip) times itself.
///
/// ```swift
/// var model = AttitudeAccuracyModel(settings: settings)
/// model.propagate(netRate: Vector3(0, 0, 3), dt: 0.01, settings: settings)
/// let accuracy = model.headingAccuracyDegrees(dipTangent: 1.7, settings: settings)
/// ```
public struct AttitudeAccuracyModel: Sendable {
    /// Gyro bias uncertainty (°/s, 1σ) about the horizontal axes, the part that tilts: learned at
    /// rest or from gravity in motion.
    public private(set) var tiltBiasUncertainty: Double
    /// Gyro bias uncertainty (°/s, 1σ) about the vertical, the part that turns the heading: learned
    /// at rest or from the field in motion.
    public private(set) var headingBiasUncertainty: Double
    /// The larger of the two (°/s, 1σ).
    public var biasUncertainty: Double { max(tiltBiasUncertainty, headingBiasUncertainty) }
    /// Tilt drift since gravity last corrected it (degrees, 1σ).
    public private(set) var tiltDrift: Double = 30
    /// Tilt error let in with the gravity average: how far the specific force it followed leant from
    /// the vertical over the last seconds (degrees).
    public private(set) var tiltLean: Double = 0
    /// Heading drift since the magnetometer last corrected it (degrees, 1σ).
    public private(set) var headingDrift: Double = 180
    /// Mean square of the heading innovations (degrees²): how far the magnetometer scatters.
    public private(set) var innovationMeanSquare: Double = 0
    /// Mean square of the angle between the specific force and the vertical (degrees²).
    public private(set) var tiltResidualMeanSquare: Double = 0

    public init(settings: AttitudeSettings) {
        tiltBiasUncertainty = settings.initialBiasUncertainty
        headingBiasUncertainty = settings.initialBiasUncertainty
    }

    /// Tilt uncertainty (degrees, 1σ): gyro drift, the lean let in, and the averaged gravity's own noise.
    public func tiltUncertainty(settings: AttitudeSettings) -> Double {
        let floor = settings.tiltNoiseDegrees * settings.tiltNoiseDegrees
            + tiltResidualMeanSquare * settings.tiltResidualFraction * settings.tiltResidualFraction
        return (tiltDrift * tiltDrift + tiltLean * tiltLean + floor).squareRoot()
    }

    /// Heading uncertainty (degrees, 1σ) before the tilt's leverage: drift and magnetometer scatter.
    public func headingUncertainty(settings: AttitudeSettings) -> Double {
        let scatter = innovationMeanSquare * settings.magneticScatterFraction * settings.magneticScatterFraction
        return (headingDrift * headingDrift + scatter).squareRoot()
    }

    /// Gyro-only growth over one step. `netRate` is the rotation rate averaged in the earth frame
    /// (°/s, NED): its down component turns the heading, its horizontal part the tilt.
    /// `rate` is the current rotation rate (°/s): integration errors that grow with any rotation,
    /// back and forth included (coning between samples, axis misalignment), add to the drift.
    public mutating func propagate(netRate: Vector3, rate: Double, dt: Double, settings: AttitudeSettings) {
        let growth = settings.biasUncertaintyGrowth * dt
        tiltBiasUncertainty = min(settings.initialBiasUncertainty, tiltBiasUncertainty + growth)
        headingBiasUncertainty = min(settings.initialBiasUncertainty, headingBiasUncertainty + growth)
        let horizontal = (netRate.x * netRate.x + netRate.y * netRate.y).squareRoot()
        let rotation = settings.gyroRotationUncertainty * rate
        tiltDrift = min(90, tiltDrift + (tiltBiasUncertainty + settings.gyroScaleUncertainty * horizontal + rotation) * dt)
        headingDrift = min(180, headingDrift
            + (headingBiasUncertainty + settings.gyroScaleUncertainty * abs(netRate.z) + rotation) * dt)
    }

    /// The gyro is at rest and its bias is being learned with gain `gain`.
    public mutating func restCalibrated(gain: Double, settings: AttitudeSettings) {
        tiltBiasUncertainty += gain * (settings.restBiasUncertainty - tiltBiasUncertainty)
        headingBiasUncertainty += gain * (settings.restBiasUncertainty - headingBiasUncertainty)
    }

    /// Gravity corrected the tilt with gain `gain`; `residualDegrees` is the angle between the
    /// specific force and the vertical, averaged into its mean square with `averagingGain`;
    /// `leanDegrees` is how far the specific force has leant over the last seconds (the short
    /// average against the slow one) — an acceleration the average may have taken in.
    public mutating func tiltCorrected(gain: Double, residualDegrees: Double, leanDegrees: Double, averagingGain: Double,
                                       dt: Double, settings: AttitudeSettings) {
        tiltResidualMeanSquare += averagingGain * (residualDegrees * residualDegrees - tiltResidualMeanSquare)
        tiltDrift -= gain * tiltDrift
        // Part of a sustained lean gets into the average before rejection holds it: rise at once.
        // It leaves the tilt as the average learns, but the heading, corrected from a field seen
        // through that tilt, keeps it for about `magneticTimeConstant`: decay at the slower rate.
        let decay = min(gain, lowPassGain(dt: dt, tau: settings.magneticTimeConstant))
        tiltLean = max(tiltLean - decay * tiltLean, settings.tiltLeanFraction * min(90, max(0, leanDegrees)))
    }

    /// The magnetometer corrected the heading with gain `gain`; `innovationDegrees` is its disagreement.
    public mutating func headingCorrected(gain: Double, innovationDegrees: Double, averagingGain: Double) {
        innovationMeanSquare += averagingGain * (innovationDegrees * innovationDegrees - innovationMeanSquare)
        headingDrift -= gain * headingDrift
    }

    /// Sets the bias uncertainty directly (kept across a restart).
    /// The bias was learned in motion for one sample, from gravity (`tilt`) or from the field: that
    /// part's uncertainty relaxes towards `motionBiasUncertainty` (never raising what a rest set).
    public mutating func motionLearned(tilt: Bool, gain: Double, settings: AttitudeSettings) {
        let target = settings.motionBiasUncertainty
        if tilt {
            if tiltBiasUncertainty > target { tiltBiasUncertainty += gain * (target - tiltBiasUncertainty) }
        } else if headingBiasUncertainty > target {
            headingBiasUncertainty += gain * (target - headingBiasUncertainty)
        }
    }

    /// Restores both bias uncertainties (°/s), as kept across a restart.
    public mutating func setBiasUncertainty(tilt: Double, heading: Double) {
        tiltBiasUncertainty = tilt
        headingBiasUncertainty = heading
    }

    /// Sets the heading drift directly (at initialisation from one field measurement).
    public mutating func setHeadingDrift(_ degrees: Double) { headingDrift = degrees }

    /// Sets the tilt drift directly (at initialisation from one gravity measurement).
    public mutating func setTiltDrift(_ degrees: Double) { tiltDrift = degrees }

    /// Reported heading accuracy (degrees): heading and tilt uncertainty combined, times the coverage
    /// factor, capped at 180°. `dipTangent` is tan(dip) of the measured field (vertical over
    /// horizontal component).
    public func headingAccuracyDegrees(dipTangent: Double, settings: AttitudeSettings) -> Double {
        // A tilt error about the axis across the field turns the horizontal field by about
        // tan(dip) times itself; across all directions, about half of that on average (≥ 1).
        let leverage = max(1, 0.5 * min(8, abs(dipTangent.isFinite ? dipTangent : 8)))
        let tilt = tiltUncertainty(settings: settings) * leverage
        let heading = headingUncertainty(settings: settings)
        return min(180, settings.accuracyCoverageFactor * (heading * heading + tilt * tilt).squareRoot())
    }

    /// Reported tilt accuracy (degrees).
    public func tiltAccuracyDegrees(settings: AttitudeSettings) -> Double {
        min(90, settings.accuracyCoverageFactor * tiltUncertainty(settings: settings))
    }
}
