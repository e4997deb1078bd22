import Options
import Outputs
import Session

/// Where `serve` publishes: each sink a URL option, repeatable, and the NMEA talker.
struct ServeSinkOptions: OptionGroup {
    static let nmea = Option("nmea", value: "URL", repeatable: true,
                             help: "NMEA 0183 heading sentences: tcp://[HOST]:PORT (a server, default port 10110) or udp://HOST:PORT")
    static let signalK = Option("signalk", value: "URL", repeatable: true,
                                help: "Signal K deltas: udp://HOST:PORT or tcp://[HOST]:PORT (a server, default port 8375)")
    static let json = Option("json", value: "FILE", repeatable: true, help: "one JSON object per update: - for standard output, or a file appended to")
    static let mqtt = Option("mqtt", value: "URL", repeatable: true,
                             help: "MQTT: mqtt://[USER:PASSWORD@]HOST[:PORT]/PREFIX (topics PREFIX/heading, fix, event, region, status)")
    static let talker = Option("talker", value: "ID", help: "NMEA talker ID, two letters or digits (default HC, magnetic compass)")

    static var options: [Option] { [nmea, signalK, json, mqtt, talker] }

    var nmea: [ServeEndpoint] = []
    var signalK: [ServeEndpoint] = []
    var json: [String]
    var mqtt: [MQTTEndpoint] = []
    var talker = NMEATalker.compass

    init(_ arguments: ParsedArguments) throws(UsageError) {
        for text in arguments.strings(Self.nmea) { nmea.append(try Self.endpoint(text, Self.nmea, defaultPort: 10110)) }
        for text in arguments.strings(Self.signalK) { signalK.append(try Self.endpoint(text, Self.signalK, defaultPort: 8375)) }
        json = arguments.strings(Self.json)
        if json.contains(where: \.isEmpty) {
            throw .invalidValue(option: Self.json.name, value: "", expected: "- (standard output) or a file name")
        }
        if json.filter({ $0 == "-" }).count > 1 { throw .conflict("--json - was given more than once") }
        for text in arguments.strings(Self.mqtt) {
            do {
                mqtt.append(try MQTTEndpoint.parse(text))
            } catch {
                throw .invalidValue(option: Self.mqtt.name, value: text, expected: error.message)
            }
        }
        if let text = arguments.string(Self.talker) {
            do {
                talker = try NMEATalker(text.uppercased())
            } catch {
                throw .invalidValue(option: Self.talker.name, value: text, expected: "two letters or digits, e.g. HC, TI or AP")
            }
        }
        if nmea.isEmpty && signalK.isEmpty && json.isEmpty && mqtt.isEmpty {
            throw .conflict("nothing to serve: give at least one of --nmea, --signalk, --json, --mqtt\n"
                + "e.g. lodestone serve --simulate --nmea tcp://:10110")
        }
        var ports: Set<UInt16> = []
        for case .tcp(_, let port) in nmea + signalK {
            guard ports.insert(port).inserted else { throw .conflict("two TCP servers on port \(port): give each its own port") }
        }
    }

    static func endpoint(_ text: String, _ option: Option, defaultPort: UInt16) throws(UsageError) -> ServeEndpoint {
        do {
            return try ServeEndpoint.parse(text, defaultPort: defaultPort)
        } catch {
            throw .invalidValue(option: option.name, value: text, expected: error.message)
        }
    }
}
