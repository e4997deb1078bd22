#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Linear

/// Orientation (body → NED, magnetic north) from gyroscope, accelerometer and magnetometer.
///
/// The orientation is the product of three parts, each corrected by one sensor:
/// `quaternion = heading(δ) ⊗ inclination ⊗ strapdown`.
/// - *strapdown*: the gyro, bias removed, integrated from the start (a frame that drifts slowly);
/// - *inclination*: the smallest rotation that makes the specific force, averaged in the strapdown
///   frame over `accelerationTimeConstant`, point straight up — averaging there, not in the body,
///   cancels back-and-forth accelerations without lag when the body turns. While a short average of
///   the specific force leans away from a slow one (a launch, a turn), samples count less, for as
///   long as the gyro can hold the tilt; a GNSS vehicle acceleration is subtracted first when given;
/// - *heading*: a rotation about the vertical that turns the horizontal field towards north, moved
///   towards the magnetometer over `magneticTimeConstant`. A field whose |B| or dip departs from
///   the reference, or whose heading disagrees with the gyro more than it usually does
///   (`InnovationGate`), is down-weighted by the square of how far beyond its tolerance it is; both
///   end when the gyro can no longer hold the heading.
///   The magnetometer's lag behind the gyro is learned in fast turns and compensated.
///
/// The gyro bias is learned at rest, and in calm motion from the corrections the two references
/// keep making. Without a gyro sample the orientation comes from that sample's accelerometer and
/// magnetometer alone (the unfiltered tilt-compensated heading). No allocation per sample.
///
/// ```swift
/// var filter = AttitudeFilter()
/// filter.update(time: t, gyroscope: Vector3(0.1, -0.2, 0.4),      // °/s
///               accelerometer: Vector3(0, 0, -1),                 // g, specific force
///               magnetometer: Vector3(18, 0.5, 45))               // µT
/// let e = filter.estimate
/// print(e.headingDegrees ?? .nan, e.rollDegrees, e.pitchDegrees, e.accuracyDegrees)
/// ```
public struct AttitudeFilter: Sendable {
    public let settings: AttitudeSettings

    private var strapdown = Quaternion.identity
    private var inclination = Quaternion.identity
    private var headingTurn = HeadingTurn()             // about the down axis
    private var gravityStage = Vector3(0, 0, -1)        // g, strapdown frame, first of two stages
    private var gravityAverage = Vector3(0, 0, -1)      // g, strapdown frame
    private var shortStage = Vector3(0, 0, -1)          // g, strapdown frame, first of two stages
    private var shortAverage = Vector3(0, 0, -1)        // g, strapdown frame, for rejection (second)
    private var referenceAverage = Vector3(0, 0, -1)    // g, strapdown frame, slow, for rejection
    private var bias = Vector3.zero                     // °/s
    private var rest = RestDetector()
    private var reference = MagneticReference()
    private var expectedField: (norm: Double, dip: Double)?
    private var accuracy: AttitudeAccuracyModel
    /// The last disagreement (degrees) between the magnetometer's heading and the filter's, positive
    /// when the field says the heading is further clockwise; nil before the heading is initialised.
    public private(set) var magneticInnovationDegrees: Double?
    /// The magnetometer's estimated delay behind the gyro (s), learned in fast turns.
    public var magneticLagSeconds: Double { lag.seconds }
    /// The uncertainty bookkeeping behind `estimate.accuracyDegrees` (for diagnostics).
    public var accuracyModel: AttitudeAccuracyModel { accuracy }
    private var lastTime: Double?
    private var elapsed = 0.0
    private var tiltInitialised = false
    private var headingInitialised = false
    private let tuning: FilterTuning
    private var stepGains = StepGains()
    /// This sample period's gains.
    @inline(__always) private var gains: PeriodGains { stepGains.current }
    private var rejectionDuration = 0.0
    private var rejectionHold = 0.0
    private var recoveringTilt = false
    private var tiltHoldExhausted = false
    private var restCalibrated = false
    private var resting = false
    private var restPrior = (bias: Vector3.zero, tilt: 0.0, heading: 0.0)   // bias, (°/s)² before this rest
    private var driftSquareAtDisturbance = 0.0          // degrees², the heading drift's square when the field was last trusted
    private var gate = InnovationGate()
    private var lag = MagneticLag()
    private var flags: AttitudeFlags = [.initialising]
    private var rate: Vector3?                          // °/s, bias removed, body
    private var netRate = Vector3.zero                  // °/s, NED, averaged
    private var rotationSpeed = 0.0                     // °/s, |rate| averaged over a few seconds
    private var adaptiveGravity = (tau: 5.0, gain: 0.0, stageGain: 0.0, dt: -1.0, countdown: 0)
    private var restMagnitude = Double.infinity         // g, |specific force| at the last rest levelled by
    private var stepCorrection = (tiltX: 0.0, tiltY: 0.0, heading: 0.0)   // degrees, this sample's
    private var stepTrusted = (tilt: false, heading: false)                // each reference in full
    /// The last field's vertical and horizontal parts and its magnitude (µT), kept for `dipTangent`,
    /// which only the estimate reads: its division is done there, not each sample.
    private var dipParts = (vertical: 2.0, horizontal: 1.0, norm: 0.0)
    /// tan(dip) of the last field (2 before any).
    @inline(__always) private var dipTangent: Double {
        dipParts.vertical / max(dipParts.horizontal, 1e-9 * dipParts.norm)
    }
    private var dipAngle = SlowAngle()                  // the field's dip through the tilt
    private var rollAngle = SlowAngle(), headingAngle = SlowAngle()   // the estimate's, kept by `updatedEstimate`
    private var largeInnovation = SlowAngle()           // the heading's disagreement with the field, beyond 0.1 rad
    private var vehicleAcceleration: VehicleAcceleration?
    private var vehicleAccelerationTime = -Double.infinity

