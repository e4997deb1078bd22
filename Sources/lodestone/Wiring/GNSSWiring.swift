import GNSS
import Options
import Platform
import Simulation

/// The options every position command shares, and the source they select.
enum GNSSWiring {
    static let sourceOptions: [Option] = [
        Option("gpsd", value: "HOST:PORT", help: "where gpsd listens (default 127.0.0.1:2947)"),
        Option("simulate", help: "use a simulated receiver walking around Sydney instead of gpsd"),
    ]

    /// gpsd at `--gpsd` (or the default), or the simulator with `--simulate`.
    static func source(_ arguments: ParsedArguments) throws -> any GNSSSource {
        if arguments.flag("simulate") {
            if arguments.string("gpsd") != nil { throw UsageError.conflict("--gpsd and --simulate cannot be used together") }
            return simulatedSource()
        }
        return try gpsdSource(arguments.string("gpsd"))
    }

    /// The simulated receiver: a walk around the simulator's place, fixes at 1 Hz with ~3 m noise.
    static func simulatedSource() -> any GNSSSource {
        var settings = GNSSWalkSettings(motion: .walk, startTime: Clock.wall().rounded(.down))
        settings.horizontalError = 3
        let seed = UInt64(truncatingIfNeeded: Int64(Clock.wall() * 1000))
        return SimulatedGNSSSource(walk: GNSSWalk(settings: settings, seed: seed), clock: { Clock.monotonic() })
    }

    /// gpsd at `text` (HOST, HOST:PORT or [IPv6]:PORT), or at 127.0.0.1:2947 when nil.
    static func gpsdSource(_ text: String?) throws -> any GNSSSource {
        var address = GpsdAddress.default
        if let text {
            do {
                address = try GpsdAddress(parsing: text)
            } catch {
                throw UsageError.invalidValue(option: "gpsd", value: text, expected: "HOST, HOST:PORT or [IPv6]:PORT, e.g. 127.0.0.1:2947")
            }
        }
        return GpsdClient(address: address)
    }

    /// `--min-mode 2d|3d` (default 2d).
    static func minimumMode(_ arguments: ParsedArguments) throws -> FixMode {
        guard let text = try arguments.choice("min-mode", from: ["2d", "3d", "2D", "3D"]) else { return .twoD }
        return FixMode(name: text) ?? .twoD
    }

    /// A one-line description of a state for stderr.
    static func describe(_ state: GNSSState, source: any GNSSSource) -> String {
        switch state {
        case .connecting: return "connecting to \(source.name)"
        case .connected: return "connected to \(source.name)"
        case .waitingForFix: return "connected to \(source.name), waiting for a fix"
        case .disconnected(let error): return error.message
        }
    }
}
