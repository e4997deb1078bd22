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
    private var headingOffset = 0.0                     // radians, about the down axis
    private var gravityStage = Vector3(0, 0, -1)        // g, strapdown frame, first of two stages
    private var gravityAverage = Vector3(0, 0, -1)      // g, strapdown frame
    private var shortAverage = Vector3(0, 0, -1)        // g, strapdown frame, for rejection
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
    private let rejectionTangent: Double
    private var rejectionDuration = 0.0
    private var rejectionHold = 0.0
    private var recoveringTilt = false
    private var tiltHoldExhausted = false
    private var restCalibrated = false
    private var driftAtDisturbance = 0.0
    private var gate = InnovationGate()
    private var lag = MagneticLag()
    private var flags: AttitudeFlags = [.initialising]
    private var rate: Vector3?                          // °/s, bias removed, body
    private var netRate = Vector3.zero                  // °/s, NED, averaged
    private var dipTangent = 2.0                        // tan(dip) of the last field
    private var vehicleAcceleration: VehicleAcceleration?
    private var vehicleAccelerationTime = -Double.infinity

    public init(settings: AttitudeSettings = AttitudeSettings()) {
        self.settings = settings
        accuracy = AttitudeAccuracyModel(settings: settings)
        rejectionTangent = tan(radians(min(89.9, max(0, settings.accelerationRejectionDegrees))))
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

    /// The orientation as of the last update.
    public var estimate: AttitudeEstimate {
        let q = quaternion
        let angles = AttitudeEstimate.angles(of: q, pitchLimit: settings.headingPitchLimit)
        let rateOfTurn = rate.map { q.rotate($0).z }
        return AttitudeEstimate(
            quaternion: q,
            headingDegrees: headingInitialised ? angles.heading : nil,
            rollDegrees: angles.roll, pitchDegrees: angles.pitch,
            rateOfTurnDegreesPerSecond: rateOfTurn,
            accuracyDegrees: headingInitialised ? accuracy.headingAccuracyDegrees(dipTangent: dipTangent, settings: settings) : 180,
            tiltAccuracyDegrees: accuracy.tiltAccuracyDegrees(settings: settings),
            gyroBias: bias, flags: flags)
    }

    /// Body → NED.
    public var quaternion: Quaternion {
        (Quaternion(headingRadians: headingOffset) * inclination * strapdown).normalized
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
        flags = []

        let gyro = gyroscope.flatMap { $0.isFinite && $0.squaredNorm < 1e10 ? $0 : nil }
        let accel = accelerometer.flatMap { $0.isFinite && $0.squaredNorm > 1e-4 && $0.squaredNorm < 2500 ? $0 : nil }
        let field = magnetometer.flatMap { $0.isFinite && $0.squaredNorm > 1e-2 && $0.squaredNorm < 1e8 ? $0 : nil }

        guard let gyro else {
            flags.insert(.gyroscopeUnavailable)
            rate = nil
            updateWithoutGyroscope(accelerometer: accel, magnetometer: field, dt: dt)
            finishFlags(field: field)
            return
        }

        // Bias at rest.
        if let accel {
            rest.update(gyro: gyro, accelerometer: accel, dt: dt, settings: settings)
            if rest.isAtRest(settings) {
                // The first rest takes the averaged gyro as it is; later ones refine it slowly.
                let k = restCalibrated ? lowPassGain(dt: dt, tau: settings.restBiasTimeConstant) : 1
                bias += (rest.averageGyro - bias) * k
                accuracy.restCalibrated(gain: restCalibrated ? k : 0.5, settings: settings)
                restCalibrated = true
                flags.insert(.atRest)
            }
        }

        // Strapdown integration.
        let omega = gyro - bias
        rate = omega
        let omegaNorm = omega.norm
        strapdown = (strapdown * Quaternion(rotationVector: omega * (radians(1) * dt))).renormalized
        let earthRate = (inclination * strapdown).rotate(omega)    // °/s, NED before the heading turn
        netRate += (earthRate - netRate) * lowPassGain(dt: dt, tau: settings.netRateTimeConstant)
        accuracy.propagate(netRate: netRate, rate: omegaNorm, dt: dt, settings: settings)

        // Moving steadily enough for the references' corrections to teach the bias (each reference
        // adds its own condition: that it is trusted now).
        let calm = !flags.contains(.atRest) && elapsed > settings.initialisationDuration
            && omegaNorm < settings.motionBiasRateLimit
        if let accel, correctTilt(accel, dt: dt, calm: calm) {
            let tau = motionBiasTimeConstant(sigma: accuracy.tiltBiasUncertainty)
            accuracy.motionLearned(tilt: true, gain: lowPassGain(dt: dt, tau: tau), settings: settings)
        }
        if let field, tiltInitialised {
            let reliability = correctHeading(field, dt: dt, calm: calm, verticalRate: earthRate.z)
            if reliability > 0 {
                let tau = motionBiasTimeConstant(sigma: accuracy.headingBiasUncertainty)
                accuracy.motionLearned(tilt: false, gain: lowPassGain(dt: dt, tau: tau) * reliability, settings: settings)
            }
        }
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
    private var headingTimeConstant: Double {
        let allowance = settings.magneticDriftAllowanceDegrees / max(1e-6, accuracy.headingBiasUncertainty)
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

    /// Returns true when the correction taught the gyro bias.
    private mutating func correctTilt(_ accel: Vector3, dt: Double, calm: Bool) -> Bool {
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
            let c = cos(headingOffset), s = sin(headingOffset)
            let unheaded = Vector3(c * a.x + s * a.y, -s * a.x + c * a.y, a.z)
            inStrapdown = inStrapdown - inclination.inverseRotate(unheaded)
        }
        if !tiltInitialised {
            gravityAverage = inStrapdown
            gravityStage = inStrapdown
            shortAverage = inStrapdown
            referenceAverage = inStrapdown
            tiltInitialised = true
            // One sample levels the filter to within what a moving body's acceleration can tilt it.
            accuracy.setTiltDrift(min(accuracy.tiltDrift, 5))
        }
        // Rejection compares two averages of the specific force in the gyro-stabilised frame, where
        // turning does not move it: a short one and a slow one. Only acceleration (or gyro drift)
        // separates them — a launch, a turn — while the comparison never involves the estimate
        // itself. A lasting acceleration ends in recovery (the rejection budget below).
        shortAverage += (inStrapdown - shortAverage) * lowPassGain(dt: dt, tau: settings.accelerationRejectionTimeConstant)
        let norm = shortAverage.norm
        let lateral = shortAverage.cross(referenceAverage).norm
        // The two averages also part by what an unlearned gyro bias turns the frame between their
        // time constants: the lean tolerance covers that too (3σ), or a fresh gyro's bias would
        // read as a lasting lean and lock the bias out of ever being learned.
        let biasLean = 3 * accuracy.tiltBiasUncertainty
            * max(0, settings.accelerationReferenceTimeConstant - settings.accelerationRejectionTimeConstant)
        let tolerance = biasLean > settings.accelerationRejectionDegrees
            ? tan(radians(min(60, biasLean))) : rejectionTangent
        let leans = lateral > tolerance * shortAverage.dot(referenceAverage)
        // The angle between this sample's specific force and the vertical, as its sine (enough for
        // the accuracy model's scatter).
        let earth = inclination.rotate(inStrapdown)
        let horizontal = (earth.x * earth.x + earth.y * earth.y).squareRoot()
        let earthNorm = earth.norm
        let residual = earth.z < 0 && earthNorm > 0 ? degrees(horizontal / earthNorm) : 90
        let baseGain = lowPassGain(dt: dt, tau: ramped(settings.accelerationTimeConstant))
        var gain = baseGain
        // Gravity is only rejected while the gyro can hold the tilt on its own; once it cannot,
        // not again until the drift is back under half the limit (so the samples let in are not
        // just those at the end of each rejected stretch).
        let limit = settings.accelerationRejectionMaximumDriftDegrees
        if accuracy.tiltDrift >= limit { tiltHoldExhausted = true }
        if accuracy.tiltDrift < limit / 2 { tiltHoldExhausted = false }
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
        let stageGain = lowPassGain(dt: dt, tau: ramped(settings.accelerationTimeConstant) / 2)
            * (gain / max(baseGain, 1e-300))
        gravityStage += (inStrapdown - gravityStage) * stageGain
        gravityAverage += (gravityStage - gravityAverage) * stageGain
        // The slow average learns from what gravity learns from (rejected samples count less), so a
        // second launch stands out as clearly as the first.
        referenceAverage += (inStrapdown - referenceAverage)
            * (lowPassGain(dt: dt, tau: settings.accelerationReferenceTimeConstant) * gain / max(baseGain, 1e-300))

        // Turn the averaged specific force to point straight up (0, 0, −1).
        guard let e = inclination.rotate(gravityAverage).normalized else { return false }
        let correction = Quaternion.levelling(up: e)
        inclination = (correction * inclination).renormalized
        // The short average's lean from the slow one is the tilt error this correction lets in.
        let along = shortAverage.dot(referenceAverage)
        let leanDegrees = along > lateral ? degrees(lateral / along) : 90    // tan θ ≈ θ below 45°
        accuracy.tiltCorrected(gain: gain, residualDegrees: min(residual, 90), leanDegrees: leanDegrees,
                               averagingGain: lowPassGain(dt: dt, tau: settings.accelerationTimeConstant),
                               dt: dt, settings: settings)
        // While gravity is trusted in full, the correction undoes what the bias error integrated:
        // feed it back (Mahony-style). Not while the specific force leans, nor for
        // `accelerationRejectionHold` after (the average then holds some of the acceleration),
        // whether or not the lean is being rejected.
        guard calm, rejectionHold == 0 else { return false }
        let angle = Vector3(2 * correction.x, 2 * correction.y, 0)
        let inBody = (inclination * strapdown).inverseRotate(angle)
        adjustBias(by: inBody * (-degrees(1) / motionBiasTimeConstant(sigma: accuracy.tiltBiasUncertainty)))
        return true
    }

    /// Returns how much the correction taught the gyro bias: 0 (not at all) to 1 (in full).
    private mutating func correctHeading(_ field: Vector3, dt: Double, calm: Bool, verticalRate: Double) -> Double {
        let tilted = inclination * strapdown
        let earth = tilted.rotate(field)
        let horizontal = (earth.x * earth.x + earth.y * earth.y).squareRoot()
        let norm = earth.norm
        let dip = degrees(atan2(earth.z, horizontal))
        dipTangent = earth.z / max(horizontal, 1e-9 * norm)
        guard horizontal > 1e-3 * norm else { return 0 }
        let fieldHeading = atan2(earth.y, earth.x)
        if !headingInitialised {
            headingOffset = -fieldHeading
            headingInitialised = true
            accuracy.setHeadingDrift(5)
            _ = reference.update(norm: norm, dipDegrees: dip, dt: dt, gyroHoldExceeded: false, settings: settings)
            return 0
        }
        var innovation = remainder(-fieldHeading - headingOffset, 2 * Double.pi)
        if settings.magneticLagTimeConstant > 0 {
            innovation += lag.update(innovation: innovation, verticalRate: radians(verticalRate), dt: dt, settings: settings)
        }
        magneticInnovationDegrees = degrees(innovation)
        // How far the heading may have drifted on the gyro alone since the field was last trusted.
        if reference.disturbedDuration == 0 && gate.rejectedDuration == 0 {
            driftAtDisturbance = accuracy.headingDrift
        }
        let holdExceeded = accuracy.headingDrift - driftAtDisturbance > settings.magneticRejectionMaximumDriftDegrees
        let judged = reference.update(norm: norm, dipDegrees: dip, dt: dt, gyroHoldExceeded: holdExceeded,
                                      settings: settings)
        if judged.replaced { flags.insert(.magneticReferenceChanged) }
        let weight = gate.update(innovationDegrees: degrees(innovation), driftDegrees: accuracy.headingDrift, dt: dt,
                                 holdExceeded: holdExceeded || judged.replaced, settings: settings)
        let settled = elapsed > settings.initialisationDuration
        // A field off the reference in |B| or dip is down-weighted like a disagreeing heading: by
        // (tolerance / deviation)², so a far-off field barely counts but none is locked out.
        var fieldWeight = 1.0
        if judged.disturbed && settled {
            flags.insert(.magneticDisturbance)
            fieldWeight = reference.weight(norm: norm, dipDegrees: dip, settings: settings)
        }
        if weight < 1 && settled { flags.insert(.magneticDisturbance) }
        let tau = gate.recovering ? min(settings.magneticRecoveryTimeConstant, headingTimeConstant)
                                  : headingTimeConstant
        let gain = lowPassGain(dt: dt, tau: ramped(tau)) * (settled ? weight : 1) * fieldWeight
        headingOffset = remainder(headingOffset + gain * innovation, 2 * Double.pi)
        accuracy.headingCorrected(gain: gain, innovationDegrees: degrees(innovation),
                                  averagingGain: lowPassGain(dt: dt, tau: settings.magneticTimeConstant))
        // Only a field trusted in full teaches the bias, and in proportion to how consistently it
        // agrees with the gyro: a field whose heading scatters by more than the innovation gate's
        // floor (an uncalibrated board turning, steel nearby) would teach the bias its own errors.
        guard calm, weight == 1, fieldWeight == 1, !gate.recovering else { return 0 }
        let scatter = gate.meanSquare.squareRoot()
        let floor = settings.magneticInnovationGateDegrees
        let reliability = scatter > floor ? (floor / scatter) * (floor / scatter) : 1
        let inBody = tilted.inverseRotate(Vector3(0, 0, gain * innovation))
        adjustBias(by: inBody * (-degrees(1) * reliability / motionBiasTimeConstant(sigma: accuracy.headingBiasUncertainty)))
        return reliability
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
        dipTangent = earth.z / max(horizontal, 1e-9 * norm)
        let judged = reference.update(norm: norm, dipDegrees: dip, dt: dt, gyroHoldExceeded: true, settings: settings)
        if judged.disturbed { flags.insert(.magneticDisturbance) }
        guard horizontal > 1e-3 * norm else { return }
        headingOffset = -atan2(earth.y, earth.x)
        headingInitialised = true
        accuracy.setHeadingDrift(judged.disturbed ? 30 : 2)
    }

    private mutating func finishFlags(field: Vector3?) {
        if field == nil { flags.insert(.magnetometerUnavailable) }
        if elapsed < settings.initialisationDuration || !tiltInitialised || !headingInitialised {
            flags.insert(.initialising)
        }
        if !quaternionIsFinite { reset() ; flags.insert(.initialising) }
    }

    private var quaternionIsFinite: Bool {
        strapdown.isFinite && inclination.isFinite && headingOffset.isFinite && bias.isFinite && gravityAverage.isFinite
    }
}
