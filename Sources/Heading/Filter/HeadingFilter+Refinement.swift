import Attitude

extension HeadingFilter {
    /// The gyro-aided attitude filter's estimate (its gyro bias, its disturbance flags), nil before the
    /// first sample with a rotation rate.
    public var attitudeEstimate: AttitudeEstimate? { attitude?.estimate }

    /// The expected field (the WMM at the fix or `--location`), nil until a position is known.
    public mutating func referenceField(wall: Double) -> ExpectedField? {
        expectedField(wall: wall)?.field
    }

    /// The calibration's field error the accuracy counts (µT): the background refinement sets it from
    /// the refined offset's uncertainty, or widens it while a changed calibration is suspected.
    public mutating func setCalibrationResidual(microtesla: Double) {
        guard microtesla.isFinite, microtesla >= 0 else { return }
        configuration.calibrationResidualMicrotesla = microtesla
    }
}

extension HeadingFilter {
    /// Starts the attitude filter's magnetic reference (|B| and dip) again from the expected field: after
    /// the calibration itself changed, what it learned from the miscalibrated field no longer holds.
    public mutating func restartMagneticReference() {
        // The next sample hands the expected field over again, which restarts the reference.
        attitudeField = nil
    }
}
