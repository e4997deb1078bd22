/// An adaptive first-order low-pass for angles in degrees that works on the circle.
///
/// Each sample moves the output by α · d, where d is the signed shortest difference (−180, 180]
/// between the input and the output, and α = 1 − exp(−dt/τ) ∈ [0, 1]. So the output never crosses
/// 0/360 the long way, never jumps across the wrap, and, because every step is a convex combination,
/// never overshoots a step.
///
/// Adaptive mode: the innovation d is also low-passed (τ = 50 ms) into a turn indicator ē — for a
/// first-order filter ē is the rate of change times the lag, so it measures how fast the heading is
/// turning. While |ē| stays within `thresholdSigma` times its expected noise, τ is `timeConstant`
/// (heavy smoothing when still); beyond it τ shrinks smoothly towards `fastTimeConstant`
/// (τ = fast + (slow − fast) / (1 + (ē/threshold)²)), giving low lag in turns without overshoot.
///
/// ```swift
/// var smoother = CircularSmoother(timeConstant: 0.5)
/// _ = smoother.update(359, dt: 0, noiseDegrees: 0.5)
/// let h = smoother.update(1, dt: 0.02, noiseDegrees: 0.5)   // ≈ 359.1, not ≈ 180
/// ```
public struct CircularSmoother: Sendable, Hashable {
    /// Time constant (s) when still.
    public var timeConstant: Double
    /// Time constant (s) approached while turning fast (adaptive mode).
    public var fastTimeConstant: Double
    /// Adaptive on/off. Off: a plain first-order low-pass with `timeConstant`.
    public var adaptive: Bool
    /// How many standard deviations of the turn indicator's noise count as turning.
    public var thresholdSigma: Double
    /// Lowest turn threshold (degrees), for noiseless inputs.
    public var minimumThreshold: Double

    /// The smoothed angle in [0, 360), nil before the first sample.
    public private(set) var value: Double?
    /// Weight α of the last update (1 for the first sample).
    public private(set) var alpha: Double = 1
    /// Rate of change of the output (degrees/s, positive clockwise), low-passed over 0.25 s.
    public private(set) var turnRate: Double = 0
    /// The turn indicator ē (degrees).
    public private(set) var turnIndicator: Double = 0
    /// The time constant used for the last update (s).
    public private(set) var timeConstantUsed: Double = 0

    private var indicatorFactor = SmoothingFactorCache()
    private var rateFactor = SmoothingFactorCache()

    /// True while the adaptive filter runs at less than half its still time constant.
    public var isTurning: Bool { adaptive && timeConstantUsed < 0.5 * timeConstant }

    public init(timeConstant: Double, fastTimeConstant: Double = 0.02, adaptive: Bool = true,
                thresholdSigma: Double = 3, minimumThreshold: Double = 0.05) {
        self.timeConstant = timeConstant
        self.fastTimeConstant = fastTimeConstant
        self.adaptive = adaptive
        self.thresholdSigma = thresholdSigma
        self.minimumThreshold = minimumThreshold
    }

    /// Forgets the state; the next sample is taken as it is.
    public mutating func reset() {
        value = nil; alpha = 1; turnRate = 0; turnIndicator = 0; timeConstantUsed = 0
    }

    /// Feeds one angle (degrees) `dt` seconds after the previous one and returns the smoothed angle.
    /// `noiseDegrees` is the 1σ noise of a single input sample (sets the adaptive threshold).
    /// A non-finite angle is ignored (the current value is returned); dt ≤ 0 leaves the state as it is.
    public mutating func update(_ angle: Double, dt: Double, noiseDegrees: Double) -> Double {
        guard angle.isFinite else { return value ?? 0 }
        guard let y = value else {
            value = normalizeDegrees(angle)
            alpha = 1
            timeConstantUsed = timeConstant
            return value ?? 0
        }
        guard dt > 0 else { return y }
        let d = signedDifference(angle, y)
        var tau = timeConstant
        if adaptive {
            let alphaIndicator = indicatorFactor.factor(dt: dt, tau: 0.05)
            turnIndicator += alphaIndicator * (d - turnIndicator)
            let noise = noiseDegrees.isFinite ? Swift.max(0, noiseDegrees) : 0
            let threshold = Swift.max(minimumThreshold,
                                      thresholdSigma * noise * indicatorFactor.reduction)
            tau = adaptiveTimeConstant(slow: timeConstant, fast: fastTimeConstant,
                                       innovation: turnIndicator, threshold: threshold)
        }
        timeConstantUsed = tau
        let a = smoothingFactor(dt: dt, tau: tau)
        let step = a * d
        alpha = a
        turnRate += rateFactor.factor(dt: dt, tau: 0.25) * (step / dt - turnRate)
        let next = normalizeDegrees(y + step)
        value = next
        return next
    }
}
