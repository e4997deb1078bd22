#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// Decides whether the measured field is the undisturbed earth field, by comparing its magnitude and
/// dip with a reference; learns that reference, and adopts a new one when a "disturbance" lasts
/// longer than the gyro can carry the heading (a new magnetic environment rather than a passing car).
///
/// The reference starts from the expected field (the WMM at the receiver, when known) or from the
/// first field measured, and then follows the undisturbed field slowly.
///
/// The tolerances are not fixed: they are `magneticToleranceSigmas` times how far the undisturbed
/// field's |B| and dip scatter about the reference (learned over `magneticSpreadTimeConstant`),
/// between a floor (the magnetometer's noise, `magneticNormMinimumTolerance`,
/// `magneticDipMinimumToleranceDegrees`) and `magneticNormTolerance`, `magneticDipToleranceDegrees`.
/// They start at the loose end; a well-calibrated magnetometer narrows them to a few percent and a
/// few degrees, so a disturbance of 15 µT at right angles to a 50 µT field (3 % in |B|, 4° in dip)
/// stands out, while an uncalibrated one, whose field wanders more as it turns, keeps them wide.
///
/// ```swift
/// var reference = MagneticReference()
/// reference.setExpected(norm: 49.8, dipDegrees: 64.1)
/// let disturbed = reference.isDisturbed(norm: 62, dipDegrees: 64, settings: settings)
/// ```
public struct MagneticReference: Sendable {
    /// Reference magnitude (µT), or nil before the first field.
    public private(set) var norm: Double?
    /// Reference dip (degrees, positive down).
    public private(set) var dipDegrees: Double = 0
    /// How long the current disturbance has lasted (s).
    public private(set) var disturbedDuration = 0.0
    private var candidateNorm = 0.0
    private var candidateDip = 0.0
    private var normSpread = -1.0               // mean square of the relative |B| deviation; < 0 before the first
    private var dipSpread = 0.0                 // degrees²
    /// The current tolerances: relative deviation of |B|, and dip deviation (degrees).
    public private(set) var normTolerance = 0.1
    public private(set) var dipToleranceDegrees = 10.0

    public init() {}

    /// Sets the reference from an expected field (e.g. the WMM): magnitude (µT) and dip (degrees).
    public mutating func setExpected(norm: Double, dipDegrees: Double) {
        guard norm.isFinite, norm > 0, dipDegrees.isFinite else { return }
        self.norm = norm; self.dipDegrees = dipDegrees
        disturbedDuration = 0
    }

    /// The weight (0…1] a field of this magnitude and dip deserves: 1 within the tolerances, then
    /// (tolerance / deviation)² for the worse of the two.
    public func weight(norm measured: Double, dipDegrees dip: Double, settings: AttitudeSettings) -> Double {
        guard let norm else { return 1 }
        let normRatio = abs(measured - norm) / max(1e-9, normTolerance * norm)
        let dipRatio = abs(dip - dipDegrees) / max(1e-9, dipToleranceDegrees)
        let worst = max(normRatio, dipRatio)
        let square = worst * worst
        return worst <= 1 ? 1 : 1 / (square * square)
    }

    /// True when a field of this magnitude and dip deviates from the reference.
    public func isDisturbed(norm measured: Double, dipDegrees dip: Double, settings: AttitudeSettings) -> Bool {
        guard let norm else { return false }
        return abs(measured - norm) > normTolerance * norm
            || abs(dip - dipDegrees) > dipToleranceDegrees
    }

    /// Learns the undisturbed field's scatter from one accepted sample and sets the tolerances.
    @inline(__always)
    private mutating func learnSpread(norm measured: Double, dipDegrees dip: Double, reference: Double, gain g: Double,
                                      settings: AttitudeSettings) {
        let k = settings.magneticToleranceSigmas
        let normMaximum = settings.magneticNormTolerance, dipMaximum = settings.magneticDipToleranceDegrees
        if normSpread < 0 {
            normSpread = normMaximum * normMaximum / (k * k)
            dipSpread = dipMaximum * dipMaximum / (k * k)
        }
        // A sample counts at most as far as the tolerance reaches, so a slow disturbance cannot
        // widen the tolerance faster than by `magneticToleranceSigmas` per time constant.
        let perReference = 1 / max(reference, 1e-9)
        let relative = min(normTolerance, abs(measured - reference) * perReference)
        let dipDeviation = min(dipToleranceDegrees, abs(dip - dipDegrees))
        normSpread += g * (relative * relative - normSpread)
        dipSpread += g * (dipDeviation * dipDeviation - dipSpread)
        let noise = k * settings.magnetometerNoise * perReference
        let normFloor = max(settings.magneticNormMinimumTolerance, noise)
        let dipFloor = settings.magneticDipMinimumToleranceDegrees + noise * degreesPerRadian
        normTolerance = min(normMaximum, max(normFloor, k * normSpread.squareRoot()))
        dipToleranceDegrees = min(dipMaximum, max(dipFloor, k * dipSpread.squareRoot()))
    }

    /// Feeds one field measurement (magnitude µT, dip degrees). Returns whether it is disturbed, and
    /// whether the reference was replaced because the disturbance outlasted what the gyro can hold
    /// (`gyroHoldExceeded`, or `magneticRejectionTimeout`).
    public mutating func update(norm measured: Double, dipDegrees dip: Double, dt: Double, gyroHoldExceeded: Bool,
                                settings: AttitudeSettings) -> (disturbed: Bool, replaced: Bool) {
        update(norm: measured, dipDegrees: dip, dt: dt, gyroHoldExceeded: gyroHoldExceeded,
               spreadGain: lowPassGain(dt: dt, tau: settings.magneticSpreadTimeConstant),
               referenceGain: lowPassGain(dt: dt, tau: settings.magneticReferenceTimeConstant),
               candidateGain: lowPassGain(dt: dt, tau: settings.magneticCandidateTimeConstant), settings: settings)
    }

    /// The same, with this step's gains (over `magneticSpreadTimeConstant`,
    /// `magneticReferenceTimeConstant` and `magneticCandidateTimeConstant`) worked out already.
    @inline(__always)
    mutating func update(norm measured: Double, dipDegrees dip: Double, dt: Double, gyroHoldExceeded: Bool,
                         spreadGain: Double, referenceGain: Double, candidateGain: Double,
                         settings: AttitudeSettings) -> (disturbed: Bool, replaced: Bool) {
        if normSpread < 0 {
            normTolerance = settings.magneticNormTolerance
            dipToleranceDegrees = settings.magneticDipToleranceDegrees
        }
        guard let current = norm else {
            norm = measured; dipDegrees = dip
            return (false, false)
        }
        if !isDisturbed(norm: measured, dipDegrees: dip, settings: settings) {
            learnSpread(norm: measured, dipDegrees: dip, reference: current, gain: spreadGain, settings: settings)
            let k = referenceGain
            norm = current + k * (measured - current)
            dipDegrees += k * (dip - dipDegrees)
            disturbedDuration = 0
            return (false, false)
        }
        if disturbedDuration == 0 {
            candidateNorm = measured; candidateDip = dip
        }
        disturbedDuration += dt
        let k = candidateGain
        candidateNorm += k * (measured - candidateNorm)
        candidateDip += k * (dip - candidateDip)
        if disturbedDuration > settings.magneticRejectionTimeout || gyroHoldExceeded {
            norm = candidateNorm; dipDegrees = candidateDip
            disturbedDuration = 0
            return (isDisturbed(norm: measured, dipDegrees: dip, settings: settings), true)
        }
        return (true, false)
    }
}
