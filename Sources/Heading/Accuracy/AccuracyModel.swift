#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the accuracy of one heading rests on.
public struct AccuracyInputs: Sendable, Hashable {
    /// Horizontal field strength, µT (in the level frame when the tilt is known).
    public var horizontalField: Double
    /// |vertical field|, µT: with the horizontal field it gives tan(inclination).
    public var verticalField: Double
    /// Weight α of the last heading-smoothing step (1 = unsmoothed).
    public var smoothingAlpha: Double
    /// Tilt state: known from the accelerometer, held, or unknown (level-only).
    public var tiltKnown: Bool
    public var tiltHeld: Bool
    /// The tilt is an accelerated accelerometer's own (`TiltReading.accelerated`).
    public var tiltAccelerated: Bool
    /// Then, how far |a| is from 1 g (g).
    public var tiltAccelerationExcess: Double
    /// How far |a| has been from 1 g lately (g; `TiltReading.accelerationActivity`).
    public var accelerationActivity: Double
    /// How far this sample's dip, through the tilt in use, is from the reference dip (degrees; 0
    /// when unknown): a tilt error across the field shows there, and one along it, which turns the
    /// heading, is as likely as large. Counted while the body accelerates.
    public var dipMismatch: Double
    /// Random tilt error after smoothing, radians (accelerometer noise × its smoothing reduction).
    public var tiltNoise: Double
    /// Estimated magnitude of a magnetic disturbance (µT), 0 when none is detected.
    public var disturbance: Double

    public init(horizontalField: Double, verticalField: Double, smoothingAlpha: Double = 1,
                tiltKnown: Bool = true, tiltHeld: Bool = false, tiltNoise: Double = 0, disturbance: Double = 0,
                tiltAccelerated: Bool = false, tiltAccelerationExcess: Double = 0, accelerationActivity: Double = 0,
                dipMismatch: Double = 0) {
        self.accelerationActivity = accelerationActivity
        self.dipMismatch = dipMismatch
        self.tiltAccelerated = tiltAccelerated
        self.tiltAccelerationExcess = tiltAccelerationExcess
        self.horizontalField = horizontalField
        self.verticalField = verticalField
        self.smoothingAlpha = smoothingAlpha
        self.tiltKnown = tiltKnown
        self.tiltHeld = tiltHeld
        self.tiltNoise = tiltNoise
        self.disturbance = disturbance
    }
}

/// The error terms of one heading, degrees, and their quadrature sum.
public struct AccuracyBreakdown: Sendable, Hashable {
    public var noise: Double
    public var calibration: Double
    public var tilt: Double
    public var levelOnly: Double
    public var disturbance: Double
    /// √(Σ term²), capped at `AccuracyModel.unavailable`.
    public var total: Double
}

/// Heading accuracy, in degrees, in the spirit of CoreLocation's `headingAccuracy`: a 1σ-like bound on
/// the difference between the reported magnetic heading and the direction of the horizontal field.
/// Each error source is turned into an angle against the horizontal field H and the terms are added in
/// quadrature:
///
/// - sensor noise: atan(σ_B · √(α/(2−α)) / H), the per-axis noise reduced by the smoothing;
/// - calibration residual: atan(residual / H) (systematic, not reduced by smoothing);
/// - tilt: atan(σ_tilt · |Z| / H) ≈ tilt error × tan(inclination), σ_tilt from the smoothed
///   accelerometer noise and `tiltUncertaintyDegrees` (or `heldTiltUncertaintyDegrees` while the tilt is held);
/// - level-only: atan(assumedTilt · |Z| / H) when there is no accelerometer;
/// - disturbance: atan(ΔB / H) with ΔB the detected anomaly.
///
/// The terms are combined in quadrature. With H below `minimumHorizontalField` (or non-finite inputs)
/// the accuracy is `unavailable` (180°).
///
/// ```swift
/// let model = AccuracyModel()
/// let a = model.accuracy(AccuracyInputs(horizontalField: 25, verticalField: 51.6, smoothingAlpha: 0.04))
/// a.total   // ≈ 1.2° (mostly the 0.5° tilt term × tan 64°)
/// ```
public struct AccuracyModel: Sendable, Hashable {
    /// The accuracy reported when no heading can be trusted.
    public static let unavailable = 180.0

    /// Magnetometer noise per axis per sample (1σ, µT).
    public var noiseMicrotesla: Double = 0.2
    /// Remaining calibration error (µT), e.g. the RMS residual of the calibration fit.
    public var calibrationResidualMicrotesla: Double = 0.3
    /// Systematic tilt error (accelerometer calibration and mounting), degrees.
    public var tiltUncertaintyDegrees: Double = 0.5
    /// Tilt error while the tilt is held during linear acceleration, degrees.
    public var heldTiltUncertaintyDegrees: Double = 3
    /// Systematic tilt error (degrees) while the tilt is an accelerated accelerometer's own (the
    /// body turning while it accelerates, with no gyroscope): a linear acceleration of a third of a
    /// g, common in the hand or on a vehicle, leans it by about this much; a stronger one (|a| off
    /// 1 g by e) by up to atan(tan(this) + e).
    public var acceleratedTiltUncertaintyDegrees: Double = 20
    /// Sideways acceleration assumed per g that |a| has been off 1 g lately (no gyroscope). Default 2.
    public var activityLeverage: Double = 2
    /// Typical tilt of the device in level-only mode (no accelerometer), degrees.
    public var assumedTiltDegrees: Double = 5
    /// Below this horizontal field (µT) the heading is meaningless.
    public var minimumHorizontalField: Double = 1

