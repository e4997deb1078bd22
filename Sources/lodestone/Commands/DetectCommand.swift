import Options
import Platform
import Sensors
import Simulation

/// `lodestone detect`: which magnetometers and accelerometers answer on the I²C buses, identified by
/// their identity registers, with the evidence and how sure the identification is.
enum DetectCommand: Command {
    static let spec = CommandSpec(
        name: "detect",
        abstract: "find and identify the I²C magnetometers and accelerometers",
        usage: "[--bus N] [--json] [--simulate [--sensor NAME] [--accelerometer NAME]]",
        options: [
            Option("bus", value: "N", help: "scan only /dev/i2c-N (default: every /dev/i2c-*)"),
            Option("json", help: "print JSON instead of a table"),
            Option("simulate", help: "scan the simulator's emulated bus instead of the real ones"),
            Option("sensor", value: "NAME", help: "with --simulate: the magnetometer to emulate ("
                + ChipKind.allCases.map(\.rawValue).joined(separator: ", ") + "; default qmc5883l)"),
            Option("accelerometer", value: "NAME", help: "with --simulate: an accelerometer to emulate beside it ("
                + AccelerometerKind.allCases.map(\.rawValue).joined(separator: ", ") + ", none)"),
        ],
        discussion: """
        Each address a supported chip can use is probed (0x0c 0x0d 0x10–0x13 0x18 0x19 0x1c 0x1d 0x1e
        0x30 0x53 0x68 0x69) and identified by its identity registers, never by the address alone: a
        board sold as an HMC5883L that answers at 0x0d is reported as the QMC5883L it is.
        Confidence: high (a distinctive identity, plus a data read where the identity is weak),
        medium (shared or weak identity), low (partial, or an address the part never uses).
        Exit 69 with set-up help when there is no I²C bus, no permission, or nothing answers.
          lodestone detect
          lodestone detect --bus 1 --json
          lodestone detect --simulate --sensor lis2mdl
        """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let json = arguments.flag("json")
        let simulate = arguments.flag("simulate")
        let bus = try arguments.int("bus", in: 0...255)
        let report: ScanReport
        if simulate {
            if bus != nil { throw UsageError.conflict("--bus cannot be used with --simulate (the simulator has its own bus)") }
            let setup = try SensorSelection(arguments).simulationSetup()
            let rig = SimulatedRig(setup: setup, now: { Clock.monotonic() })
            let devices = Detector().scan(rig.bus)
            report = ScanReport(buses: [rig.bus.busNumber], devices: devices)
        } else {
            for name in ["sensor", "accelerometer"] where arguments.string(name) != nil {
                throw UsageError.conflict("--\(name) only applies with --simulate; detect identifies real chips by itself")
            }
            report = try SystemScan().run(bus: bus)
        }
        let text = json ? DetectionReportFormat.json(report, simulated: simulate)
                        : DetectionReportFormat.table(report, simulated: simulate)
        StandardOutput().write(text)
        return .success
    }
}
