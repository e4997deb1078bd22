import Options
import Platform
import Session

/// `lodestone detect`: which magnetometers and accelerometers answer on the I²C buses, identified by
/// their identity registers, with the evidence and how sure the identification is.
enum DetectCommand: Command {
    static let json = Option("json", help: "print JSON instead of a table")

    static let spec = CommandSpec(
        name: "detect",
        abstract: "find and identify the I²C magnetometers and accelerometers",
        options: [json] + SensorOptions.options,
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

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        let number = try arguments.integer(SensorOptions.bus)
        let simulate = arguments.flag(SensorOptions.simulate)
        if simulate {
            if number != nil { throw UsageError.conflict("--bus cannot be used with --simulate (the simulator has its own bus)") }
        } else {
            for option in [SensorOptions.sensor, SensorOptions.accelerometer, SensorOptions.orientation, SensorOptions.address]
            where arguments.isPresent(option) {
                throw UsageError.conflict("--\(option.name) only applies with --simulate; detect identifies real chips by itself")
            }
        }
        let simulation = simulate ? try SensorOptions(arguments).selection : nil
        return try DetectionQuery(bus: number, simulation: simulation, json: arguments.flag(json))
            .run(runtime: context.runtime(spec.name, signals: false))
    }
}
