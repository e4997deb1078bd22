import Options
import Sensors
import Session
import Simulation

/// The options of every command that reads the magnetometer: which chip, where, how it is mounted,
/// and whether to simulate it.
struct SensorOptions: OptionGroup {
    static let simulate = Option("simulate", help: "use the built-in simulator instead of real hardware")
    static let sensor = Option("sensor", value: "NAME", choices: SensorAlias.acceptedNames,
        absent: "the detected chip; with --simulate, " + SensorSelection.simulatedChip.rawValue,
        help: "magnetometer: " + ChipKind.allCases.map(\.rawValue).joined(separator: ", ")
        + ", or a board: " + SensorAlias.all.map(\.name).joined(separator: ", ") + "; with --simulate, the chip to emulate")
    static let bus = Option("bus", value: "N", range: 0...255, absent: "every bus is scanned", help: "I²C bus number (/dev/i2c-N)")
    static let address = Option("address", value: "0xNN", absent: "the chip's usual one",
                                help: "I²C address of the magnetometer, e.g. 0x1e")
    static let orientation = Option("orientation", value: "NAME",
        choices: MountingOrientation.allNamed.map(\.name) + MountingOrientation.aliases.map(\.alias),
        default: MountingOrientation.allNamed[0].name,
        help: "how the board is mounted: \(MountingOrientation.allNamed[0].name) is flat, components up, X arrow forward; "
        + "others e.g. x-right-z-down, yaw90, roll180; list in hardware/README.md")
    static let accelerometer = Option("accelerometer", value: "NAME",
        choices: SensorSelection.AccelerometerChoice.words, absent: "the detected one",
        help: "accelerometer for tilt: " + AccelerometerKind.allCases.map(\.rawValue).joined(separator: ", ") + ", none")

    static let scenario = Option("scenario", value: "NAME", choices: AttitudeScenario.scenarioNames,
        default: AttitudeScenario.tableName, help: "with --simulate: how the simulated board moves: "
        + "\(AttitudeScenario.tableName): turning on a table; boat: heeling, "
        + "rolling and heaving on a course, tacking; car: launches, turns and braking; walk: in the hand, with quick "
        + "turns; the vehicles carry a biased gyro and a compass calibrated where it is mounted, and the simulated receiver moves along their track")

    static let simStep = Option("sim-step-ut", value: "X,Y,Z@SECONDS", help: "with --simulate: a hard-iron step of "
        + "X,Y,Z µT (body axes: forward, right, down) that appears SECONDS into the run and stays, as a radio fitted "
        + "near the compass would; watch --refine learn it")

    static var options: [Option] { [simulate, sensor, bus, address, orientation, accelerometer, scenario, simStep] }

    var selection: SensorSelection

    init(_ arguments: ParsedArguments) throws(UsageError) {
        var s = SensorSelection(simulate: arguments.flag(Self.simulate))
        if let text = arguments.string(Self.sensor) {
            let alias = try Self.chip(text)
            s.sensor = alias.chip
            // A board's own accelerometer/gyro, unless --accelerometer says otherwise below.
            if let partner = alias.accelerometer { s.accelerometer = .kind(partner) }
        }
        s.bus = try arguments.integer(Self.bus)
        s.address = try Self.address(arguments)
        if let text = arguments.string(Self.orientation) {
            do {
                s.orientation = try MountingOrientation.named(text)
                s.orientationGiven = true
            } catch {
                var expected = "a mounting name"
                if case .unknownName(_, let suggestion?) = error { expected += " (did you mean '\(suggestion)'?)" }
                expected += "\nvalid names: " + MountingOrientation.allNamed.map(\.name).joined(separator: " ")
                    + "\naliases: " + MountingOrientation.aliases.map(\.alias).joined(separator: " ")
                throw .invalidValue(option: Self.orientation.name, value: text, expected: expected)
            }
        }
        if let word = try arguments.choice(Self.accelerometer), let choice = SensorSelection.AccelerometerChoice(word: word) {
            s.accelerometer = choice
        }
        if let name = arguments.string(Self.scenario) {
            guard AttitudeScenario.named(name) != nil else {
                throw .invalidValue(option: Self.scenario.name, value: name,
                                    expected: "one of " + AttitudeScenario.scenarioNames.joined(separator: ", "))
            }
            guard s.simulate else { throw .conflict("--scenario only applies with --simulate") }
            s.scenario = name.lowercased()
        }
        // `--location` (declared by the command, for the declination or the simulated receiver) also
        // places the simulated board: its field is the World Magnetic Model's there.
        if s.simulate, arguments.declared.contains(SimulatedLocation.option.name) {
            s.location = try SimulatedLocation.point(arguments)
        }
        if let text = arguments.string(Self.simStep) {
            guard s.simulate else { throw .conflict("--sim-step-ut only applies with --simulate") }
            s.fieldChanges = [try Self.fieldStep(text)]
        }
        if s.simulate && (s.bus != nil || s.address != nil) {
            throw .conflict("--bus and --address cannot be used with --simulate (the simulator has its own bus)")
        }
        selection = s
    }

    /// `--sim-step-ut X,Y,Z@SECONDS`: a step of finite µT (each under 1000) at a time from 0 on.
    static func fieldStep(_ text: String) throws(UsageError) -> FieldChange {
        let expected = "X,Y,Z@SECONDS: µT in body axes and when it appears, e.g. 6,-5,3@60"
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        let components = parts.first.map { $0.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) } } ?? []
        guard parts.count == 2, components.count == 3, let seconds = Double(parts[1]), seconds.isFinite, seconds >= 0,
              let x = components[0], let y = components[1], let z = components[2],
              [x, y, z].allSatisfy({ $0.isFinite && abs($0) < 1000 }) else {
            throw .invalidValue(option: simStep.name, value: text, expected: expected)
        }
        return FieldChange(x: x, y: y, z: z, start: seconds)
    }

    /// `--sensor NAME` as a chip, or a board with its accelerometer.
    static func chip(_ text: String) throws(UsageError) -> SensorAlias {
        guard let alias = SensorAlias.named(text) else {
            throw .invalidValue(option: sensor.name, value: text,
                                expected: "one of " + SensorAlias.acceptedNames.joined(separator: ", "))
        }
        return alias
    }

    /// `--address 0xNN`, a 7-bit address a device may use.
    static func address(_ arguments: ParsedArguments) throws(UsageError) -> I2CAddress? {
        guard let value = try arguments.int(address, in: 0...0x7F) else { return nil }
        guard (0x03...0x77).contains(value) else {
            throw .invalidValue(option: address.name, value: arguments.string(address) ?? "",
                                expected: "a 7-bit I²C address from 0x03 to 0x77")
        }
        return I2CAddress(value)
    }
}

/// `--calibration FILE` for the commands that read the magnetometer live.
enum CalibrationFileOption {
    static let calibration = Option(
        "calibration", value: "FILE",
        absent: "the sensor's profile in $XDG_CONFIG_HOME/lodestone/calibration.json, else ~/.config/lodestone/calibration.json",
        help: "calibration profile to apply (made by 'lodestone calibrate'); - reads it from standard input")
}

extension SensorSelection.AccelerometerChoice {
    /// The words of `--accelerometer`: a chip's name, none, or auto (the detected one).
    static let words = AccelerometerKind.allCases.map(\.rawValue) + ["none", "auto"]

    /// The choice a word of `words` names.
    init?(word: String) {
        switch word {
        case "none": self = .none
        case "auto": self = .automatic
        default:
            guard let kind = AccelerometerKind(rawValue: word) else { return nil }
            self = .kind(kind)
        }
    }
}