    public init(settings: AttitudeSettings = AttitudeSettings()) {
        self.settings = settings
        accuracy = AttitudeAccuracyModel(settings: settings)
        tuning = FilterTuning(settings)
    }

    /// The expected earth field in NED (µT), e.g. the WMM at the receiver's position: the magnetic
    /// reference starts from it instead of from the first measurement. Ignored unless finite.
    public mutating func setExpectedField(ned field: Vector3) {
        let norm = field.norm
        guard field.isFinite, norm > 0 else { return }
        let dip = degrees(atan2(field.z, (field.x * field.x + field.y * field.y).squareRoot()))
        expectedField = (norm, dip)
        reference.setExpected(norm: norm, dipDegrees: dip)
    }

    /// The vehicle's own acceleration (from GNSS) at `time` (the samples' monotonic clock). It is
    /// removed from the specific force until `vehicleAccelerationHold` has passed.
    public mutating func setVehicleAcceleration(_ acceleration: VehicleAcceleration, time: Double) {
        let v: Vector3
        switch acceleration {
        case .body(let a): v = a
        case .ned(let a): v = a
        }
        guard v.isFinite, v.norm < 20, time.isFinite else { return }
        vehicleAcceleration = acceleration
        vehicleAccelerationTime = time
    }

    /// Forgets everything learned except the settings and the expected field.
    public mutating func reset() {
        let expected = expectedField
        self = AttitudeFilter(settings: settings)
        if let expected {
            expectedField = expected
            reference.setExpected(norm: expected.norm, dipDegrees: expected.dip)
        }
    }

    /// Starts the orientation again but keeps what belongs to the sensor: the gyro bias and the
    /// magnetometer's lag.
    private mutating func restart() {
        let keptBias = bias, keptRestCalibrated = restCalibrated, keptLag = lag
        let keptBiasUncertainty = (accuracy.tiltBiasUncertainty, accuracy.headingBiasUncertainty)
        reset()
        bias = keptBias
        restCalibrated = keptRestCalibrated
        lag = keptLag
        accuracy.setBiasUncertainty(tilt: keptBiasUncertainty.0, heading: keptBiasUncertainty.1)
    }

    /// The orientation as of the last update. (Inlined into `updatedEstimate`, which a filter kept
    /// in an optional was otherwise copied, 2.7 kB, to call.)
    @inline(__always)
    public var estimate: AttitudeEstimate {
        // The angles from the anchors `updatedEstimate` keeps (which this does not move): atan2 for
        // a filter read only here, the same as `updatedEstimate` gave for one read through it.
        var rollAnchor = rollAngle, headingAnchor = headingAngle
        let q = composed
        return estimate(q, angles: AttitudeEstimate.angles(of: q, pitchLimit: settings.headingPitchLimit,
                                                           roll: &rollAnchor, heading: &headingAnchor))
    }

    @inline(__always)
    private func estimate(_ q: Quaternion, angles: (roll: Double, pitch: Double, heading: Double?)) -> AttitudeEstimate {
        let rateOfTurn = rate.map { q.rotate($0).z }
        let roll = accuracy.rollAccuracyDegrees(settings: settings)
        let pitch = accuracy.pitchAccuracyDegrees(settings: settings)
        var heading = 180.0
        if headingInitialised {
            // The tilt about the horizontal axis along the field (north) is the one the dip turns
            // into heading: roll's about body x, pitch's about body y, mixed by the heading.
            let r00 = 1 - 2 * (q.y * q.y + q.z * q.z), r10 = 2 * (q.x * q.y + q.w * q.z)
            let h2 = r00 * r00 + r10 * r10
            let c2 = h2 > 1e-12 ? r00 * r00 / h2 : 0.5
            // The dip shows the tilt error about the axis across the field; the model's roll and
            // pitch variances say how the one along it, which the dip hides, compares.
            let hidden = c2 * accuracy.slowRollVariance + (1 - c2) * accuracy.slowPitchVariance
            let shown = (1 - c2) * accuracy.slowRollVariance + c2 * accuracy.slowPitchVariance
            let along = (accuracy.dipStrayMeanSquare * hidden / max(shown, 1e-9)).squareRoot()
            heading = accuracy.headingAccuracyDegrees(dipTangent: dipTangent, tiltAlongField: along, settings: settings)
        }
        return AttitudeEstimate(
            quaternion: q,
            headingDegrees: headingInitialised ? angles.heading : nil,
            rollDegrees: angles.roll, pitchDegrees: angles.pitch,
            rateOfTurnDegreesPerSecond: rateOfTurn,
            accuracyDegrees: heading,
            rollAccuracyDegrees: roll, pitchAccuracyDegrees: pitch,
            gyroBias: bias, flags: flags,
            calibrationErrorShare: 1 / (1 + netRate.norm * radiansPerDegree * accuracy.headingTimeConstant))
    }

    /// `update` and then `estimate`, in one call: for a filter kept in a larger value (an optional
    /// property, a class), where reading `estimate` would first copy the whole filter.
    ///
    /// ```swift
    /// let e = filter.updatedEstimate(time: t, gyroscope: g, accelerometer: a, magnetometer: m)
    /// ```
    public mutating func updatedEstimate(time: Double, gyroscope: Vector3?, accelerometer: Vector3?,
                                         magnetometer: Vector3?) -> AttitudeEstimate {
        update(time: time, gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer)
        // Roll and heading turn little from a sample to the next: by a series from the last angles
        // worked out by atan2 (`SlowAngle`, the same to rounding).
        let q = composed
        return estimate(q, angles: AttitudeEstimate.angles(of: q, pitchLimit: settings.headingPitchLimit,
                                                           roll: &rollAngle, heading: &headingAngle))
    }

    /// Body → NED.
    public var quaternion: Quaternion { composed }

