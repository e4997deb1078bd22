import Geodesy
import Options
import Sensors
import Session
import Testing
@testable import lodestone

/// The command line's option groups and usage errors, in process: every command's spec, the typed
/// groups that read them, and the conflicts they refuse. Nothing here opens a sensor or gpsd.
@Suite("option groups and usage errors")
struct OptionGroupTests {
    /// Parses `arguments` for the command named first and runs it; returns the usage error it gave.
    /// Only for arguments that must be refused: valid ones would run the command for real.
    func usageError(_ arguments: [String]) -> UsageError? {
        guard let command = Dispatcher.find(arguments[0]) else { return nil }
        do {
            let parsed = try parseArguments(Array(arguments.dropFirst()), spec: command.spec)
            _ = try command.run(parsed)
            return nil
        } catch let error as UsageError {
            return error
        } catch {
            return nil
        }
    }

    @Test("every command declares each option once, and its help lists them all")
    func specsAreConsistent() {
        for command in allCommands {
            let names = command.spec.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.spec.name) declares an option twice: \(names)")
            let shorts = command.spec.options.compactMap(\.short)
            #expect(Set(shorts).count == shorts.count, "\(command.spec.name): duplicate short options")
            let help = helpText(for: command.spec)
            for name in names { #expect(help.contains("--" + name), "\(command.spec.name) --help lacks --\(name)") }
        }
    }

