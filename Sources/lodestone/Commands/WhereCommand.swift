import Options
import Outputs
import Platform
import Session

/// `lodestone where`: waits for one good fix and prints it.
enum WhereCommand: Command {
    static let timeout = Option("timeout", value: "S", range: 0.1...86_400, default: WhereQuery.defaultTimeout,
                                help: "give up (exit 69) when no good fix has come after S seconds; "
                                    + "a gpsd that cannot be reached ends it within \(plain(GNSSProgress.refusedGrace)) s")
    static let json = Option("json", help: "print one JSON object")

    static let spec = CommandSpec(
        name: "where",
        abstract: "print the current position once a good fix arrives",
        options: GNSSSourceOptions.options + [timeout, GNSSOptions.accuracy, GNSSOptions.minMode, json, UnitsOption.units,
                                              LanguageOption.lang],
        usageGroups: [GNSSSourceOptions.sources],
        discussion: """
        Prints latitude and longitude (as many digits as gpsd gave), the horizontal error, mode and time,
        and the nearest place (every GeoNames place of 500 people; your places first when within their
        radius), with the biggest town near it when that helps ("1.73 km ENE of Edam, 2.78 km from
        Volendam, NL"); then its placemark: region, country, time zone and the local time at the fix
        (from the system's tzdata), population. With --lang zh the places' Chinese names:
          lodestone where --accuracy 10
          lodestone where --json --timeout 5 --gpsd 192.168.1.20:2947
          lodestone where --simulate --location 31.23,121.47 --lang zh   # 位于黄浦西南1.16公里，距上海1.43公里
        JSON (schema/position.schema.json): {"fix":{…},"device":…,"near":{…},"town":{…},"local_time":…}, the
        fix with the log's names (\(ReportJSON.fixKeys.joined(separator: ","))), near and town as places
        (schema/place.schema.json), local_time null without tzdata.
        On timeout it says what it saw (no gpsd, no receiver, no fix, or fixes too poor with the best
        error) and exits 69.
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        let query = WhereQuery(source: try GNSSSourceOptions(arguments).choice,
                               timeout: try arguments.numberValue(timeout),
                               maximumHorizontalError: try GNSSOptions.maximumError(arguments),
                               minimumMode: try GNSSOptions.minimumMode(arguments), json: arguments.flag(json),
                               units: try UnitsOption.system(arguments),
                               language: try LanguageOption.language(arguments))
        return try query.run(runtime: context.runtime(spec.name))
    }
}