    @inline(__always) private var composed: Quaternion {
        // The heading turn (cos, 0, 0, sin) times the tilt, its zero terms left out.
        let t = inclination * strapdown, c = headingTurn.halfCosine, s = headingTurn.halfSine
        return Quaternion(w: c * t.w - s * t.z, x: c * t.x - s * t.y, y: c * t.y + s * t.x, z: c * t.z + s * t.w).normalized
    }

    /// Feeds one sample. `time` is monotonic seconds; gyroscope °/s, accelerometer g (specific force),
    /// magnetometer µT, all in body axes. A missing or non-finite vector is skipped (the others are
    /// still used); a non-increasing time integrates nothing; a gap over `maximumSampleGap`, forwards
    /// or backwards, restarts.
    public mutating func update(time: Double, gyroscope: Vector3?, accelerometer: Vector3?, magnetometer: Vector3?) {
        var dt = settings.nominalSamplePeriod
        if let last = lastTime, time.isFinite {
            let step = time - last
            if abs(step) > settings.maximumSampleGap {
                // A long gap, or a clock that jumped back: start again from this sample.
                restart()
            } else {
                dt = max(0, step)
            }
        } else if !time.isFinite {
            dt = 0
        }
        if time.isFinite, time > (lastTime ?? -.infinity) { lastTime = time }
        elapsed += dt
        if !stepGains.take(dt: dt) { stepGains.add(PeriodGains(dt: dt, tuning: tuning)) }
        flags = []

        // A vector with a NaN or an infinity has a squared norm that is NaN or infinite, which fails
        // every bound below: the bounds are the finiteness check as well.
        let gyro = gyroscope.flatMap { $0.squaredNorm < 1e10 ? $0 : nil }
        let accel = accelerometer.flatMap { a in let n = a.squaredNorm; return n > 1e-4 && n < 2500 ? a : nil }
        let field = magnetometer.flatMap { m in let n = m.squaredNorm; return n > 1e-2 && n < 1e8 ? m : nil }

        guard let gyro else {
            flags.insert(.gyroscopeUnavailable)
            rate = nil
            updateWithoutGyroscope(accelerometer: accel, magnetometer: field, dt: dt)
            finishFlags(field: field)
            return
        }

        // Bias at rest: the window's mean gyro measures it; blended with the bias known before the
        // rest in proportion to their variances (a Kalman update, recomputed from the same prior
        // as the window lengthens and its mean grows more certain).
        if let accel {
            rest.update(gyro: gyro, accelerometer: accel, magnetometer: field, headingNoise: accuracy.whiteNoise,
                        dt: dt, gain: gains.restFilter, settings: settings)
            if rest.isAtRest(settings) {
                if !resting {
                    restPrior = (bias, accuracy.tiltBiasVariance, accuracy.headingBiasVariance)
                    resting = true
                }
                let r = rest.measurementVariance(settings)
                let rv = rest.verticalMeasurementVariance(settings)
                let kt = restPrior.tilt / (restPrior.tilt + r), kh = restPrior.heading / (restPrior.heading + rv)
                // Each body axis takes the gain of the part it is of: the vertical's or the tilt's.
                let d = (inclination * strapdown).inverseRotate(Vector3(0, 0, 1))
                let gain = Vector3(kt + (kh - kt) * d.x * d.x, kt + (kh - kt) * d.y * d.y, kt + (kh - kt) * d.z * d.z)
                let change = rest.averageGyro - restPrior.bias
                let limit = settings.maximumBias
                let b = restPrior.bias + Vector3(change.x * gain.x, change.y * gain.y, change.z * gain.z)
                bias = Vector3(max(-limit, min(limit, b.x)), max(-limit, min(limit, b.y)), max(-limit, min(limit, b.z)))
                accuracy.restMeasured(tiltBiasVariance: (1 - kt) * restPrior.tilt,
                                      headingBiasVariance: (1 - kh) * restPrior.heading)
                restCalibrated = true
                flags.insert(.atRest)
            } else {
                resting = false
            }
        }

        // Strapdown integration.
        let omega = gyro - bias
        rate = omega
        let omegaNorm = omega.norm
        // The rate in NED before the heading turn (°/s): through the orientation before this step,
        // which is the same for it (a turn about ω leaves ω where it is), so that it need not wait
        // for the step.
        let earthRate = (inclination * strapdown).rotate(omega)
        strapdown = Self.step(strapdown, by: Quaternion(rotationVector: omega * (radiansPerDegree * dt)))
        let tilted = inclination * strapdown
        netRate += (earthRate - netRate) * gains.netRate
        rotationSpeed += (omegaNorm - rotationSpeed) * gains.rejection
        accuracy.propagate(netRate: netRate, rate: omegaNorm, dt: dt, settings: settings)

        // Moving steadily enough for the references' corrections to teach the bias (each reference
        // adds its own condition: that it is trusted now).
        let calm = !flags.contains(.atRest) && elapsed > settings.initialisationDuration
            && omegaNorm < settings.motionBiasRateLimit
        stepCorrection = (0, 0, 0)
        stepTrusted = (false, false)
        if let accel { correctTilt(accel, dt: dt, calm: calm, tilted: tilted) }
        if let field, tiltInitialised {
            correctHeading(field, dt: dt, calm: calm, verticalRate: earthRate.z)
        }
        accuracy.observeCorrections(tiltX: stepCorrection.tiltX, tiltY: stepCorrection.tiltY,
                                    heading: stepCorrection.heading, tiltTrusted: stepTrusted.tilt,
                                    headingTrusted: stepTrusted.heading, netRate: netRate, gain: gains.netRate,
                                    dt: dt, minimumNetRate: settings.gyroScaleObservationRate, settings: settings)

        finishFlags(field: field)
    }

    // MARK: - Corrections

    private func ramped(_ tau: Double) -> Double {
        guard elapsed < settings.initialisationDuration else { return tau }
        let start = min(tau, settings.initialTimeConstant)
        return start + (tau - start) * elapsed / settings.initialisationDuration
    }

