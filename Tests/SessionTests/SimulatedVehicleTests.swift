import Foundation
import Heading
import Linear
import Platform
@testable import Session
import Sensors
import Simulation
import Testing
import TestSupport

@Suite("simulated vehicles (watch --simulate --scenario)")
struct SimulatedVehicleTests {
    /// The estimates of `seconds` of a live session on the simulated `scenario`, with the session's
    /// stderr.
    func run(_ scenario: String, seconds: Double, outputRate: Double? = nil) throws -> (estimates: [HeadingEstimate], said: String) {
        let h = try SessionHarness("vehicle-\(scenario)")
        var selection = SensorSelection(simulate: true)
        selection.scenario = scenario
        selection.outputRate = outputRate
        let inbox = ControlInbox(h.events)
        let live = try LiveSession.open(LiveRequest(sensors: selection), runtime: h.runtime("watch"), inbox: inbox)
        var estimates: [HeadingEstimate] = []
        while h.clock.now() < seconds {
            if let e = live.next(timeout: 0.5) { estimates.append(e) }
            live.pollGNSS()
        }
        return (estimates, h.diagnostics.text)
    }

    /// The 95th percentile of the true heading's error after the first 20 s.
    func p95(_ scenario: String, _ estimates: [HeadingEstimate]) throws -> Double {
        let vehicle = try #require(AttitudeScenario.named(scenario))
        var errors = try estimates.filter { $0.monotonic > 20 }.map {
            abs(remainder(try #require($0.trueHeading) - vehicle.attitude(at: $0.monotonic).yaw, 360))
        }
        errors.sort()
        return errors[errors.count * 95 / 100]
    }

    @Test("the chip read at 50 Hz (serve, log) heads as well as at 200 Hz (watch)", arguments: ["boat", "car"])
    func serviceRate(_ scenario: String) throws {
        let fast = try p95(scenario, run(scenario, seconds: 90).estimates)
        let slow = try p95(scenario, run(scenario, seconds: 90, outputRate: SensorSelection.serviceSampleRate).estimates)
        print("\(scenario): p95 true heading error \(slow)° with the chip at 50 Hz, \(fast)° at 200 Hz")
        #expect(slow <= 3, "p95 \(slow)° at 50 Hz")
        #expect(slow <= fast + 0.5, "50 Hz \(slow)°, 200 Hz \(fast)°")
    }

    @Test("a simulated vehicle's compass is calibrated where it is mounted: |B| is the Earth's, the heading true",
          arguments: ["boat", "car", "walk"])
    func calibratedVehicle(_ scenario: String) throws {
        let (estimates, said) = try run(scenario, seconds: 60)
        #expect(said.contains("calibrated where it is mounted"), "\(said)")
        let setup = SensorSelection(simulate: true).simulationSetup(wall: 1_795_000_000)
        let earth = setup.world.field.norm
        let fields = estimates.map(\.fieldStrength).sorted()
        try #require(fields.count > 1000)
        let low = fields[fields.count / 100], high = fields[fields.count * 99 / 100]
        #expect(abs(low - earth) < 0.03 * earth && abs(high - earth) < 0.03 * earth, "|B| \(low)…\(high), Earth \(earth)")
        // The true heading follows the vehicle's (the scenario's yaw is true; the rig starts at 0),
        // once the gyro bias has had 20 s to be learned.
        let vehicle = try #require(AttitudeScenario.named(scenario))
        var errors: [Double] = []
        var covered = 0
        for e in estimates where e.monotonic > 20 {
            let heading = try #require(e.trueHeading)
            let error = abs(remainder(heading - vehicle.attitude(at: e.monotonic).yaw, 360))
            errors.append(error)
            if error <= e.accuracy { covered += 1 }
        }
        errors.sort()
        let p95 = errors[errors.count * 95 / 100]
        #expect(p95 <= 3, "p95 heading error \(p95)°")
        #expect(Double(covered) >= 0.9 * Double(errors.count), "the accuracy covers \(covered) of \(errors.count)")
    }
}

