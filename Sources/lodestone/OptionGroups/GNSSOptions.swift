import GNSS
import Options
import Session

/// The GNSS options: where gpsd is, and the fix quality a command accepts.
enum GNSSOptions {
    static let gpsd = Option("gpsd", value: "HOST:PORT",
                             help: "where gpsd listens: HOST, HOST:PORT or [IPv6]:PORT (default 127.0.0.1:2947)")
    static let noGNSS = Option("no-gnss", help: "do not use gpsd (or the simulated receiver)")
    static let minMode = Option("min-mode", value: "MODE", choices: ["2d", "3d"], help: "ignore fixes below this mode: 2d (default) or 3d")
    static let accuracy = Option("accuracy", value: "M", help: "ignore fixes whose horizontal error is above M metres")

    /// `--gpsd`, parsed; nil when absent.
    static func address(_ arguments: ParsedArguments) throws(UsageError) -> GpsdAddress? {
        guard let text = arguments.string(gpsd) else { return nil }
        do {
            return try GpsdAddress(parsing: text)
        } catch {
            throw .invalidValue(option: gpsd.name, value: text, expected: "HOST, HOST:PORT or [IPv6]:PORT, e.g. 127.0.0.1:2947")
        }
    }

    /// `--min-mode 2d|3d` (default 2d).
    static func minimumMode(_ arguments: ParsedArguments) throws(UsageError) -> FixMode {
        guard let text = try arguments.choice(minMode, from: minMode.choices + ["2D", "3D"]) else { return .twoD }
        return FixMode(name: text) ?? .twoD
    }

    /// `--accuracy M`.
    static func maximumError(_ arguments: ParsedArguments) throws(UsageError) -> Double? {
        try arguments.double(accuracy, in: 0.1...1_000_000)
    }
}

/// The position source of a live command (`watch`, `log`): gpsd, the simulated receiver with
/// `--simulate`, or none.
struct LiveGNSSOptions: OptionGroup {
    static var options: [Option] { [GNSSOptions.gpsd, GNSSOptions.noGNSS] }
    var choice: GNSSChoice

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.requireAtMostOne(of: Self.options)
        if arguments.flag(GNSSOptions.noGNSS) {
            choice = .none
        } else if let address = try GNSSOptions.address(arguments) {
            choice = .gpsd(address)
        } else {
            choice = .automatic
        }
    }
}

/// The fix source of `track` and `where`: gpsd, or the simulated receiver.
struct GNSSSourceOptions: OptionGroup {
    static var options: [Option] { [GNSSOptions.gpsd, SensorOptions.simulate] }
    var choice: GNSSSourceChoice

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.requireAtMostOne(of: Self.options)
        if arguments.flag(SensorOptions.simulate) {
            choice = .simulated
        } else {
            choice = .gpsd(try GNSSOptions.address(arguments) ?? .default)
        }
    }
}