    /// The heading's time constant now: `magneticTimeConstant`, shortened while the gyro bias about
    /// the vertical is uncertain so that what it can drift in one time constant stays within
    /// `magneticDriftAllowanceDegrees` (a fresh gyro leans on the field until its bias is learned).
    private func headingTimeConstant(biasUncertainty: Double) -> Double {
        let allowance = settings.magneticDriftAllowanceDegrees / max(1e-6, biasUncertainty)
        return max(settings.magneticMinimumTimeConstant, min(settings.magneticTimeConstant, allowance))
    }

    /// The time constant of learning the bias in motion from a reference whose part of the bias is
    /// uncertain by `sigma` (°/s): `motionBiasInitialTimeConstant` for a gyro never calibrated,
    /// lengthening as the bias is learned (in inverse proportion to its uncertainty) up to
    /// `motionBiasTimeConstant` — a bias known from a rest is only refined, slowly.
    private func motionBiasTimeConstant(sigma: Double) -> Double {
        let scaled = settings.motionBiasInitialTimeConstant * settings.initialBiasUncertainty / max(1e-6, sigma)
        return min(max(settings.motionBiasTimeConstant, 1), max(1, scaled))
    }

    /// Gravity's time constant now (s): the one that balances the tilt the gyro lets drift against the
    /// accelerations the average lets in. A drift at r °/s leaves an error of about r·τ; accelerations
    /// scattering the specific force by σ (degrees about each axis), correlated over τₐ, leave about
    /// σ·√(τₐ / 2τ). Their sum is least at τ = ∛(σ²·τₐ / (4 r²)). The drift rate r comes from the
    /// rotation (scale and integration errors per degree turned, `FilterTuning.rotationDrift`) and
    /// the tilt bias's uncertainty; σ² from the specific force's measured scatter about the vertical.
    /// (Worked out from the values it needs, not from the filter: a method reading the whole filter
    /// made the optimiser copy it, 2.7 kB, each time.)
    private static func gravityTimeConstant(driftRateSquare rate: Double, scatter: Double, correlationTime: Double,
                                            tuning: borrowing FilterTuning) -> Double {
        guard rate > 0 else { return tuning.gravityLongest }
        let cube = scatter * correlationTime / (4 * rate)
        // Beyond a bound's cube, by a margin far above the cube root's rounding, the bound is the answer
        // the cube root would give: no cube root.
        if cube >= tuning.gravityLongestCube { return tuning.gravityLongest }
        if cube <= tuning.gravityShortestCube { return tuning.gravityShortest }
        let tau = cbrt(cube)
        return tau.isFinite ? min(tuning.gravityLongest, max(tuning.gravityShortest, tau)) : tuning.gravityLongest
    }

    /// `q * step`, brought back to unit length by the factor its squared length gives, which is the
    /// two squared lengths' product: worked out beside the product, not after it. (Further off than
    /// rounding, normalised.)
    @inline(__always)
    private static func step(_ q: Quaternion, by step: Quaternion) -> Quaternion {
        let product = q * step
        guard let k = Quaternion.renormalisingFactor(squaredNorm: q.squaredNorm * step.squaredNorm) else {
            return product.normalized
        }
        return Quaternion(w: product.w * k, x: product.x * k, y: product.y * k, z: product.z * k)
    }

    /// `lowPassGain(dt:tau:)` over `tau` and over each of its two stages (`tau / 2`), with one
    /// division: dt / (τ / 2) is exactly twice dt / τ (halving and doubling are exact), so the
    /// gains are bit for bit the two calls'. Worked out whenever the sample period changes, which
    /// on a clock of large doubles is most samples.
    @inline(__always)
    private static func gravityGains(dt: Double, tau: Double) -> (average: Double, stage: Double) {
        let ratio = dt / tau
        // (Away from subnormals and overflow, where halving or doubling would round.)
        guard tau > 0x1p-1000, ratio > 0x1p-1000, ratio < 0x1p1000 else {
            return (lowPassGain(dt: dt, tau: tau), lowPassGain(dt: dt, tau: tau / 2))
        }
        return (lowPassGain(ratio: ratio), lowPassGain(ratio: 2 * ratio))
    }

    /// The spread the innovation gate allows for (degrees): the heading's drift, from its square, and
    /// the timing's part, as root sum of squares.
    @inline(__always)
    private static func spread(driftSquare: Double, timing: Double) -> Double {
        let drift = driftSquare.squareRoot()
        return (drift * drift + timing * timing).squareRoot()
    }

    /// How fast the gyro may be tilting the strapdown frame now ((°/s)²): the scale and integration
    /// errors of the rotation, and the tilt bias's uncertainty.
    @inline(__always) private var tiltDriftRateSquare: Double {
        let drift = tuning.rotationDrift * rotationSpeed
        return drift * drift + accuracy.tiltBiasVariance
    }

