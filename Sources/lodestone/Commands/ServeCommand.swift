import Glibc
import Options
import Platform
import Session

/// `lodestone serve`: headless, long-running; publishes the heading to other software.
enum ServeCommand: Command {
    static let rate = Option("rate", value: "HZ", range: 1...50.0, default: ServeRequest.defaultRate, help: "updates per second")
    static let maxClients = Option("max-clients", value: "N", range: 1...10_000, default: StreamServer.defaultMaximumClients,
                                   help: "clients per TCP server at once; when full, a new client is still served and the one most behind is dropped")

    static let spec = CommandSpec(
        name: "serve",
        abstract: "publish the live heading to other software: NMEA 0183, Signal K, JSON, MQTT",
        options: SensorOptions.options + [CalibrationFileOption.calibration] + HeadingOptions.options
            + LiveGNSSOptions.options + [rate, DurationOption.duration, maxClients] + ServeSinkOptions.options + [RegionOptions.region],
        usageGroups: [LiveGNSSOptions.sources, HeadingOptions.declinationSources, ServeSinkOptions.sinks],
        discussion: """
        Reads the sensor (and GNSS) as 'watch' does and publishes every update to each sink; every
        sink option can be given more than once. A slow or vanished consumer never holds up the
        sensor or the other sinks: it loses updates, and the count is said on standard error.
        Each TCP server takes up to --max-clients clients (\(StreamServer.defaultMaximumClients)); when full, a new client is still
        served and the client with the most unsent bytes (then the oldest) is dropped, said on
        standard error. A sink that fails for good (a JSON file on a full disk) is said, the others
        go on, and serve exits 74 at the end.
          NMEA 0183  $HCHDG (heading, deviation, variation), $HCHDM, $HCHDT (with a declination),
                     $HCROT (degrees per minute), $HCXDR pitch and roll (with an accelerometer);
                     on a serial port (raw 8N1, no flow control) only what the baud rate carries:
                     the newest HDG and HDT first, then ROT, XDR, HDM; the share sent is said
          Signal K   deltas: navigation.headingMagnetic, headingTrue, magneticVariation, rateOfTurn,
                     attitude, and headingCompass/magneticDeviation with a deviation card (radians)
          JSON       one object per line, keys with units as in the CSV log; region events as lines
                     with a "region" key
          MQTT       PREFIX/heading, PREFIX/fix, PREFIX/event, PREFIX/region; retained PREFIX/status
                     (online/offline) and PREFIX/region/NAME (inside/outside); mqtts:// is
                     TLS (--mqtt-ca, --mqtt-cert/--mqtt-key); the password from
                     --mqtt-password-file or LODESTONE_MQTT_PASSWORD, never needed in the command
                     line; user and password in the URL are percent-decoded (%40 is @)
        Examples:
          lodestone serve --nmea tcp://:10110                    # OpenCPN, Signal K, gpsd connect here
          lodestone serve --nmea serial:/dev/ttyUSB0?baud=4800   # a chartplotter or autopilot on RS-422
          lodestone serve --simulate --signalk udp://127.0.0.1:8375 --json -
          lodestone serve --mqtt mqtt://broker.local/boat --rate 5
          lodestone serve --mqtt mqtts://boat1@fleet.example.org/fleet/boat1 --mqtt-ca ca.crt --mqtt-password-file pw
          gpsd -N -n -S 2947 tcp://127.0.0.1:10110               # gpsd reads the true heading (ATT)
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        let heading = try HeadingOptions(arguments)
        if heading.showDeviation {
            throw UsageError.invalidValue(option: HeadingOptions.deviation.name, value: "show",
                                          expected: "off, apply or learn (show the card with 'lodestone watch --deviation show')")
        }
        let sinks = try ServeSinkOptions(arguments)
        var live = LiveRequest(sensors: try SensorOptions(arguments).selection,
                               calibrationPath: arguments.string(CalibrationFileOption.calibration),
                               heading: heading.settings, gnss: try LiveGNSSOptions(arguments).choice, distanceFilter: 5)
        live.regions = try RegionOptions.regions(arguments, environment: context.environment)
        var request = ServeRequest(live: live, rate: try arguments.numberValue(rate),
                                   duration: try DurationOption.seconds(arguments), nmea: sinks.nmea,
                                   signalK: sinks.signalK, json: sinks.json, mqtt: sinks.mqtt, talker: sinks.talker)
        request.mqttOptions = sinks.mqttOptions
        request.maximumClients = try arguments.integerValue(maxClients)
        // A broken pipe on --json - is a closed consumer, not a reason to die.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        let runtime = context.runtime(spec.name)
        try ServeSession.run(request, runtime: runtime)
        return .success
    }
}
