import Heading
import Options

/// The filter-stage options shared by `watch`, `log` and `heading`.
let headingOptions: [Option] = [
    Option("smoothing", value: "SECONDS", help: "smoothing time constant when still (default 0.7; adaptive: light while turning)"),
    Option("location", value: "LAT,LON", help: "where you are, for the WMM declination when there is no GNSS fix"),
    Option("declination", value: "DEG", help: "use this declination (east positive) instead of the WMM"),
    Option("deviation", value: "MODE", help: "GNSS-course deviation card: off, apply (default when the profile has one), learn (saved to the profile on exit), show"),
]

/// Parsed filter-stage options.
struct HeadingOptions {
    var configuration = HeadingFilterConfiguration()
    /// `--deviation`, when given.
    var deviation: DeviationMode?
    /// `--deviation show`: print the profile's card and exit.
    var showDeviation = false

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.requireAtMostOne(of: ["location", "declination"])
        if let s = try arguments.double("smoothing", in: 0...60) { configuration.smoothingSeconds = s }
        configuration.fieldProvider = Heading.ExpectedField.wmm
        if let (lat, lon) = try arguments.pair("location", expected: "LAT,LON in degrees, e.g. -33.87,151.21") {
            guard (-90...90).contains(lat), (-180...360).contains(lon) else {
                throw .invalidValue(option: "location", value: arguments.string("location") ?? "",
                                    expected: "latitude in −90…90 and longitude in −180…360")
            }
            configuration.declinationSource = .location(latitude: lat, longitude: lon)
        }
        if let d = try arguments.double("declination", in: -180...180) {
            configuration.declinationSource = .manual(degrees: d)
        }
        if let mode = try arguments.choice("deviation", from: ["off", "apply", "learn", "show"]) {
            showDeviation = mode == "show"
            deviation = mode == "off" ? .off : (mode == "learn" ? .learn : .apply)
            configuration.deviationMode = deviation ?? .off
        } else {
            configuration.deviationMode = .apply
        }
    }
}