    /// `tilted` is `inclination * strapdown` as the gyro left them this sample.
    private mutating func correctTilt(_ accel: Vector3, dt: Double, calm: Bool, tilted: Quaternion) {
        // Gravity's time constant moves with averages of seconds: worked out again every few samples
        // (with its gains for this period), not per sample. (First: it depends on nothing this
        // sample's specific force changes, so its cube root and divisions run beside the rest.)
        if adaptiveGravity.countdown <= 0 || adaptiveGravity.dt != dt {
            let scatter = max(tuning.tiltNoiseSquare,
                              0.5 * (accuracy.rollResidualMeanSquare + accuracy.pitchResidualMeanSquare))
            let tau = Self.gravityTimeConstant(driftRateSquare: tiltDriftRateSquare, scatter: scatter,
                                               correlationTime: settings.accelerationCorrelationTime, tuning: tuning)
            let gains = Self.gravityGains(dt: dt, tau: tau)
            adaptiveGravity = (tau, gains.average, gains.stage, dt, 8)
        }
        adaptiveGravity.countdown -= 1
        var specific = accel
        var nedAcceleration: Vector3?
        if let vehicle = vehicleAcceleration, (lastTime ?? 0) - vehicleAccelerationTime <= settings.vehicleAccelerationHold {
            switch vehicle {
            case .body(let a): specific = specific - a
            case .ned(let a): nedAcceleration = a
            }
        }
        var inStrapdown = strapdown.rotate(specific)
        if let a = nedAcceleration {
            let c = headingTurn.cosine, s = headingTurn.sine
            let unheaded = Vector3(c * a.x + s * a.y, -s * a.x + c * a.y, a.z)
            inStrapdown = inStrapdown - inclination.inverseRotate(unheaded)
        }
        if !tiltInitialised {
            gravityAverage = inStrapdown
            gravityStage = inStrapdown
            shortAverage = inStrapdown
            shortStage = inStrapdown
            referenceAverage = inStrapdown
            tiltInitialised = true
            // One sample levels the filter to within what a moving body's acceleration can tilt it.
            accuracy.setTiltDrift(min(accuracy.tiltDrift, 5))
        }
        // Rejection compares two averages of the specific force in the gyro-stabilised frame, where
        // turning does not move it: a short one and a slow one. Only acceleration (or gyro drift)
        // separates them — a launch, a turn — while the comparison never involves the estimate
        // itself. A lasting acceleration ends in recovery (the rejection budget below).
        // Two stages of half the time constant, as gravity's own average: a stroke of shaking, which
        // gravity's average cuts as much (2πf·τ/2 times more than one stage would), leans it little,
        // while a push that lasts leans it all the same. So back-and-forth translation is not
        // rejected (which would leave out its strokes unevenly and tilt the average), a launch is.
        shortStage += (inStrapdown - shortStage) * gains.rejectionStage
        shortAverage += (shortStage - shortAverage) * gains.rejectionStage
        let norm = shortAverage.norm
        let lateral = shortAverage.cross(referenceAverage).norm
        // The two averages also part by what an unlearned gyro bias turns the frame between their
        // time constants: the lean tolerance covers that too (3σ), or a fresh gyro's bias would
        // read as a lasting lean and lock the bias out of ever being learned.
        let biasUncertainty = accuracy.tiltBiasUncertainty
        let biasLean = biasUncertainty * tuning.biasLeanSpan
        let shortAlong = shortAverage.dot(referenceAverage)
        let leans: Bool
        if biasLean > settings.accelerationRejectionDegrees {
            let angle = min(60, biasLean) * radiansPerDegree
            // tan θ lies between θ and θ / (1 − θ²/2) (θ ≤ 60°): a lean outside them, by a margin far
            // beyond rounding, is decided without the tangent, as the tangent would decide it.
            if shortAlong > 0 && lateral < angle * shortAlong * (1 - 1e-9) {
                leans = false
            } else if shortAlong > 0 && lateral > angle / (1 - 0.5 * angle * angle) * shortAlong * (1 + 1e-9) {
                leans = true
            } else {
                leans = lateral > tan(angle) * shortAlong
            }
        } else {
            leans = lateral > tuning.rejectionTangent * shortAlong
        }
        // The angle between this sample's specific force and the vertical, about the body's roll
        // and pitch axes, as sines (enough for the accuracy model's scatter): the horizontal part
        // of the specific force along the body's x axis tilts the pitch, across it the roll.
        // (In the earth frame at once through `tilted` when nothing was subtracted in the strapdown frame.)
        let earth = nedAcceleration == nil ? tilted.rotate(specific) : inclination.rotate(inStrapdown)
        // (Its length is the specific force's, which the rotation keeps: known before the rotation.)
        let earthNorm = (nedAcceleration == nil ? specific : inStrapdown).norm
        // The body's x axis in NED: the first column of the rotation.
        let forwardX = 1 - 2 * (tilted.y * tilted.y + tilted.z * tilted.z)
        let forwardY = 2 * (tilted.x * tilted.y + tilted.w * tilted.z)
        let forwardSquare = forwardX * forwardX + forwardY * forwardY
        let forwardNorm = forwardSquare.squareRoot()
        // (1/√x as √x · (1/x): the root and the division side by side.)
        let perForward = forwardNorm > 1e-6 ? forwardNorm * (1 / forwardSquare) : 0
        let fx = forwardNorm > 1e-6 ? forwardX * perForward : 1, fy = forwardNorm > 1e-6 ? forwardY * perForward : 0
        let scale = earth.z < 0 && earthNorm > 0 ? degreesPerRadian / earthNorm : 0
        let pitchResidual = scale > 0 ? min(90, abs(earth.x * fx + earth.y * fy) * scale) : 90
        let rollResidual = scale > 0 ? min(90, abs(earth.y * fx - earth.x * fy) * scale) : 90
        // Ramped from `initialTimeConstant` while initialising, then this period's gains.
        let initialising = elapsed < settings.initialisationDuration
        // At rest the specific force is gravity and noise alone: level quickly (`restAccelerationTimeConstant`).
        // A steady push without rotation (a launch, a long turn) also holds the gyro and the
        // accelerometer steady, so rest levels only while the rest window's average of the specific
        // force agrees with its slow average (where gravity has been over the last
        // `accelerationReferenceTimeConstant`) to within what the gyro can have let the tilt drift
        // (3σ, at least 1°): a push turned it where the gyro says nothing turned. Or, once a rest has
        // shown what the accelerometer reads for gravity alone, while its magnitude is back to that:
        // a push leaning it by θ lengthens it by sec θ − 1 (0.2 % at 3.6°), so the cruise after a
        // push the slow average took in is levelled too.
        var still = !initialising && flags.contains(.atRest)
        if still {
            let held = strapdown.rotate(rest.filteredAcceleration)
            let restLimit = max(1, 3 * accuracy.tiltDrift) * radiansPerDegree
            let unleaned = held.cross(referenceAverage).norm <= restLimit * held.dot(referenceAverage)
            let magnitude = held.norm
            still = unleaned || abs(magnitude - restMagnitude) <= settings.restMagnitudeTolerance
            if still { restMagnitude = magnitude }
        }
        let gravityTau = still || initialising ? settings.accelerationTimeConstant : adaptiveGravity.tau
        let baseGain = initialising ? lowPassGain(dt: dt, tau: ramped(settings.accelerationTimeConstant))
            : still ? gains.restGravity
            : gravityTau == tuning.gravityLongest ? gains.gravity : adaptiveGravity.gain
        var gain = baseGain
        // Gravity is only rejected while the gyro can hold the tilt on its own; once it cannot,
        // not again until the drift is back under half the limit (so the samples let in are not
        // just those at the end of each rejected stretch).
        let limit = settings.accelerationRejectionMaximumDriftDegrees
        let tiltDrift = accuracy.tiltDrift
        if tiltDrift >= limit { tiltHoldExhausted = true }
        if tiltDrift < limit / 2 { tiltHoldExhausted = false }
        // Once a lean is seen, rejection holds on for `accelerationRejectionHold` after it ends, so the
        // whole of a stroke (its push and its return) is left out, not just its larger half — that
        // would bias the average towards the smaller half.
        if leans || abs(norm - 1) > settings.accelerationRejectionNorm {
            rejectionHold = settings.accelerationRejectionHold
        } else {
            rejectionHold = max(0, rejectionHold - dt)
        }
        let rejected = elapsed > settings.initialisationDuration && !tiltHoldExhausted && rejectionHold > 0
        // Rejection budget: rejected time adds, accepted time drains at `accelerationRejectionBudget`
        // per second; once the balance reaches the timeout, gravity is trusted in full until it has
        // drained — rejection can never lock in, however long the acceleration lasts.
        if recoveringTilt {
            rejectionDuration = max(0, rejectionDuration - dt)
            if rejectionDuration == 0 { recoveringTilt = false }
        } else if rejected {
            rejectionDuration += dt
            if rejectionDuration >= settings.accelerationRejectionTimeout {
                recoveringTilt = true
            } else {
                gain *= settings.accelerationRejectionWeight
                flags.insert(.accelerationRejected)
            }
        } else {
            rejectionDuration = max(0, rejectionDuration - dt * settings.accelerationRejectionBudget)
        }
        // Two first-order stages of half the time constant each: the same lag for a slow change,
        // but shaking at 1 Hz is cut 30 times more than by one stage (4 / (ωτ)² against 1 / ωτ).
        // A rejected sample slows both stages, so what the first one took in does not keep flowing.
        let weight = gain == baseGain && baseGain > 0 ? 1 : gain / max(baseGain, 1e-300)
        let stageGain = (initialising ? lowPassGain(dt: dt, tau: ramped(settings.accelerationTimeConstant) / 2)
                                      : still ? gains.restGravityStage
                                      : gravityTau == tuning.gravityLongest ? gains.gravityStage
                                      : adaptiveGravity.stageGain) * weight
        gravityStage += (inStrapdown - gravityStage) * stageGain
        gravityAverage += (gravityStage - gravityAverage) * stageGain
        // The slow average learns from what gravity learns from (rejected samples count less), so a
        // second launch stands out as clearly as the first.
        referenceAverage += (inStrapdown - referenceAverage) * (gains.reference * weight)

        // Turn the averaged specific force to point straight up (0, 0, −1).
        // (Its length is the average's, which the rotation keeps: worked out beside the rotation, not after it.)
        let up = inclination.rotate(gravityAverage), upNorm = gravityAverage.norm
        guard upNorm > 0, upNorm.isFinite else { return }
        // The inclination is turned by the levelling before it is normalised, and the product scaled
        // once, by the levelling's factor and what brings the inclination itself back to unit length
        // (the product's length is the two lengths' product): the product does not wait for the
        // levelling's square root and division, nor the result for a renormalisation after it.
        let (turn, levellingScale) = Quaternion.unnormalisedLevelling(up: up, norm: upNorm)
        let correction = Quaternion(w: turn.w * levellingScale, x: turn.x * levellingScale, y: turn.y * levellingScale, z: 0)
        if let renormalising = Quaternion.renormalisingFactor(squaredNorm: inclination.squaredNorm) {
            let k = levellingScale * renormalising, q = turn * inclination
            inclination = Quaternion(w: q.w * k, x: q.x * k, y: q.y * k, z: q.z * k)
        } else {
            inclination = (correction * inclination).normalized
        }
        stepCorrection.tiltX = 2 * correction.x * degreesPerRadian
        stepCorrection.tiltY = 2 * correction.y * degreesPerRadian
        stepTrusted.tilt = !initialising && gain == baseGain
        // The gravity average's lean from the slow one is the tilt error the accelerations it took
        // in have left (what a back-and-forth motion leaves is its velocity change over the
        // average's span, not its accelerations), as a rotation (axis × angle) split between the
        // roll and the pitch axis.
        // What part of a launch got in before its rejection began is in the gravity average too, so
        // this lean holds it (the short average's lean would count a stroke of shaking, which the
        // two-stage average cuts 2πf·τ/4 times more, as if it had got in).
        let leanCross = gravityAverage.cross(referenceAverage)
        let along = gravityAverage.dot(referenceAverage)
        // A gyro that tilts the strapdown frame at r °/s as it turns (its scale error) also parts the
        // two averages, by r times the difference of their delays, while it leaves the gravity
        // average only r·τ behind: the systematic drift the model already carries
        // (`tiltSystematic`, r·τ when steady). That part is not counted again here. (An unlearned
        // bias's drift is left in: the model carries it only as a variance.)
        let leanLateral = leanCross.norm
        let driftLean = accuracy.tiltSystematic * radiansPerDegree
            * max(0, settings.accelerationReferenceTimeConstant - gravityTau) / max(gravityTau, 1e-3)
        let leanAngle = along > leanLateral ? leanLateral / max(along, 1e-9) : 1
        let kept = leanAngle > driftLean ? (leanAngle - driftLean) / leanAngle : 0
        let leanScale = kept * (along > leanLateral ? degreesPerRadian / max(along, 1e-9) : 90 / max(leanLateral, 1e-9))
        // Split between the roll and the pitch axis, each is at most the whole lean (to rounding, which
        // the margin covers): when that is no more than what the model's leans decay to with this
        // correction, it changes neither, and the split is not worked out.
        var rollLean = 0.0, pitchLean = 0.0
        if !(leanLateral * leanScale * (1 + 1e-9) <= accuracy.decayedLean(gain: gain, slowGain: gains.magnetic)) {
            let leanAxis = inclination.rotate(leanCross)
            rollLean = abs(leanAxis.x * fx + leanAxis.y * fy) * leanScale
            pitchLean = abs(leanAxis.y * fx - leanAxis.x * fy) * leanScale
        }
        // While gravity is trusted in full, the correction undoes what the bias error integrated:
        // feed it back (Mahony-style). Not while the specific force leans, nor for
        // `accelerationRejectionHold` after (the average then holds some of the acceleration),
        // whether or not the lean is being rejected.
        let learns = calm && rejectionHold == 0
        let biasTime = learns ? motionBiasTimeConstant(sigma: biasUncertainty) : 1
        // The reference's noise per sample (`gains.tiltNoise`): the accelerometer's white noise (what
        // accelerations leave in the average is the lean above).
        accuracy.tiltCorrected(gain: gain, biasGain: learns ? gain / biasTime : 0, noiseVariance: gains.tiltNoise,
                               rollResidual: rollResidual, pitchResidual: pitchResidual,
                               rollLean: rollLean, pitchLean: pitchLean, averagingGain: gains.gravity,
                               slowGain: gains.magnetic, tiltNoiseSquare: tuning.tiltNoiseSquare)
        guard learns else { return }
        let angle = Vector3(2 * correction.x, 2 * correction.y, 0)
        let inBody = (inclination * strapdown).inverseRotate(angle)
        adjustBias(by: inBody * (-degreesPerRadian / biasTime))
    }

