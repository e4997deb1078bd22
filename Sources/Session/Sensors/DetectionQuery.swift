import Platform
import Sensors
import Simulation

/// `lodestone detect`: which magnetometers and accelerometers are on the I²C buses (or on the
/// simulator's bus), identified by their identity registers.
public struct DetectionQuery: Sendable {
    /// Scan only this bus; nil: every /dev/i2c-*.
    public var bus: Int?
    /// Scan the simulator's bus with these chips instead.
    public var simulation: SensorSelection?
    public var json: Bool

    public init(bus: Int? = nil, simulation: SensorSelection? = nil, json: Bool = false) {
        self.bus = bus
        self.simulation = simulation
        self.json = json
    }

    /// Scans and prints the table (or JSON).
    ///
    /// ```swift
    /// try DetectionQuery(simulation: SensorSelection(simulate: true, sensor: .lis2mdl)).run(runtime: runtime)
    /// ```
    public func run(runtime: Runtime) throws -> ExitCode {
        let report: ScanReport
        if let simulation {
            let time = runtime.time
            let rig = SimulatedRig(setup: simulation.simulationSetup(wall: time.wall()), now: { time.monotonic() })
            report = ScanReport(buses: [rig.bus.busNumber], devices: Detector().scan(rig.bus))
        } else {
            report = try SystemScan().run(bus: bus)
        }
        let simulated = simulation != nil
        runtime.output.write(json ? DetectionReportFormat.json(report, simulated: simulated)
                                  : DetectionReportFormat.table(report, simulated: simulated))
        return .success
    }
}
