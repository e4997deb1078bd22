#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// Settings of the tilt (roll and pitch) estimator.
///
/// ```swift
/// var tilt = TiltConfiguration()
/// tilt.smoothingSeconds = 0.2          // steadier, slower
/// tilt.jerkLimitGPerSecond = 300       // e.g. on a hard-riding vehicle
/// ```
public struct TiltConfiguration: Sendable, Hashable {
    /// Low-pass time constant on the gravity vector while the tilt is steady. Short, because the
    /// heading smoother (`HeadingFilterConfiguration.smoothingSeconds`) averages the noise once more,
    /// and any lag here is a tilt error in the motion where the tilt matters: a boat rolling 20°
    /// with a 4 s period turns 31 °/s, so every 10 ms of lag is 0.3° of roll, which the heading
    /// multiplies by tan(dip) (≈ 2 at 65°). Default 0.05 s (0.5 s gave 1.46° RMS on the simulated
    /// boat against 1.25° for no smoothing at all, and on BROAD 01 and 07 no better than 0.05 s).
    public var smoothingSeconds: Double = 0.05
    /// Time constant while the tilt is changing (adaptive mode).
    public var fastSmoothingSeconds: Double = 0.02
    /// Shrink the time constant when the gravity direction moves beyond the noise.
    public var adaptive: Bool = true
    /// Accelerometer noise per axis per sample (1σ, g). Sets the adaptive threshold and the accuracy.
    public var noiseG: Double = 0.004
    /// Samples with | |a| − 1 g | beyond this read linear acceleration: the accuracy widens by the
    /// excess at once (`TiltReading.accelerationActivity`). The tilt is not held: |a| measures the vertical
    /// part of an acceleration (heave, a bump), which leaves the direction of the specific force —
    /// the tilt — as it is, while a horizontal one, which leans it, changes |a| only by its square
    /// (0.3 g changes |a| by 0.044 g). Holding on |a| kept stale tilts through a boat's heave and a
    /// hand's rotations (BROAD 01 without its gyro, tilt-compensated heading: 11.9° RMS with them,
    /// 10.8° without).
    public var magnitudeToleranceG: Double = 0.1
    /// Jerk (rate of change of the lightly smoothed acceleration, g/s) beyond which the tilt is held:
    /// a knock or a pothole (several g within milliseconds: hundreds of g/s). Motion stays below it:
    /// a hand starting or stopping a turn, a heel strike, an engine's 0.1 g at 30 Hz (19 g/s) give
    /// tens of g/s, and holding through them keeps a tilt the body has already left. Default 100 g/s
    /// (10 g/s held through the hand's rotations of BROAD 07 without its gyro: 53.9° RMS against
    /// 46.5° at 100 g/s).
    public var jerkLimitGPerSecond: Double = 100
    /// How long the tilt stays held after the last disturbed sample.
    public var holdSeconds: Double = 0.25
    /// How long a tilt stays usable for samples that arrive without an accelerometer reading.
    public var maxAgeSeconds: Double = 1.0
    /// How far (degrees) the body may tilt, as the magnetometer sees it, while the tilt is held: a
    /// held tilt is only right while the body keeps its roll and pitch. Turning about the vertical
    /// keeps the field's dip through the held tilt; rolling or pitching changes it, and beyond this
    /// the accelerometer's own tilt is used, acceleration and all — with no gyroscope that is the
    /// best there is, and never worse than the unfiltered tilt-compensated heading. Default 0.5°,
    /// about the direction noise of a hobby magnetometer in the Earth's field: any roll or pitch it
    /// can see lets the held tilt go (on the BROAD trials without their gyro, larger values hold
    /// stale tilts through slow rotations: 2° gave 10.1° RMS on trial 01, 0.5° gives 8.5°; the
    /// unfiltered heading 12.3°).
    public var maxHeldRotationDegrees: Double = 0.5
    /// How far (degrees) the body may turn in all, about any axis, while the tilt is held: a
    /// rotation about the field's own direction hides from the dip, so a long hold through large
    /// turns is let go too. Default 10°.
    public var maxHeldTurnDegrees: Double = 10

    public init() {}
}