    private mutating func correctHeading(_ field: Vector3, dt: Double, calm: Bool, verticalRate: Double) {
        let tilted = inclination * strapdown
        let earth = tilted.rotate(field)
        let horizontalSquare = earth.x * earth.x + earth.y * earth.y
        let horizontal = horizontalSquare.squareRoot()
        let norm = field.norm      // the rotation keeps it: known before the rotation
        let dip = dipAngle.radians(y: earth.z, x: horizontal) * degreesPerRadian
        dipParts = (earth.z, horizontal, norm)
        guard horizontal > 1e-3 * norm else { return }
        if !headingInitialised {
            headingTurn = HeadingTurn(radians: -atan2(earth.y, earth.x))
            headingInitialised = true
            accuracy.setHeadingDrift(5)
            _ = updateReference(norm: norm, dip: dip, dt: dt, gyroHoldExceeded: false)
            return
        }
        var innovation = headingTurn.angle(toNorthFrom: earth.x, earth.y, large: &largeInnovation)
        if settings.magneticLagTimeConstant > 0 {
            innovation += lag.update(innovation: innovation, verticalRate: verticalRate * radiansPerDegree,
                                     minimumRate: tuning.lagMinimumRate, gain: gains.lag, limit: settings.magneticLagLimit)
        }
        let innovationDegrees = innovation * degreesPerRadian
        magneticInnovationDegrees = innovationDegrees
        // How far the heading may have drifted on the gyro alone since the field was last trusted (as
        // its square: the root is taken where it is needed, in a disturbance, from the same square).
        let driftSquare = accuracy.headingDriftSquare
        let holdExceeded: Bool
        if reference.disturbedDuration == 0 && gate.rejectedDuration == 0 {
            // The drift at the disturbance is the drift now: it has grown by nothing.
            driftSquareAtDisturbance = driftSquare
            holdExceeded = 0 > settings.magneticRejectionMaximumDriftDegrees
        } else {
            holdExceeded = driftSquare.squareRoot() - driftSquareAtDisturbance.squareRoot()
                > settings.magneticRejectionMaximumDriftDegrees
        }
        let judged = updateReference(norm: norm, dip: dip, dt: dt, gyroHoldExceeded: holdExceeded)
        if judged.replaced {
            flags.insert(.magneticReferenceChanged)
            accuracy.forgetDip()
        }
        // What the disagreement may spread by beyond the drift: the field's sample and the gyro's
        // are not taken at quite the same instant, and the heading turns by the vertical rate times
        // that offset (what the lag correction leaves of it).
        let timing = settings.magneticTimingUncertainty * verticalRate
        let weight = gate.update(innovationDegrees: innovationDegrees,
                                 driftDegrees: Self.spread(driftSquare: driftSquare, timing: timing), dt: dt,
                                 holdExceeded: holdExceeded || judged.replaced, gain: gains.magnetic, settings: settings)
        let settled = elapsed > settings.initialisationDuration
        // A field off the reference in |B| or dip is down-weighted like a disagreeing heading: by
        // (tolerance / deviation)², so a far-off field barely counts but none is locked out.
        var fieldWeight = 1.0
        if judged.disturbed && settled {
            flags.insert(.magneticDisturbance)
            fieldWeight = reference.weight(norm: norm, dipDegrees: dip, settings: settings)
        }
        if weight < 1 && settled { flags.insert(.magneticDisturbance) }
        if !judged.disturbed {
            accuracy.dipObserved(dip, referenceGain: gains.dipReference, slowGain: gains.magnetic, averagingGain: gains.tiltError)
        }
        // A field judged disturbed is followed no faster than `magneticTimeConstant` however
        // uncertain the bias: the shorter time constant keeps an unlearned bias from turning the
        // heading, but towards a wrong field it would only turn it faster.
        let suspect = settled && (weight < 1 || fieldWeight < 1)
        let headingTau = suspect ? settings.magneticTimeConstant : headingTimeConstant(biasUncertainty: accuracy.headingBiasUncertainty)
        let tau = gate.recovering ? min(settings.magneticRecoveryTimeConstant, headingTau) : headingTau
        // This period's gain when the time constant is the usual one; worked out otherwise.
        let baseGain = elapsed >= settings.initialisationDuration && tau == settings.magneticTimeConstant
            ? gains.magnetic : lowPassGain(dt: dt, tau: ramped(tau))
        let gain = baseGain * (settled ? weight : 1) * fieldWeight
        headingTurn.turn(by: gain * innovation)
        stepCorrection.heading = gain * innovation * degreesPerRadian
        stepTrusted.heading = settled && !suspect && !gate.recovering
        // Only a field trusted in full teaches the bias, and in proportion to how consistently it
        // agrees with the gyro: a field whose heading scatters by more than the innovation gate's
        // floor (an uncalibrated board turning, steel nearby) would teach the bias its own errors.
        var biasGain = 0.0
        if calm, weight == 1, fieldWeight == 1, !gate.recovering {
            let scatter = gate.meanSquare.squareRoot()
            let floor = settings.magneticInnovationGateDegrees
            let reliability = scatter > floor ? (floor / scatter) * (floor / scatter) : 1
            let biasTime = motionBiasTimeConstant(sigma: accuracy.headingBiasUncertainty)
            biasGain = gain * reliability / biasTime
            let inBody = tilted.inverseRotate(Vector3(0, 0, gain * innovation))
            adjustBias(by: inBody * (-degreesPerRadian * reliability / biasTime))
        }
        // The field's own heading noise per sample: the magnetometer's noise across the horizontal field.
        // (Its square from the horizontal part's square: the division beside the square root, not after it.)
        accuracy.headingCorrected(gain: gain, biasGain: biasGain, noiseVariance: tuning.magnetometerNoiseSquare / horizontalSquare,
                                  innovationDegrees: innovationDegrees,
                                  // A rejected field's disagreement is the disturbance's, not the scatter's.
                                  averagingGain: gains.magnetic * (settled ? weight * fieldWeight : 1),
                                  probeGain: gains.innovationProbe, dt: dt, timeConstant: tau)
    }

