import Foundation
import Linear
import Simulation
@testable import Session
import Testing
import TestSupport

/// The simulated vehicles (`--simulate --scenario`): what the chips feel, and what the dashboard shows.
@Suite("simulated vehicles")
struct ScenarioTests {
    @Test("the car's accelerometer feels its launch and the centripetal pull of its turn")
    func carSpecificForce() {
        var setup = SimulationSetup(scenario: .car(course: 0))
        setup.accelerometer = .mpu6050
        // 2 s in: pulling away at 0.3 g, level: the specific force leans 0.3 g backwards (forward accel).
        let launch = setup.orientation.toBody(setup.chipAcceleration(atScenarioTime: 2))
        #expect(abs(launch.x - 0.3) < 0.03, "\(launch)")
        #expect(abs(launch.z + 1) < 0.05, "\(launch)")
        // 15 s in: turning right at 10°/s at 15 m/s: 0.27 g towards the inside (+y, starboard).
        let turn = setup.orientation.toBody(setup.chipAcceleration(atScenarioTime: 15))
        #expect(abs(turn.y - 15 * 10 * .pi / 180 / 9.80665) < 0.05, "\(turn)")
    }

    @Test("--scenario boat on the dashboard: the heading held through the roll, with heel and rate of turn shown")
    func boatDashboard() throws {
        let h = try SessionHarness("boat")
        let terminal = h.attachTerminal(columns: 100, rows: 32)
        terminal.type("q", at: 20)
        var sensors = SensorSelection(simulate: true)
        sensors.scenario = "boat"
        let request = WatchRequest(live: LiveRequest(sensors: sensors, gnss: .none))
        #expect(try WatchSession.run(request, runtime: h.runtime("watch")) == .success)
        let text = h.output.text
        #expect(text.contains("°/min"), "the rate of turn is shown")
        #expect(text.contains("roll") && text.contains("pitch"))
        // The log of the same run: a heading on every row, gyro-aided, with the roll of the swell.
        let log = try SessionHarness("boat-log")
        let path = log.path("boat.csv")
        _ = try LogRecording.run(LogRequest(live: LiveRequest(sensors: sensors, gnss: .none, distanceFilter: 0),
                                            file: .init(path: path), rate: 5, duration: 30),
                                 runtime: log.runtime("log"))
        let rows = LogCheck(path: path).rows
        #expect(rows.count == 150)
        let rolls = rows.compactMap { Double($0[9]) }
        #expect((rolls.max() ?? 0) - (rolls.min() ?? 0) > 15, "the swell rolls her: \(rolls.min() ?? 0)…\(rolls.max() ?? 0)")
        #expect(rows.allSatisfy { $0[17].contains("gyroAided") })
    }
}
