import Geodesy
import Options
import Sensors
import Session
import Testing
import TestSupport
@testable import lodestone

/// The command line's option groups and usage errors, in process: every command's spec, the typed
/// groups that read them, and the conflicts they refuse. Nothing here opens a sensor or gpsd.
@Suite("option groups and usage errors")
struct OptionGroupTests {
    /// Parses `arguments` for the command named first and runs it; returns the usage error it gave.
    /// Only for arguments that must be refused: valid ones run the command (in process, on a
    /// manual clock, in a private config folder).
    func usageError(_ arguments: [String]) -> UsageError? {
        guard let command = Dispatcher.find(arguments[0]), let harness = try? SessionHarness("usage", deadline: 5) else { return nil }
        do {
            let parsed = try parseArguments(Array(arguments.dropFirst()), spec: command.spec)
            _ = try command.run(parsed, in: harness.context())
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
            let named = usage.split(whereSeparator: { " \n[]()|".contains($0) })
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

    /// The words that give `option` on a command line (any value: parsing does not judge values).
    func given(_ option: Option) -> [String] {
        option.isFlag ? ["--" + option.name] : ["--" + option.name, option.choices.first ?? "1"]
    }

    @Test("usage lines show what a command needs without brackets and its alternatives as one group; parsing holds to them")
    func requiredAndAlternatives() throws {
        func usage(_ spec: CommandSpec) -> String { spec.usage.split(separator: "\n").map { $0.trimmingSpaces }.joined(separator: " ") }
        #expect(usage(GeodCommand.spec).contains(" (--inverse | --direct) [--csv | --json]"))
        #expect(usage(LogCommand.spec).hasPrefix("--output FILE ") && usage(LogCommand.spec).contains("[--rotate-size MB | --rotate daily]"))
        #expect(usage(HeadingCommand.spec).hasPrefix("--from-file FILE "))
        #expect(usage(DeclinationCommand.spec).hasPrefix("(--lat DEG --lon DEG | --csv) [--date YYYY-MM-DD | --year Y]"))
        #expect(usage(CalibrateCommand.spec).contains("[--yes | --output FILE]")
                && usage(CalibrateCommand.spec).contains("[--record FILE | --from-file FILE]"))
        for spec in [TrackCommand.spec, WhereCommand.spec, GotoCommand.spec, RegionsCommand.spec] {
            #expect(usage(spec).contains("[--gpsd HOST:PORT | --simulate]"), "\(spec.name)")
        }
        #expect(usage(ServeCommand.spec).contains("(--nmea URL | --signalk URL | --json FILE | --mqtt URL)..."))
        _ = try parseArguments(["--nmea", "tcp://:1", "--json", "-", "--mqtt", "mqtt://b/p"], spec: ServeCommand.spec)
        for spec in [WatchCommand.spec, LogCommand.spec, ServeCommand.spec] {
            #expect(usage(spec).contains("[--gpsd HOST:PORT | --no-gnss]") && usage(spec).contains("[--location LAT,LON | --declination DEG]"),
                    "\(spec.name)")
        }
        for command in allCommands {
            let spec = command.spec
            for group in spec.usageGroups {
                for option in group.options {
                    #expect(spec.options.contains { $0.name == option.name }, "\(spec.name): --\(option.name) is grouped, not declared")
                }
                #expect(usage(spec).contains(group.usageWord), "\(spec.name): '\(group.usageWord)' is not in its usage")
                // Two alternatives together are refused when parsing, and so is a required group left out.
                if group.alternatives.count > 1 && group.exclusive {
                    let both = group.alternatives.prefix(2).flatMap { given($0[0]) }
                    #expect(throws: UsageError.self, "\(spec.name) \(both)") { try parseArguments(both, spec: spec) }
                }
                if group.required {
                    let others = spec.usageGroups.filter { $0.required && $0.usageWord != group.usageWord }
                        .flatMap { $0.alternatives[0].flatMap(given) }
                    #expect(throws: UsageError.self, "\(spec.name) without \(group.usageWord)") { try parseArguments(others, spec: spec) }
                }
            }
        }
    }