    @Test("every command's usage line names each declared option, and nothing it does not declare")
    func usageLinesAreGenerated() {
        for command in allCommands {
            let spec = command.spec
            let usage = spec.usage
            let named = usage.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "[" || $0 == "]" })
                .filter { $0.hasPrefix("--") }
                .map { String($0.dropFirst(2)) }
            #expect(Set(named) == Set(spec.options.map(\.name)),
                    "\(spec.name): usage '\(usage)' and declared options differ")
            #expect(named.count == spec.options.count, "\(spec.name): an option appears twice in its usage")
            let help = helpText(for: spec)
            #expect(help.contains("usage: lodestone \(spec.name) \(usage)\n"))
            for line in usage.split(separator: "\n") { #expect(line.count <= 100, "\(spec.name): usage line too long") }
        }
        // `watch` once left six options out of its hand-written usage.
        let watch = allCommands.first { $0.spec.name == "watch" }!.spec
        #expect(watch.usage.contains("[--once]") && watch.usage.contains("[--goto TARGET]"))
    }

    @Test("--min-mode and --style are typed choices with their declared defaults")
    func minModeAndStyleAreTyped() throws {
        let track = TrackCommand.spec
        let absent = try parseArguments([], spec: track)
        #expect(try GNSSOptions.minimumMode(absent) == .twoD)
        #expect(try absent.chosen(TrackCommand.style, as: TrackCommand.DirectionStyle.self).bearingStyle == .quadrant(decimals: 0))
        let given = try parseArguments(["--min-mode", "3d", "--style", "points"], spec: track)
        #expect(try GNSSOptions.minimumMode(given) == .threeD)
        #expect(try given.chosen(TrackCommand.style, as: TrackCommand.DirectionStyle.self).bearingStyle == .points16)
        let degrees = try parseArguments(["--style", "degrees"], spec: track)
        #expect(try degrees.chosen(TrackCommand.style, as: TrackCommand.DirectionStyle.self).bearingStyle == .degrees(decimals: 0))
        let help = helpText(for: track)
        #expect(help.contains("2d or 3d (default 2d)") && help.contains("(N30°E) (default quadrant)"))
        #expect(track.usage.contains("[--min-mode 2d|3d]") && track.usage.contains("[--style degrees|points|quadrant]"))
    }

    @Test("--gpsd has one definition and one help text wherever it appears")
    func oneGpsdOption() {
        let helps = Set(allCommands.flatMap { $0.spec.options }.filter { $0.name == "gpsd" }.map(\.help))
        #expect(helps.count == 1, "\(helps)")
        let locations = Set(allCommands.flatMap { $0.spec.options }.filter { $0.name == "location" }.map(\.help))
        #expect(locations.count == 1, "\(locations)")
    }

    @Test("--simulate --location: where the simulated receiver and board start")
    func simulatedLocation() throws {
        let spec = CommandSpec(name: "t", abstract: "", options: GNSSSourceOptions.options)
        let start = try GNSSSourceOptions(try parseArguments(["--simulate", "--location", "31.23,121.47"], spec: spec)).choice
        #expect(start == .simulation(start: try GeoPoint(latitude: 31.23, longitude: 121.47)))
        let wrapped = try GNSSSourceOptions(try parseArguments(["--simulate", "--location", "10,200"], spec: spec)).choice
        #expect(wrapped == .simulation(start: try GeoPoint(latitude: 10, longitude: -160)))
        #expect(try GNSSSourceOptions(try parseArguments(["--simulate"], spec: spec)).choice == .simulated)
        #expect(throws: UsageError.self) { try GNSSSourceOptions(try parseArguments(["--location", "1,2"], spec: spec)) }
        #expect(throws: UsageError.self) { try GNSSSourceOptions(try parseArguments(["--simulate", "--location", "1"], spec: spec)) }
        #expect(throws: UsageError.self) { try GNSSSourceOptions(try parseArguments(["--simulate", "--location", "-91,2"], spec: spec)) }
        // watch, log, serve: the simulated board's field is the WMM's at --location, and the
        // simulated receiver starts there.
        let live = CommandSpec(name: "t", abstract: "", options: SensorOptions.options + HeadingOptions.options)
        let selection = try SensorOptions(try parseArguments(["--simulate", "--location", "31.23,121.47"], spec: live)).selection
        #expect(selection.location == (try GeoPoint(latitude: 31.23, longitude: 121.47)))
        let setup = selection.simulationSetup(wall: 1_790_000_000)
        #expect(setup.world.latitude == 31.23 && setup.world.longitude == 121.47)
        #expect(try SensorOptions(try parseArguments(["--location", "31.23,121.47"], spec: live)).selection.location == nil)
        #expect(SensorSelection(simulate: true).simulationSetup(wall: 1_790_000_000).world.latitude == -33.8694)
    }

    @Test("sensor options: chip, bus, address, orientation and accelerometer are read into one selection")
    func sensorSelection() throws {
        let spec = CommandSpec(name: "t", abstract: "", options: SensorOptions.options)
        let parsed = try parseArguments(["--sensor", "LIS3MDL", "--bus", "3", "--address", "0x1c", "--orientation", "yaw90",
                                         "--accelerometer", "none"], spec: spec)
        let selection = try SensorOptions(parsed).selection
        #expect(selection.sensor == .lis3mdl)
        #expect(selection.bus == 3)
        #expect(selection.address == I2CAddress(0x1C))
        #expect(selection.orientationGiven)
        #expect(selection.orientation == (try MountingOrientation.named("yaw90")))
        #expect(selection.accelerometer == .none)
        #expect(!selection.simulate)
        let defaults = try SensorOptions(try parseArguments([], spec: spec)).selection
        #expect(defaults == SensorSelection())
        #expect(!defaults.orientationGiven)
    }

    @Test("refused with a usage error (exit 64)", arguments: [
        ["watch", "--rate", "fast"],
        ["watch", "--gpsd", "127.0.0.1:2947", "--no-gnss"],
        ["watch", "--simulate", "--bus", "1"],
        ["watch", "--simulate", "--address", "0x0d"],
        ["watch", "--simulate", "--orientation", "sideways"],
        ["watch", "--sensor", "hmc5983"],
        ["watch", "--location", "95,0"],
        ["watch", "--location", "1,2", "--declination", "3"],
        ["watch", "--deviation", "sometimes"],
        ["watch", "--simulate", "--log", ""],
        ["log", "--simulate"],
        ["log", "--simulate", "-o", "x.csv", "--rotate", "weekly"],
        ["log", "--simulate", "-o", "x.csv", "--rotate", "daily", "--rotate-size", "5"],
        ["log", "--simulate", "-o", "x.csv", "--rate", "0"],
        ["log", "--simulate", "-o", "x.csv", "--deviation", "show"],
        ["track", "--simulate", "--gpsd", "127.0.0.1:2947"],
        ["track", "--gpsd", "bad host;x"],
        ["track", "--format", "xml"],
        ["track", "--style", "binary"],
        ["track", "--lang", "fr"],
        ["track", "--min-mode", "4d"],
        ["track", "--distance-filter", "-1"],
        ["where", "--timeout", "0"],
        ["where", "--accuracy", "nan"],
        ["detect", "--simulate", "--bus", "1"],
        ["detect", "--sensor", "qmc5883l"],
        ["detect", "--simulate", "--sensor", "hmc5983"],
        ["calibrate", "--record", "a.csv", "--from-file", "b.csv"],
        ["calibrate", "--yes", "--output", "p.json"],
        ["calibrate", "--unit", "uT"],
        ["calibrate", "--sim-speed", "5"],
        ["calibrate", "--simulate", "--record", "a.csv", "--align"],
        ["calibrate", "--from-file", "b.csv", "--simulate"],
        ["heading", "--from-file", "x.csv", "--unit", "furlongs"],
        ["heading", "--from-file", "x.csv", "--format", "xml"],
        ["heading"],
        ["declination", "--lat", "95", "--lon", "0"],
        ["declination", "--lon", "0"],
        ["declination", "--lat", "1", "--lon", "0", "--date", "2025-02-29"],
        ["declination", "--csv", "--lat", "1"],
        ["geod", "--inverse", "1", "2", "3"],
        ["geod", "1", "2", "3", "4"],
        ["geod", "--inverse", "--direct", "1", "2", "3", "4"],
        ["analyze"],
        ["analyze", "a.csv", "b.csv"],
    ])
    func refused(arguments: [String]) {
        #expect(usageError(arguments) != nil, "\(arguments) was not refused as a usage error")
    }

    @Test("the messages name what is wrong")
    func messages() throws {
        #expect(usageError(["watch", "--gpsd", "a", "--no-gnss"])?.message.contains("--no-gnss") == true)
        let orientation = try #require(usageError(["watch", "--simulate", "--orientation", "sideways"]))
        #expect(orientation.message.contains("x-forward-z-up") && orientation.message.contains("yaw90"))
        let chip = try #require(usageError(["detect", "--simulate", "--sensor", "hmc5983"]))
        #expect(chip.message.contains("qmc5883l") && chip.message.contains("ak09916"))
        #expect(usageError(["detect", "--sensor", "qmc5883l"])?.message.contains("--simulate") == true)
        #expect(usageError(["calibrate", "--sim-speed", "5"])?.message.contains("--simulate") == true)
    }
}
