import Heading
import Options
import Session

/// Where you are, for the WMM: one option for the declination and the calibration's expected field.
enum PlaceOption {
    static let location = Option("location", value: "LAT,LON", help: "where you are, e.g. -33.87,151.21: the World Magnetic "
        + "Model there gives the declination (and, when calibrating, the expected field) when there is no GNSS fix; "
        + "with --simulate, where the simulated board and receiver start (default -33.8694,151.199, Sydney)")

    /// `--location`, checked; nil when absent.
    static func coordinates(_ arguments: ParsedArguments) throws(UsageError) -> (latitude: Double, longitude: Double)? {
        let expected = "LAT,LON in degrees (latitude −90…90, longitude −180…360), e.g. -33.87,151.21"
        guard let (lat, lon) = try arguments.pair(location, expected: expected) else { return nil }
        guard (-90...90).contains(lat), (-180...360).contains(lon) else {
            throw .invalidValue(option: location.name, value: arguments.string(location) ?? "", expected: expected)
        }
        return (lat, lon)
    }
}

/// The filter-stage options shared by `watch`, `log` and `heading`.
struct HeadingOptions: OptionGroup {
    static let smoothing = Option("smoothing", value: "SECONDS",
                                  help: "smoothing time constant when still (default 0.7; adaptive: light while turning)")
    static let declination = Option("declination", value: "DEG", help: "use this declination (east positive) instead of the WMM")
    static let deviation = Option("deviation", value: "MODE", choices: ["off", "apply", "learn", "show"], help: "GNSS-course deviation card: off, apply (default when "
        + "the profile has one), learn (saved to the profile on exit), show")

    static let refine = Option("refine", help: "refine the profile's hard-iron offset in the background from ordinary "
        + "motion (turns, circles; the gyro where there is one) against the WMM's field at the fix or --location, "
        + "and its soft iron when the motion pins it down (a tumble, not a level drive; never with a deviation card); "
        + "reported on stderr, in the dashboard, JSON and the log's flags, and saved to the profile on a clean exit "
        + "once converged (the previous profile kept as FILE.previous)")

    static var options: [Option] { [smoothing, PlaceOption.location, declination, deviation, refine] }
    /// The options of a command that replays recordings (no deviation card).
    static var replayOptions: [Option] { [smoothing, PlaceOption.location, declination, refine] }

    var settings = HeadingSettings()
    /// `--deviation show`: print the profile's card and exit.
    var showDeviation = false

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.requireAtMostOne(of: [PlaceOption.location, Self.declination])
        settings.smoothingSeconds = try arguments.double(Self.smoothing, in: 0...60)
        settings.refine = arguments.flag(Self.refine)
        if let (lat, lon) = try PlaceOption.coordinates(arguments) {
            settings.declinationSource = .location(latitude: lat, longitude: lon)
        }
        if let d = try arguments.double(Self.declination, in: -180...180) {
            settings.declinationSource = .manual(degrees: d)
        }
        if arguments.declared.contains(Self.deviation.name),
           let mode = try arguments.choice(Self.deviation) {
            showDeviation = mode == "show"
            settings.deviation = mode == "off" ? .off : (mode == "learn" ? .learn : .apply)
        }
    }
}
