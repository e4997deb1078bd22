import Geodesy
import GNSS
import Options
import Platform
import Session

/// The GNSS options: where gpsd is, and the fix quality a command accepts.
enum GNSSOptions {
    static let gpsd = Option("gpsd", value: "HOST:PORT", default: GpsdAddress.default.description,
                             help: "where gpsd listens: HOST, HOST:PORT or [IPv6]:PORT")
    static let noGNSS = Option("no-gnss", help: "do not use gpsd (or the simulated receiver)")
    static let minMode = Option("min-mode", value: "MODE", choices: MinimumMode.self, default: .twoD,
                                help: "ignore fixes below this mode: 2d or 3d")

    /// The words of `--min-mode`: the lowest fix mode a command accepts.
    enum MinimumMode: String, CaseIterable {
        case twoD = "2d", threeD = "3d"

        var fixMode: FixMode {
            switch self {
            case .twoD: return .twoD
            case .threeD: return .threeD
            }
        }
    }
    static let accuracy = Option("accuracy", value: "M", range: 0.1...1_000_000,
                                 help: "ignore fixes whose horizontal error is above M metres")

    /// `--timeout S` of `goto`, `regions` and `track`: the longest wait for the first good fix.
    static let firstFixTimeout = Option("timeout", value: "S", range: 0.1...31_536_000, absent: "no limit",
                                        help: "give up (exit 69) when no good fix has come after S seconds; "
                                            + "a gpsd that cannot be reached ends it within \(plain(GNSSProgress.refusedGrace)) s")

    /// `--timeout`, seconds; nil when absent.
    static func timeout(_ arguments: ParsedArguments) throws(UsageError) -> Double? {
        try arguments.number(firstFixTimeout)
    }

    /// `--gpsd`, parsed; nil when absent.
    static func address(_ arguments: ParsedArguments) throws(UsageError) -> GpsdAddress? {
        guard arguments.isPresent(gpsd) else { return nil }
        return try gpsdAddress(arguments)
    }

    /// `--gpsd`, parsed, or its declared default.
    static func gpsdAddress(_ arguments: ParsedArguments) throws(UsageError) -> GpsdAddress {
        let text = arguments.text(gpsd)
        do {
            return try GpsdAddress(parsing: text)
        } catch {
            throw .invalidValue(option: gpsd.name, value: text, expected: "HOST, HOST:PORT or [IPv6]:PORT, e.g. 127.0.0.1:2947")
        }
    }

    /// `--min-mode 2d|3d` (its declared default when absent).
    static func minimumMode(_ arguments: ParsedArguments) throws(UsageError) -> FixMode {
        try arguments.chosen(minMode, as: MinimumMode.self).fixMode
    }

    /// `--accuracy M`.
    static func maximumError(_ arguments: ParsedArguments) throws(UsageError) -> Double? {
        try arguments.number(accuracy)
    }
}

/// The position source of a live command (`watch`, `log`): gpsd, the simulated receiver with
/// `--simulate`, or none.
struct LiveGNSSOptions: OptionGroup {
    static var options: [Option] { [GNSSOptions.gpsd, GNSSOptions.noGNSS] }
    /// gpsd or none: `[--gpsd HOST:PORT | --no-gnss]`.
    static let sources = OptionAlternatives.oneOf(options)
    var choice: GNSSChoice

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.require(Self.sources)
        if arguments.flag(GNSSOptions.noGNSS) {
            choice = .none
        } else if let address = try GNSSOptions.address(arguments) {
            choice = .gpsd(address)
        } else {
            choice = .automatic
        }
    }
}

/// The fix source of `track`, `where`, `regions` and `goto`: gpsd, or the simulated receiver
/// (starting at `--location`).
struct GNSSSourceOptions: OptionGroup {
    static var options: [Option] { [GNSSOptions.gpsd, SensorOptions.simulate, SimulatedLocation.option] }
    /// gpsd or the simulated receiver: `[--gpsd HOST:PORT | --simulate]`.
    static let sources = OptionAlternatives.oneOf([GNSSOptions.gpsd, SensorOptions.simulate])
    var choice: GNSSSourceChoice

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.require(Self.sources)
        if arguments.flag(SensorOptions.simulate) {
            choice = .simulation(start: try SimulatedLocation.point(arguments))
        } else {
            if arguments.isPresent(SimulatedLocation.option) {
                throw .conflict("--location only applies with --simulate (a real receiver says where it is)")
            }
            choice = .gpsd(try GNSSOptions.gpsdAddress(arguments))
        }
    }
}

/// `--simulate --location LAT,LON`: where the simulated receiver (and board) start.
enum SimulatedLocation {
    /// The one `--location` (also the declination's place when there is no fix).
    static var option: Option { PlaceOption.location }

    /// `--location` as a point, longitude wrapped to −180…180; nil when absent.
    static func point(_ arguments: ParsedArguments) throws(UsageError) -> GeoPoint? {
        let expected = "LAT,LON in degrees (latitude −90…90, longitude −180…360), e.g. 31.23,121.47"
        guard let (lat, lon) = try arguments.pair(option, expected: expected) else { return nil }
        guard (-90...90).contains(lat), (-180...360).contains(lon),
              let point = try? GeoPoint(latitude: lat, longitude: lon > 180 ? lon - 360 : lon) else {
            throw .invalidValue(option: option.name, value: arguments.string(option) ?? "", expected: expected)
        }
        return point
    }
}