    @Test("no help string types a default or a range by hand: they come from the option's declaration")
    func noHandTypedDefaults() {
        let options = allCommands.flatMap { $0.spec.options } + ProgramInterface.topLevelOptions
        for option in options {
            #expect(!option.help.lowercased().contains("default"), "--\(option.name) types a default by hand: '\(option.help)'")
            if let range = option.facts?.rangeText {
                #expect(!option.help.contains(range), "--\(option.name) types its range by hand: '\(option.help)'")
            }
            // What is said about the default comes from the declaration, once, in the summary.
            #expect(option.summary.components(separatedBy: "default").count <= 2, "--\(option.name): '\(option.summary)'")
        }
        // Defaults that were typed by hand (#26) are declared now.
        let declared: [(Option, String)] = [(HeadingOptions.smoothing, "0.7"), (ServeSinkOptions.talker, "HC"),
                                            (GNSSOptions.gpsd, "127.0.0.1:2947"), (HeadingCommand.unit, "uT"),
                                            (LanguageOption.lang, "en"), (WatchCommand.timeout, "10"),
                                            (CalibrateCommand.simSpeed, "1"), (SensorOptions.scenario, "table")]
        for (option, value) in declared { #expect(option.facts?.defaultText == value, "--\(option.name)") }
        for option in [HeadingCommand.year, DeclinationCommand.date, DurationOption.duration, UnitsOption.units, SensorOptions.sensor,
                       PlacesCommand.count, GotoCommand.radius, TrackCommand.distanceFilter, WatchCommand.rate, HeadingCommand.residual,
                       HeadingOptions.deviation, CalibrationFileOption.calibration] {
            #expect(option.absent != nil, "--\(option.name) says nothing of what happens without it")
        }
    }

    @Test("--unit, --deviation and --rotate are typed choices: a wrong word is a usage error naming every valid one")
    func typedChoices() throws {
        let cases: [([String], String, [String])] = [
            (["calibrate", "--from-file", "x.csv", "--unit", "tesla"], "unit", ["uT", "gauss", "counts"]),
            (["heading", "--from-file", "x.csv", "--unit", "furlongs"], "unit", ["uT", "gauss", "nT", "mG"]),
            (["watch", "--deviation", "sometimes"], "deviation", ["off", "apply", "learn", "show"]),
            (["log", "-o", "x.csv", "--rotate", "weekly"], "rotate", ["daily"]),
        ]
        for (arguments, name, words) in cases {
            let error = try #require(usageError(arguments), "\(arguments)")
            guard case .invalidValue(let option, _, let expected) = error else {
                Issue.record("\(arguments): \(error)")
                continue
            }
            #expect(option == name)
            for word in words { #expect(expected.contains(word), "\(arguments): '\(expected)' lacks \(word)") }
        }
        // Read as the enumerations' cases, whatever the word's case.
        let calibrate = try parseArguments(["--from-file", "x.csv", "--unit", "GAUSS"], spec: CalibrateCommand.spec)
        #expect(try calibrate.choice(CalibrateCommand.unit, as: RecordingUnit.self) == .gauss)
        let watch = try parseArguments(["--deviation", "learn"], spec: WatchCommand.spec)
        let heading = try HeadingOptions(watch)
        #expect(heading.settings.deviation == .learn && !heading.showDeviation)
        #expect(try HeadingOptions(try parseArguments(["--deviation", "show"], spec: WatchCommand.spec)).showDeviation)
        let log = try parseArguments(["-o", "x.csv", "--rotate", "daily"], spec: LogCommand.spec)
        #expect(try LogFileOptions(log).file?.rotation == .daily)
        #expect(try HeadingCommand.spec.options.first { $0.name == "unit" }.map { try parseArguments(["--from-file", "x", "--unit", "ut"], spec: HeadingCommand.spec).chosen($0, as: HeadingCommand.FieldUnit.self) } == .uT)
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
        ["log", "--simulate", "-o", "x.csv", "--keep", "3"],
        ["log", "--simulate", "-o", "x.csv", "--rotate", "daily", "--keep", "0"],
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
        // An endpoint's parser says what is wrong in a sentence of its own (not after "expected"), and
        // a password given in the URL is not repeated.
        let port = try #require(usageError(["serve", "--simulate", "--nmea", "tcp://:99999"])?.message)
        #expect(port.hasPrefix("invalid value 'tcp://:99999' for --nmea: ':99999' has no valid port"), "\(port)")
        for url in ["mqtt://bob:s3cret@", "mqtt://bob:s3cret@host/a/#", "http://bob:s3cret@host"] {
            let message = try #require(usageError(["serve", "--simulate", "--mqtt", url])?.message, "\(url)")
            #expect(!message.contains("s3cret") && message.contains("bob:***@") && !message.contains(": expected '"), "\(message)")
        }
    }
}