    /// The magnetic reference's update with this period's gains.
    @inline(__always)
    private mutating func updateReference(norm: Double, dip: Double, dt: Double,
                                          gyroHoldExceeded: Bool) -> (disturbed: Bool, replaced: Bool) {
        reference.update(norm: norm, dipDegrees: dip, dt: dt, gyroHoldExceeded: gyroHoldExceeded,
                         spreadGain: gains.spread, referenceGain: gains.magneticReference,
                         candidateGain: gains.candidate, settings: settings)
    }

    private mutating func adjustBias(by change: Vector3) {
        let limit = settings.maximumBias
        bias = Vector3(max(-limit, min(limit, bias.x + change.x)),
                       max(-limit, min(limit, bias.y + change.y)),
                       max(-limit, min(limit, bias.z + change.z)))
    }

    /// Orientation from one accelerometer and magnetometer sample: the unfiltered tilt-compensated
    /// heading, kept in the same parts so the gyro can take over seamlessly.
    private mutating func updateWithoutGyroscope(accelerometer: Vector3?, magnetometer: Vector3?, dt: Double) {
        rest.reset()
        accuracy.propagate(netRate: .zero, rate: 0, dt: dt, settings: settings)
        if let accel = accelerometer, let up = accel.normalized {
            let level = Quaternion.levelling(up: up)
            strapdown = level
            inclination = .identity
            gravityAverage = strapdown.rotate(accel)
            gravityStage = gravityAverage
            tiltInitialised = true
            let deviation = abs(accel.norm - 1)
            accuracy.setTiltDrift(degrees(asin(min(1, deviation))) * 2)
        }
        guard let field = magnetometer, tiltInitialised else { return }
        let earth = strapdown.rotate(field)
        let horizontal = (earth.x * earth.x + earth.y * earth.y).squareRoot()
        let norm = earth.norm
        let dip = degrees(atan2(earth.z, horizontal))
        dipParts = (earth.z, horizontal, norm)
        let judged = reference.update(norm: norm, dipDegrees: dip, dt: dt, gyroHoldExceeded: true, settings: settings)
        if judged.disturbed { flags.insert(.magneticDisturbance) }
        guard horizontal > 1e-3 * norm else { return }
        headingTurn = HeadingTurn(radians: -atan2(earth.y, earth.x))
        headingInitialised = true
        accuracy.setHeadingDrift(judged.disturbed ? 30 : 2)
    }

    @inline(__always)
    private mutating func finishFlags(field: Vector3?) {
        if field == nil { flags.insert(.magnetometerUnavailable) }
        if elapsed < settings.initialisationDuration || !tiltInitialised || !headingInitialised {
            flags.insert(.initialising)
        }
        if !quaternionIsFinite { reset() ; flags.insert(.initialising) }
    }

    /// Whether the orientation's parts, the bias and the gravity average are all finite: as their
    /// sum, which a NaN or an infinity in any makes NaN or infinite (they are all far too small for
    /// the sum of finite ones to overflow), with one check instead of sixteen.
    @inline(__always) private var quaternionIsFinite: Bool {
        let s = strapdown, i = inclination
        let sum = (s.w + s.x + s.y + s.z) + (i.w + i.x + i.y + i.z) + (headingTurn.halfCosine + headingTurn.halfSine)
            + (bias.x + bias.y + bias.z) + (gravityAverage.x + gravityAverage.y + gravityAverage.z)
        return sum.isFinite
    }
}
