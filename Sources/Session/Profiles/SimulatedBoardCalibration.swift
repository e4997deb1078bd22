import Calibration
import Linear
import Platform
import Simulation

/// The simulated board's exact calibration: what a perfect `calibrate --simulate` would leave for
/// the board's known hard and soft iron (`SimulationSetup.model`), in body axes as the reader gives
/// the field (the rig's distortion rides with the board, before its mounting into chip axes). A simulated
/// vehicle (`--scenario boat|car|walk`) uses it when there is no profile for the simulated chip, as a
/// vehicle's compass is calibrated where it is mounted; a stored profile (made by
/// `calibrate --simulate` on the same board) is used first.
///
/// ```swift
/// let profile = simulatedBoardCalibration(setup: rig.setup, sensor: identity, noise: 0.2, wall: now)
/// profile?.apply(sample.field)   // the Earth's field in body axes, distortion removed
/// ```
/// - Parameters:
///   - noise: the chip's noise, µT per axis: the profile's residual (a real fit leaves about that).
/// - Returns: nil when the board's soft iron cannot be inverted.
public func simulatedBoardCalibration(setup: SimulationSetup, sensor: SensorIdentity, noise: Double,
                                      wall: Double) -> CalibrationProfile? {
    // The reader's field is S · body + h (the rig maps it into chip axes, the reader back).
    guard let softInverse = setup.model.softIron.inverse else { return nil }
    let field = setup.world.field.norm
    guard field > 0, field.isFinite else { return nil }
    return CalibrationProfile(
        sensor: sensor, offset: setup.model.hardIron, matrix: softInverse,
        fieldStrength: field, residualPercent: 100 * max(noise, 0.1) / field, coveragePercent: 100,
        model: .full, created: ISO8601.format(wall))
}
