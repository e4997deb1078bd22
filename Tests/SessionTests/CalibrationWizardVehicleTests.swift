import Calibration
import Foundation
import Linear
import Platform
@testable import Session
import Simulation
import Testing
import TestSupport

/// `lodestone calibrate --vehicle`: a compass fixed in a vehicle, calibrated from slow circles with
/// the accelerometer and the place, on the simulator in simulated time.
@Suite("calibration wizard for a compass fixed in a vehicle")
struct CalibrationWizardVehicleTests {
    @Test("circles on the simulator: the heading sectors fill, it passes by itself and holds the heading when tilted")
    func circlesPassAndHoldTheHeading() throws {
        let h = try SessionHarness("wizard-vehicle", deadline: 1200)
        let output = h.path("vehicle.json")
        let selection = SensorSelection(simulate: true)
        let request = WizardRequest(sensors: selection, output: output, vehicle: true)
        #expect(try runCalibrationWizard(request, runtime: h.runtime("calibrate")) == .success)
        let text = h.output.text
        #expect(text.contains("Mounted in a vehicle: turn two slow full circles"))
        #expect(text.contains("heading sectors ["), "\(text.prefix(600))")
        #expect(text.contains("every check passed"), "\(text.suffix(800))")
        #expect(text.contains("method        vehicle"))
        #expect(h.clock.now() < 300, "it finished within a few circles: \(h.clock.now()) s")
        // The profile against the simulator's own board and field, at ±5° roll and pitch.
        let profile = try CalibrationProfile.decode(try String(contentsOfFile: output, encoding: .utf8))
        let setup = selection.simulationSetup(wall: h.clock.wall())
        var worst = 0.0
        for roll in [-5.0, 0, 5] {
            for pitch in [-5.0, 0, 5] {
                for yaw in stride(from: 0.0, to: 360, by: 5) {
                    let attitude = Attitude(roll: roll, pitch: pitch, yaw: yaw).bodyToNED
                    let world = attitude * profile.apply(setup.model.distorted(attitude.transposed * setup.world.field))
                    let truth = atan2(setup.world.field.y, setup.world.field.x)
                    worst = max(worst, abs(angleDifference(degrees(atan2(world.y, world.x)), degrees(truth))))
                }
            }
        }
        print("vehicle wizard: \(h.clock.now()) s, worst heading error \(worst)° at ±5° roll and pitch")
        #expect(worst <= 1.0)
    }

    @Test("--vehicle without an accelerometer is refused before reading (exit 69)")
    func needsAnAccelerometer() throws {
        let h = try SessionHarness("wizard-vehicle-noaccel")
        let request = WizardRequest(sensors: SensorSelection(simulate: true, accelerometer: .none), output: h.path("p.json"),
                                    vehicle: true)
        #expect(throws: WizardError.vehicleNeedsAccelerometer(simulated: true)) {
            try runCalibrationWizard(request, runtime: h.runtime("calibrate"))
        }
        #expect(WizardError.vehicleNeedsAccelerometer(simulated: false).exitCode == .unavailable)
        #expect(WizardError.vehicleNeedsLocation.message.contains("--location LAT,LON"))
    }
}
