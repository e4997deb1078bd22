import Linear

/// Rejects magnetometer headings that disagree with the gyro-carried heading by more than the field
/// normally scatters: a disturbance that leaves |B| and dip unchanged (a field added at right angles
/// to the horizontal component) still turns the measured heading, while the gyro says the body did
/// not turn.
///
/// The limit is the larger of `magneticInnovationGateDegrees` and `magneticInnovationGateSigmas`
/// times the expected spread of the disagreement: the RMS of the accepted innovations combined with
/// how far the gyro-carried heading may have drifted. Beyond it a heading is not dropped but down-weighted
/// by (limit / innovation)²: a 37° jump then moves the heading by well under 1° in 10 s, while a
/// gyro that drifts in a way its model does not expect (coning in fast shaking, a scale error) is
/// still pulled back, more slowly. When rejection lasts longer than the gyro can hold
/// (`magneticRejectionTimeout`, or the drift limit), the gate opens until the heading has converged
/// back within half the limit — so a wrong heading is never locked in.
///
/// ```swift
/// var gate = InnovationGate()
/// let weight = gate.update(innovationDegrees: 25, driftDegrees: 1, dt: 0.01, holdExceeded: false, settings: settings)
/// if weight < 1 { print("field disagrees with the gyro") }
/// ```
public struct InnovationGate: Sendable {
    /// Mean square (degrees²) of the accepted innovations.
    public private(set) var meanSquare = 0.0
    /// How long the current rejection has lasted (s).
    public private(set) var rejectedDuration = 0.0
    /// True while the gate is open after a rejection that lasted too long.
    public private(set) var recovering = false

    public init() {}

    /// The current limit (degrees), given how far the gyro-carried heading may have drifted (1σ).
    public func limit(driftDegrees: Double, settings: AttitudeSettings) -> Double {
        max(settings.magneticInnovationGateDegrees,
            settings.magneticInnovationGateSigmas * (meanSquare + driftDegrees * driftDegrees).squareRoot())
    }

    /// Feeds one innovation (degrees); returns the weight (0…1] the heading correction should get:
    /// 1 within the limit, less beyond it.
    public mutating func update(innovationDegrees d: Double, driftDegrees: Double, dt: Double, holdExceeded: Bool,
                                settings: AttitudeSettings) -> Double {
        update(innovationDegrees: d, driftDegrees: driftDegrees, dt: dt, holdExceeded: holdExceeded,
               gain: lowPassGain(dt: dt, tau: settings.magneticTimeConstant), settings: settings)
    }

    /// The same, with the mean square's gain for this step (over `magneticTimeConstant`) worked out
    /// already, and the drift worked out only when it is needed: an innovation within
    /// `magneticInnovationGateDegrees`, the least the limit can be, is within the limit whatever
    /// the drift (most samples: no square roots for the drift or the limit).
    @inline(__always)
    mutating func update(innovationDegrees d: Double, driftDegrees: @autoclosure () -> Double, dt: Double,
                         holdExceeded: Bool, gain: Double, settings: AttitudeSettings) -> Double {
        if !recovering && abs(d) <= settings.magneticInnovationGateDegrees { return accepted(d, gain: gain) }
        let limit = limit(driftDegrees: driftDegrees(), settings: settings)
        if recovering {
            if abs(d) < limit / 2 { recovering = false }
            return 1
        }
        if abs(d) > limit {
            rejectedDuration += dt
            if holdExceeded || rejectedDuration > settings.magneticRejectionTimeout {
                recovering = true
                rejectedDuration = 0
                return 1
            }
            // Beyond twice the limit the disagreement is the field's, not a drift of the gyro's that
            // the model missed: it falls off as the fourth power from there.
            let ratio = limit / abs(d)
            return ratio >= 0.5 ? ratio * ratio : 16 * ratio * ratio * ratio * ratio
        }
        return accepted(d, gain: gain)
    }

    /// An innovation within the limit: it ends a rejection and counts towards the mean square.
    @inline(__always)
    private mutating func accepted(_ d: Double, gain: Double) -> Double {
        rejectedDuration = 0
        meanSquare += gain * (d * d - meanSquare)
        return 1
    }
}