/// The tilt used for one sample.
public struct TiltReading: Sendable, Hashable {
    /// The tilt, or nil when none is known (level-only mode).
    public var tilt: Tilt?
    /// True when the tilt was held at its last good value (acceleration or jerk too large, or a bad reading).
    public var held: Bool
    /// Weight α of the last gravity update (noise reduction of the tilt, for the accuracy).
    public var alpha: Double
    /// True when the tilt is the accelerometer's own although it reads linear acceleration (the body
    /// turned while the tilt was held, so the held one was stale): it may be off by tens of degrees.
    public var accelerated: Bool
    /// With `accelerated`: how far |a| is from 1 g (g), a lower bound of the acceleration.
    public var accelerationExcess: Double
    /// How far |a| has been from 1 g lately (g, averaged over ~2 s, and at least this sample's own
    /// excess when that is beyond `magnitudeToleranceG`): a body that accelerates that much also
    /// accelerates sideways, where |a| hardly shows it and the tilt leans.
    public var accelerationActivity: Double

    public init(tilt: Tilt?, held: Bool, alpha: Double, accelerated: Bool = false, accelerationExcess: Double = 0,
                accelerationActivity: Double = 0) {
        self.tilt = tilt; self.held = held; self.alpha = alpha; self.accelerated = accelerated
        self.accelerationExcess = accelerationExcess
        self.accelerationActivity = accelerationActivity
    }
}

/// Roll and pitch from the accelerometer: an adaptive first-order low-pass on the gravity vector
/// (α = 1 − exp(−dt/τ), so any and irregular sample rates work). A jerk (a knock) holds the last
/// good tilt for a moment; |a| away from 1 g widens the accuracy (`TiltReading.accelerationActivity`).
///
/// ```swift
/// var estimator = TiltEstimator(configuration: TiltConfiguration())
/// let reading = estimator.update(acceleration: Vector3(0, 0, -1), time: 0.02, dt: 0.02)
/// // reading.tilt == Tilt.level-ish, reading.held == false
/// ```
public struct TiltEstimator: Sendable {
    public var configuration: TiltConfiguration
    /// The smoothed gravity reaction (g), nil until the first good sample.
    public private(set) var gravity: Vector3?
    private var innovation = Vector3.zero
    private var fastAcceleration: Vector3?
    private var holdUntil = -Double.infinity
    private var lastAccelerationTime = -Double.infinity
    private var lastAlpha = 1.0
    private var activity = 0.0
    private var activityFactor = SmoothingFactorCache()
    /// The field (body axes) of the last sample whose tilt came from gravity: a held tilt, which is
    /// that sample's, is checked against it.
    private var fieldAtLastTilt: Vector3?
    private var jerkFactor = SmoothingFactorCache()
    private var innovationFactor = SmoothingFactorCache()

    public init(configuration: TiltConfiguration) { self.configuration = configuration }

    /// Forgets everything (after a gap in the samples).
    public mutating func reset() {
        gravity = nil; innovation = .zero; fastAcceleration = nil; activity = 0
        holdUntil = -.infinity; lastAccelerationTime = -.infinity; lastAlpha = 1; fieldAtLastTilt = nil
    }

    /// Feeds one accelerometer reading (nil when the sample has none) at monotonic `time`, `dt` seconds
    /// after the previous sample (0 for the first or a duplicate timestamp). `field`, the same
    /// sample's magnetic field in body axes, tells whether the body turns while the tilt is held.
    public mutating func update(acceleration: Vector3?, time: Double, dt: Double, field: Vector3? = nil) -> TiltReading {
        var reading = read(acceleration: acceleration, time: time, dt: dt, field: field)
        reading.accelerationActivity = activity
        return reading
    }

