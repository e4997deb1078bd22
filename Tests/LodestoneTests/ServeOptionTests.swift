import Foundation
import JSON
import Options
import Outputs
import Session
import Testing
import TestSupport
@testable import lodestone

/// `serve`'s sink options and their usage errors, in process, and a short real run to a JSON file.
@Suite("serve options")
struct ServeOptionTests {
    func sinks(_ arguments: [String]) throws -> ServeSinkOptions {
        try ServeSinkOptions(try parseArguments(arguments, spec: ServeCommand.spec))
    }

    func usageError(_ arguments: [String]) -> UsageError? {
        do {
            _ = try sinks(arguments)
            return nil
        } catch let error as UsageError {
            return error
        } catch {
            return nil
        }
    }

    @Test("sink URLs, repeated, with default ports, credentials and a talker")
    func parsesSinks() throws {
        let s = try sinks(["--nmea", "tcp://:2000", "--nmea", "udp://192.168.1.255:10110", "--nmea", "tcp://127.0.0.1",
                           "--signalk", "udp://127.0.0.1:8375", "--json", "-", "--json", "/tmp/x.jsonl",
                           "--mqtt", "mqtt://boat:s3cret@broker.local:1884/boat/compass/", "--talker", "ti"])
        #expect(s.nmea == [.tcp(host: "", port: 2000), .udp(host: "192.168.1.255", port: 10110), .tcp(host: "127.0.0.1", port: 10110)])
        #expect(s.signalK == [.udp(host: "127.0.0.1", port: 8375)])
        #expect(s.json == ["-", "/tmp/x.jsonl"])
        #expect(s.mqtt == [MQTTEndpoint(host: "broker.local", port: 1884, prefix: "boat/compass", user: "boat", password: "s3cret")])
        #expect(s.mqtt[0].description == "mqtt://boat:***@broker.local:1884/boat/compass", "no password in messages")
        #expect(s.talker.text == "TI")
    }

    @Test("bad sinks are usage errors that say what was expected")
    func refusesBadSinks() {
        let nothing = usageError([])?.message ?? ""
        #expect(nothing.contains("at least one of --nmea URL or --signalk URL or --json FILE or --mqtt URL")
                && nothing.contains("e.g. lodestone serve --simulate --nmea tcp://:10110"), "\(nothing)")
        #expect(usageError(["--nmea", "http://x:1"])?.message.contains("tcp://[HOST]:PORT or udp://HOST:PORT") == true)
        #expect(usageError(["--nmea", "udp://:10110"])?.message.contains("names no host") == true)
        #expect(usageError(["--nmea", "tcp://:70000"])?.message.contains("no valid port") == true)
        #expect(usageError(["--signalk", "tcp://:9", "--nmea", "tcp://:9"])?.message.contains("two TCP servers on port 9") == true)
        #expect(usageError(["--mqtt", "mqtt://broker/a/#"])?.message.contains("without wildcards") == true)
        #expect(usageError(["--mqtt", "broker:1883"])?.message.contains("mqtt://") == true)
        #expect(usageError(["--json", "-", "--json", "-"]) != nil)
        #expect(usageError(["--nmea", "tcp://:1", "--talker", "HCX"])?.message.contains("two letters or digits") == true)
    }
}
