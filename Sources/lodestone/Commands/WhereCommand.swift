import Options
import Platform
import Session

/// `lodestone where`: waits for one good fix and prints it.
enum WhereCommand: Command {
    static let timeout = Option("timeout", value: "S", help: "give up after S seconds (default 30); exit status 69")
    static let json = Option("json", help: "print one JSON object")

    static let spec = CommandSpec(
        name: "where",
        abstract: "print the current position once a good fix arrives",
        usage: "[--timeout S] [--accuracy M] [--json] [--lang en|zh] [--gpsd HOST:PORT | --simulate [--location LAT,LON]]",
        options: GNSSSourceOptions.options + [timeout, GNSSOptions.accuracy, GNSSOptions.minMode, json, UnitsOption.units,
                                              LanguageOption.lang],
        discussion: """
        Prints latitude and longitude (as many digits as gpsd gave), the horizontal error, mode and time,
        and the nearest place ("3.35 km NE of Hoorn, NL"; your places first when within their radius):
          lodestone where --accuracy 10
          lodestone where --json --timeout 5 --gpsd 192.168.1.20:2947
        On timeout it says what it saw (no gpsd, no receiver, no fix, or fixes too poor with the best
        error) and exits 69.
        """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let query = WhereQuery(source: try GNSSSourceOptions(arguments).choice,
                               timeout: try arguments.double(timeout, in: 0.1...86_400) ?? 30,
                               maximumHorizontalError: try GNSSOptions.maximumError(arguments),
                               minimumMode: try GNSSOptions.minimumMode(arguments), json: arguments.flag(json),
                               units: try UnitsOption.system(arguments),
                               language: try LanguageOption.language(arguments) ?? .en)
        return try query.run(runtime: .system(command: spec.name))
    }
}
