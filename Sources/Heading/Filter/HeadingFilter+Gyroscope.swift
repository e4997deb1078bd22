import Attitude
import Glibc
import Linear

extension HeadingFilter {
    /// The gyro-aided path: the attitude filter (gyro integration, gravity with acceleration
    /// rejection, magnetic heading with disturbance rejection, bias estimation) gives the magnetic
    /// heading, roll, pitch, rate of turn and accuracy; this stage adds what it adds to every heading:
    /// the expected field (handed to the attitude filter for its disturbance check), zones, the
    /// deviation card and the declination. No circular smoothing: the filter is its own smoother.
    mutating func updateWithGyroscope(_ s: CalibratedSample, rate: Vector3, into estimate: inout HeadingEstimate?) -> Bool {
        var flags: HeadingFlags = [.gyroAided]
        if let last = lastTime, s.monotonic - last < 0 || s.monotonic - last > configuration.maxGapSeconds {
            flags.insert(.restarted)
        }
        lastTime = s.monotonic

        var expected: ExpectedField?
        if let cached = expectedField(wall: s.wall) {
            expected = cached.field
            if cached.stale { flags.insert(.stale) }
        }
        if attitude == nil { attitude = AttitudeFilter() }
        if let expected, expected != attitudeField {
            // The field in the magnetic-north frame the attitude filter works in: north and down.
            let dip = radians(expected.inclination)
            attitude?.setExpectedField(ned: Vector3(expected.totalField * cos(dip), 0, expected.totalField * sin(dip)))
            attitudeField = expected
        }
        guard let a = attitude?.updatedEstimate(time: s.monotonic, gyroscope: rate, accelerometer: s.acceleration,
                                                magnetometer: s.magnetic),
              let compass = a.headingDegrees else { return false }

        if a.flags.contains(.magneticDisturbance) { flags.insert(.disturbed) }
        if a.flags.contains(.accelerationRejected) { flags.insert(.tiltHeld) }
        if a.flags.contains(.initialising) { flags.insert(.initialising) }
        if s.acceleration == nil { flags.insert(.levelOnly) }
        flags.formUnion(Self.conditionFlags(zone: expected?.zone, saturated: s.saturated))

        var deviation = 0.0
        if cardInUse {
            deviation = deviationTable.correction(atCompassHeading: compass)
            flags.insert(.deviationApplied)
        }
        // The tilt from the attitude's down axis in body coordinates (the third row of body → NED):
        // a still accelerometer would read its opposite. No trigonometry.
        let q = a.quaternion
        let down = Vector3(2 * (q.x * q.z - q.w * q.y), 2 * (q.y * q.z + q.w * q.x), 1 - 2 * (q.x * q.x + q.y * q.y))
        let tilt = Tilt(gravity: Vector3(-down.x, -down.y, -down.z)) ?? .level
        let level = tilt.levelled(s.magnetic)
        let horizontal = (level.x * level.x + level.y * level.y).squareRoot()
        let magnetic = normalizeDegrees(compass + deviation)
        let (declination, declinationUncertainty) = declinationNow(expected: expected)
        if declination == nil { flags.insert(.noDeclination) }
        // The attitude filter's accuracy covers noise, tilt, drift and disturbance; the calibration's
        // residual (20 µT for a board without a profile: tens of degrees) is added as the compass-only
        // path adds it, less what the heading averages away of it while the body keeps turning
        // (a small error's, that turns the field's heading back and forth: not a board's without a
        // profile, whose field may turn right round).
        let calibration = Self.calibrationAccuracy(configuration.accuracy.calibrationAccuracy(
            horizontalField: Self.accuracyHorizontalField(measured: horizontal, expected: expected)),
            share: a.calibrationErrorShare)
        let combined = Self.combined(a.accuracyDegrees, calibration)
        let accuracy = s.saturated || !combined.isFinite ? AccuracyModel.unavailable : combined
        let trueAccuracy = declination.map { _ in Self.combined(accuracy, declinationUncertainty) }
        let turnRate = a.rateOfTurnDegreesPerSecond ?? 0
        last = LastHeading(monotonic: s.monotonic, compassHeading: compass, turnRate: turnRate,
                           declination: declination, flags: flags)
        // Made in the caller's storage (an estimate is 0.3 kB: a local returned would be copied).
        estimate = HeadingEstimate(
            monotonic: s.monotonic, wall: s.wall, magneticHeading: magnetic,
            trueHeading: declination.map { normalizeDegrees(magnetic + $0) },
            rawMagneticHeading: normalizeDegrees(Tilt.heading(ofLevelled: level) + deviation),
            accuracy: accuracy, trueAccuracy: trueAccuracy, declination: declination,
            declinationSource: declinationSource, deviation: deviation, fieldStrength: s.magnetic.norm,
            horizontalField: horizontal, inclination: Tilt.inclination(ofLevelled: level), tilt: tilt,
            turnRate: turnRate, flags: flags, attitude: q,
            rollAccuracy: s.acceleration == nil ? nil : a.rollAccuracyDegrees,
            pitchAccuracy: s.acceleration == nil ? nil : a.pitchAccuracyDegrees)
        return true
    }
}

extension HeadingFilter {
    /// The vehicle's motion over the ground from GNSS (speed m/s and its rate m/s², the course's rate
    /// °/s positive to starboard), at monotonic time `monotonic`: with a gyroscope, the attitude filter
    /// removes the vehicle's own acceleration from the specific force before taking it as gravity.
    /// It is applied in body axes, along x (dv/dt) and across y (centripetal, speed × rate of turn),
    /// which assumes the body's x axis points along the track, as for a compass mounted in a car or a
    /// boat (leeway and side-slip of a few degrees aside): so it stays right between fixes while the
    /// vehicle keeps turning. Without a gyroscope it does nothing.
    ///
    /// ```swift
    /// filter.observeGroundTrack(speed: 12, speedRate: 0.4, courseRate: 3, monotonic: now)
    /// ```
    public mutating func observeGroundTrack(speed: Double, speedRate: Double, courseRate: Double, monotonic: Double) {
        guard attitude != nil, monotonic.isFinite, speed.isFinite, speedRate.isFinite, courseRate.isFinite else { return }
        let g = VehicleAcceleration.standardGravity
        let along = speedRate / g, across = speed * radians(courseRate) / g
        attitude?.setVehicleAcceleration(.body(Vector3(along, across, 0)), time: monotonic)
    }
}
