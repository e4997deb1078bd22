import Options
import Outputs
import Session

/// Where `serve` publishes: each sink a URL option, repeatable, and the NMEA talker.
struct ServeSinkOptions: OptionGroup {
    static let nmea = Option("nmea", value: "URL", repeatable: true,
                             help: "NMEA 0183 heading sentences: tcp://[HOST]:PORT (a server; PORT \(ServeEndpoint.nmeaPort) when left out), "
                                + "udp://HOST:PORT, or serial:/dev/PATH?baud=N (N \(ServeEndpoint.serialBaud) when left out; "
                                + ServeEndpoint.serialBauds.dropFirst().map(String.init).joined(separator: ", ") + ")")
    static let signalK = Option("signalk", value: "URL", repeatable: true,
                                help: "Signal K deltas: udp://HOST:PORT or tcp://[HOST]:PORT (a server; PORT \(ServeEndpoint.signalKPort) when left out)")
    static let json = Option("json", value: "FILE", repeatable: true, help: "one JSON object per update: - for standard output, or a file appended to")
    static let mqtt = Option("mqtt", value: "URL", repeatable: true,
                             help: "MQTT: mqtt://[USER@]HOST[:PORT]/PREFIX (PORT \(MQTTEndpoint.plainPort) when left out), or mqtts://… over TLS "
                                + "(\(MQTTEndpoint.tlsPort)); topics PREFIX/heading, fix, event, region, status")
    static let mqttPasswordFile = Option("mqtt-password-file", value: "FILE",
                                         help: "the MQTT password: the file's first line (else \(MQTTOptions.passwordVariable) from the environment)")
    static let mqttCA = Option("mqtt-ca", value: "FILE", absent: "the system's CAs",
                               help: "mqtts://: the CA certificate (PEM) that signed the broker's")
    static let mqttCert = Option("mqtt-cert", value: "FILE", help: "mqtts://: this client's certificate (PEM), for a broker that asks for one")
    static let mqttKey = Option("mqtt-key", value: "FILE", help: "mqtts://: the private key (PEM, unencrypted) of --mqtt-cert")
    static let talker = Option("talker", value: "ID", default: NMEATalker.compass.text,
                               help: "NMEA talker ID, two letters or digits (\(NMEATalker.compass.text): magnetic compass)")

    static var options: [Option] { [nmea, signalK, json, mqtt, mqttPasswordFile, mqttCA, mqttCert, mqttKey, talker] }
    /// What to serve: at least one sink, `(--nmea URL | --signalk URL | --json FILE | --mqtt URL)...`.
    static let sinks = OptionAlternatives.anyOf([nmea, signalK, json, mqtt], example: "lodestone serve --simulate --nmea tcp://:10110")

    var nmea: [ServeEndpoint] = []
    var signalK: [ServeEndpoint] = []
    var json: [String]
    var mqtt: [MQTTEndpoint] = []
    var talker = NMEATalker.compass
    var mqttOptions = MQTTOptions()

    init(_ arguments: ParsedArguments) throws(UsageError) {
        for text in arguments.strings(Self.nmea) { nmea.append(try Self.endpoint(text, Self.nmea, defaultPort: ServeEndpoint.nmeaPort)) }
        for text in arguments.strings(Self.signalK) {
            let e = try Self.endpoint(text, Self.signalK, defaultPort: ServeEndpoint.signalKPort)
            if case .serial = e {
                throw .invalidValue(option: Self.signalK.name, value: text,
                                    expected: "udp://HOST:PORT or tcp://[HOST]:PORT (Signal K deltas do not go to a serial port; --nmea serial:PATH does)")
            }
            signalK.append(e)
        }
        var serialPaths: Set<String> = []
        for case .serial(let path, _) in nmea {
            guard serialPaths.insert(path).inserted else { throw .conflict("--nmea \(path) was given twice: one writer to a serial port") }
        }
        json = arguments.strings(Self.json)
        if json.contains(where: \.isEmpty) {
            throw .invalidValue(option: Self.json.name, value: "", expected: "- (standard output) or a file name")
        }
        if json.filter({ $0 == "-" }).count > 1 { throw .conflict("--json - was given more than once") }
        for text in arguments.strings(Self.mqtt) {
            do {
                mqtt.append(try MQTTEndpoint.parse(text))
            } catch {
                throw .rejectedValue(option: Self.mqtt.name, value: MQTTEndpoint.hidingPassword(text), reason: error.message)
            }
        }
        mqttOptions = MQTTOptions(passwordFile: arguments.string(Self.mqttPasswordFile), caFile: arguments.string(Self.mqttCA),
                                  certificateFile: arguments.string(Self.mqttCert), keyFile: arguments.string(Self.mqttKey))
        if mqttOptions.passwordFile != nil && mqtt.isEmpty { throw .conflict("--mqtt-password-file needs --mqtt") }
        if mqttOptions.hasTLSFiles && !mqtt.contains(where: { $0.tls != nil }) {
            throw .conflict("--mqtt-ca, --mqtt-cert and --mqtt-key are for TLS: give an mqtts:// URL, e.g. --mqtt mqtts://boat1@broker.example/fleet/boat1")
        }
        if (mqttOptions.certificateFile == nil) != (mqttOptions.keyFile == nil) {
            throw .conflict("a client certificate needs its key: give --mqtt-cert and --mqtt-key together")
        }
        if arguments.isPresent(Self.talker) {
            let text = arguments.text(Self.talker)
            do {
                talker = try NMEATalker(text.uppercased())
            } catch {
                throw .invalidValue(option: Self.talker.name, value: text, expected: "two letters or digits, e.g. HC, TI or AP")
            }
        }
        try arguments.require(Self.sinks)
        var ports: Set<UInt16> = []
        for case .tcp(_, let port) in nmea + signalK {
            guard ports.insert(port).inserted else { throw .conflict("two TCP servers on port \(port): give each its own port") }
        }
    }

    static func endpoint(_ text: String, _ option: Option, defaultPort: UInt16) throws(UsageError) -> ServeEndpoint {
        do {
            return try ServeEndpoint.parse(text, defaultPort: defaultPort)
        } catch {
            throw .rejectedValue(option: option.name, value: text, reason: error.message)
        }
    }
}
