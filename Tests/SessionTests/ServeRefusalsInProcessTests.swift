import Foundation
import Glibc
import Platform
@testable import Session
import Testing
import TestSupport

/// What `serve` cannot use is refused when it starts, in process, with its own exit status and
/// before anything is served: TLS and password files for mqtts:// (no broker, openssl or mosquitto
/// needed), and a path that is not a serial port. (Moved from the spawned-binary ServeTLSTests and
/// ServeSerialTests, which keep the usage errors of the option parser.)
@Suite("serve refuses what it cannot use, at start, in process")
struct ServeRefusalsInProcessTests {
    static let live = LiveRequest(sensors: SensorSelection(simulate: true),
                                  heading: HeadingSettings(declinationSource: .location(latitude: -33.87, longitude: 151.21)),
                                  gnss: .none)

    func serve(_ h: SessionHarness, _ request: ServeRequest) -> CommandRun {
        h.run("serve") { runtime in
            _ = try ServeSession.run(request, runtime: runtime)
            return .success
        }
    }

    /// `serve --simulate --no-gnss --location -33.87,151.21 --rate 10 --mqtt URL` with `options`.
    func serve(_ h: SessionHarness, _ url: String, _ options: MQTTOptions) throws -> CommandRun {
        var request = ServeRequest(live: Self.live, rate: 10, mqtt: [try MQTTEndpoint.parse(url)])
        request.mqttOptions = options
        return serve(h, request)
    }

    /// A private file holding `text`.
    func secretFile(_ h: SessionHarness, _ name: String, _ text: String) throws -> String {
        let path = try h.file(name, text)
        chmod(path, 0o600)
        return path
    }

    @Test("a CA that is not there: 74 naming it; not PEM: 65; an empty password file: 65; two passwords: 64")
    func badFilesAtStart() throws {
        let h = try SessionHarness("serve-tls-files")
        let url = "mqtts://fleet@127.0.0.1:8883/boat1"
        let missing = try serve(h, url, MQTTOptions(caFile: "/nonexistent/ca.crt"))
        #expect(missing.status == .ioError && missing.stderr.contains("/nonexistent/ca.crt"), "\(missing.stderr)")
        let notPEM = try secretFile(h, "not-pem", "not a certificate")
        let bad = try serve(h, url, MQTTOptions(caFile: notPEM))
        #expect(bad.status == .dataError && bad.stderr.contains("not a PEM file"), "\(bad.stderr)")
        let empty = try secretFile(h, "empty", "\n")
        let blank = try serve(h, url, MQTTOptions(passwordFile: empty))
        #expect(blank.status == .dataError && blank.stderr.contains("is empty"), "\(blank.stderr)")
        let twice = try serve(h, "mqtts://fleet:x@127.0.0.1/boat1", MQTTOptions(passwordFile: empty))
        #expect(twice.status == .usage, "\(twice.stderr)")
        for run in [missing, bad, blank, twice] {
            #expect(run.stdout.isEmpty && !run.stderr.contains("updates published"), "refused before serving: \(run.stderr)")
        }
        #expect(h.clock.now() < 0.5, "refused at start: \(h.clock.now()) s went by")
    }

    @Test("--nmea serial:/dev/null: not a serial port, exit 64, before anything is served")
    func notASerialPort() throws {
        let h = try SessionHarness("serve-not-serial")
        let r = serve(h, ServeRequest(live: Self.live, rate: 10, duration: 2, nmea: [.serial(path: "/dev/null", baud: 4800)]))
        #expect(r.status == .usage && r.stderr.contains("is not a serial port"), "\(r.stderr)")
        #expect(h.clock.now() < 0.5, "refused at start: \(h.clock.now()) s went by")
    }
}
