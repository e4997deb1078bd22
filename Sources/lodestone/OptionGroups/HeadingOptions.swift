import Heading
import Options
import Platform
import Session
import Simulation

/// Where you are, for the WMM: one option for the declination and the calibration's expected field.
enum PlaceOption {
    static let location = Option("location", value: "LAT,LON",
        absent: "with --simulate, Sydney, " + plain(SimulatedWorld.sydney.latitude) + "," + plain(SimulatedWorld.sydney.longitude),
        help: "where you are, e.g. -33.87,151.21: the World Magnetic "
        + "Model there gives the declination (and, when calibrating, the expected field) when there is no GNSS fix; "
        + "with --simulate, where the simulated board and receiver start")

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
    static let smoothing = Option("smoothing", value: "SECONDS", range: 0...60, default: HeadingFilterConfiguration().smoothingSeconds,
                                  help: "smoothing time constant when still (adaptive: light while turning)")
    static let declination = Option("declination", value: "DEG", range: -180...180.0,
                                    help: "use this declination (east positive) instead of the WMM")
    static let deviation = Option("deviation", value: "MODE", choices: DeviationChoice.self,
                                  absent: "apply when the profile has a card",
                                  help: "GNSS-course deviation card: off, apply, learn (saved to the profile on exit), show (print it)")

    /// The words of `--deviation`: a mode of the card, or print it.
    enum DeviationChoice: String, CaseIterable {
        case off, apply, learn, show

        /// The filter's mode; nil for `show`.
        var mode: DeviationMode? {
            switch self {
            case .off: return .off
            case .apply: return .apply
            case .learn: return .learn
            case .show: return nil
            }
        }
    }

    /// `--location` or `--declination`: `[--location LAT,LON | --declination DEG]`.
    static let declinationSources = OptionAlternatives.oneOf([PlaceOption.location, declination])

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
        try arguments.require(Self.declinationSources)
        settings.smoothingSeconds = try arguments.numberValue(Self.smoothing)
        settings.refine = arguments.flag(Self.refine)
        if let (lat, lon) = try PlaceOption.coordinates(arguments) {
            settings.declinationSource = .location(latitude: lat, longitude: lon)
        }
        if let d = try arguments.number(Self.declination) {
            settings.declinationSource = .manual(degrees: d)
        }
        if arguments.declared.contains(Self.deviation.name),
           let choice = try arguments.choice(Self.deviation, as: DeviationChoice.self) {
            showDeviation = choice == .show
            settings.deviation = choice.mode ?? .apply
        }
    }
}