    private mutating func read(acceleration: Vector3?, time: Double, dt: Double, field: Vector3?) -> TiltReading {
        guard let a = acceleration, a.isFinite else {
            // No reading: keep the recent tilt for a while; a non-finite reading counts as a bad one.
            let fresh = time - lastAccelerationTime <= configuration.maxAgeSeconds
            let tilt = fresh ? gravity.flatMap { Tilt(gravity: $0) } : nil
            return TiltReading(tilt: tilt, held: acceleration != nil && tilt != nil, alpha: lastAlpha)
        }
        lastAccelerationTime = time
        let c = configuration
        let m2 = a.squaredNorm
        let excess = abs(m2.squareRoot() - 1)
        activity += (excess - activity) * activityFactor.factor(dt: dt, tau: 2)

        // Jerk from a lightly smoothed copy, so sensor noise does not read as jerk. Compared squared:
        // |Δa| > limit · dt, and 1 − tol ≤ |a| ≤ 1 + tol.
        var jerky = false
        if let fast = fastAcceleration {
            let change = (a - fast) * jerkFactor.factor(dt: dt, tau: 0.02)
            let limit = c.jerkLimitGPerSecond * dt
            jerky = dt > 0 && change.squaredNorm > limit * limit
            fastAcceleration = fast + change
        } else {
            fastAcceleration = a
        }
        let low = Swift.max(0, 1 - c.magnitudeToleranceG), high = 1 + c.magnitudeToleranceG
        // Beyond the tolerance, this sample's own excess counts as the recent activity at once.
        if !(m2 >= low * low && m2 <= high * high) { activity = Swift.max(activity, excess) }
        if jerky { holdUntil = time + c.holdSeconds }
        let field = field.flatMap { $0.isFinite ? $0 : nil }
        if time < holdUntil {
            // Held, unless the body has rolled or pitched since (the field's dip through the held tilt
            // has moved; turning about the vertical leaves it) or turned far: the held tilt is then
            // stale, and the accelerometer's own, acceleration and all, is the better one.
            guard let now = field?.normalized, let then = fieldAtLastTilt?.normalized,
                  bodyMoved(now: now, then: then) else {
                return TiltReading(tilt: gravity.flatMap { Tilt(gravity: $0) }, held: true, alpha: lastAlpha)
            }
            gravity = a
            innovation = .zero
            fieldAtLastTilt = field
            lastAlpha = 1
            return TiltReading(tilt: Tilt(gravity: a), held: false, alpha: 1, accelerated: true,
                               accelerationExcess: excess)
        }
        if let field { fieldAtLastTilt = field }

        guard let g = gravity else {
            gravity = a
            lastAlpha = 1
            return TiltReading(tilt: Tilt(gravity: a), held: false, alpha: 1)
        }
        let e = a - g
        var tau = c.smoothingSeconds
        if c.adaptive {
            let alphaInnovation = innovationFactor.factor(dt: dt, tau: 0.05)
            innovation = innovation + (e - innovation) * alphaInnovation
            let threshold = Swift.max(0.002, 3 * c.noiseG * 1.7320508 * innovationFactor.reduction)
            tau = adaptiveTimeConstant(slow: c.smoothingSeconds, fast: c.fastSmoothingSeconds,
                                       squaredRatio: innovation.squaredNorm / (threshold * threshold))
        }
        let alpha = smoothingFactor(dt: dt, tau: tau)
        let updated = g + e * alpha
        gravity = updated
        if dt > 0 { lastAlpha = alpha }
        return TiltReading(tilt: Tilt(gravity: updated), held: false, alpha: lastAlpha)
    }

    /// Whether the body has rolled, pitched or turned far since the held tilt was good: `then` and
    /// `now` are the field's directions (unit vectors, body axes) then and now.
    private func bodyMoved(now: Vector3, then: Vector3) -> Bool {
        let c = configuration
        if now.dot(then) < cos(c.maxHeldTurnDegrees * Double.pi / 180) { return true }
        guard let dipNow = Self.dipSine(of: now, gravity: gravity),
              let dipThen = Self.dipSine(of: then, gravity: gravity) else { return false }
        return abs(asin(dipNow) - asin(dipThen)) > c.maxHeldRotationDegrees * Double.pi / 180
    }

    /// sin(dip) of a field direction (unit vector, body axes) levelled by a gravity reaction:
    /// the component along "down", the opposite of the specific force.
    private static func dipSine(of direction: Vector3, gravity: Vector3?) -> Double? {
        guard let down = gravity.flatMap({ ($0 * -1).normalized }) else { return nil }
        let s = direction.dot(down)
        return s.isFinite ? min(1, max(-1, s)) : nil
    }
}