    public init() {}

    /// The accuracy terms for one sample. Each term is the heading error its field error gives against
    /// H (`headingErrorBoundDegrees`: about atan(ΔB/H) while small); `total` combines the field errors
    /// in quadrature first, which equals the quadrature sum of the angles while they are small, and
    /// grows to 162° — a heading that may point anywhere — once they are as large as H.
    public func accuracy(_ x: AccuracyInputs) -> AccuracyBreakdown {
        let e = errors(x)
        guard e.valid else {
            let u = Self.unavailable
            return AccuracyBreakdown(noise: u, calibration: 0, tilt: 0, levelOnly: 0, disturbance: 0, total: u)
        }
        return AccuracyBreakdown(noise: headingErrorBoundDegrees(e.noise),
                                 calibration: headingErrorBoundDegrees(e.calibration),
                                 tilt: headingErrorBoundDegrees(e.tilt), levelOnly: headingErrorBoundDegrees(e.level),
                                 disturbance: headingErrorBoundDegrees(e.disturbance), total: total(e))
    }

    /// Just the calibration term of `accuracy(_:)` (degrees) against the horizontal field `h` (µT):
    /// what the gyro-aided path adds to its own accuracy; 0 when `h` is too weak to measure against,
    /// as in `accuracy(_:)` (the attitude filter's own accuracy then speaks).
    public func calibrationAccuracy(horizontalField h: Double) -> Double {
        guard h.isFinite, h >= minimumHorizontalField else { return 0 }
        let r = calibrationResidualMicrotesla.isFinite ? Swift.max(0, calibrationResidualMicrotesla) / h : .infinity
        return headingErrorBoundDegrees(r)
    }

    /// Just the total of `accuracy(_:)` (the per-sample path).
    public func totalAccuracy(_ x: AccuracyInputs) -> Double { total(errors(x)) }

    /// The roll and pitch accuracy (degrees) of the tilt the heading used: the same tilt error
    /// the tilt term turns into heading, before the dip's leverage; nil without a tilt.
    public func tiltAccuracy(_ x: AccuracyInputs) -> Double? {
        guard x.tiltKnown else { return nil }
        let angle = tiltError(x)
        return angle.isFinite ? Swift.min(90, angle * 180 / .pi) : nil
    }

    /// The tilt error (radians): smoothed noise and the systematic part, in quadrature.
    @inline(__always) private func tiltError(_ x: AccuracyInputs) -> Double {
        let noiseTilt = x.tiltNoise.isFinite ? x.tiltNoise : 0
        var systematic = x.tiltAccelerated
            ? atan(tan(rad(acceleratedTiltUncertaintyDegrees)) + Swift.max(0, x.tiltAccelerationExcess))
            : rad(x.tiltHeld ? heldTiltUncertaintyDegrees : tiltUncertaintyDegrees)
        // A body that has been accelerating lately leans the tilt sideways too, where |a| shows
        // little of it: about as much again as |a| has been off 1 g.
        if x.accelerationActivity > 0.01 {
            systematic = Swift.max(systematic, atan(activityLeverage * x.accelerationActivity))
            // The lean the field's dip shows, when larger: a tilt error across the field moves
            // the dip by itself; one along it, unseen, turns the heading and is as likely.
            if x.dipMismatch.isFinite, x.dipMismatch > 0 {
                systematic = Swift.max(systematic, rad(Swift.min(90, x.dipMismatch)))
            }
        }
        return (noiseTilt * noiseTilt + systematic * systematic).squareRoot()
    }

    private struct Ratios {
        var valid = false
        var noise = 0.0, calibration = 0.0, tilt = 0.0, level = 0.0, disturbance = 0.0
    }

    private func total(_ e: Ratios) -> Double {
        guard e.valid else { return Self.unavailable }
        let sum = (e.noise * e.noise + e.calibration * e.calibration + e.tilt * e.tilt + e.level * e.level
            + e.disturbance * e.disturbance).squareRoot()
        let t = headingErrorBoundDegrees(sum)
        return t.isFinite ? Swift.min(t, Self.unavailable) : Self.unavailable
    }

    /// Each error as a fraction of the horizontal field (tangent of its heading error).
    @inline(__always) private func errors(_ x: AccuracyInputs) -> Ratios {
        let h = x.horizontalField
        guard h.isFinite, h >= minimumHorizontalField, x.verticalField.isFinite else { return Ratios() }
        let inverse = 1 / h
        @inline(__always) func ratio(_ microtesla: Double) -> Double {
            microtesla.isFinite ? Swift.max(0, microtesla) * inverse : .infinity
        }
        var r = Ratios()
        r.valid = true
        let z = abs(x.verticalField)
        r.noise = ratio(noiseMicrotesla * noiseReduction(alpha: x.smoothingAlpha))
        r.calibration = ratio(calibrationResidualMicrotesla)
        if x.tiltKnown {
            r.tilt = ratio(tiltError(x) * z)
        } else {
            r.level = ratio(rad(assumedTiltDegrees) * z)
        }
        r.disturbance = x.disturbance > 0 ? ratio(x.disturbance) : 0
        return r
    }
}
