import Foundation
import Glibc
import Testing
import TestSupport

/// `lodestone serve --mqtt mqtts://…` against a real mosquitto with a TLS listener and a password
/// file: certificates made by openssl here, the password from a file or the environment, a
/// percent-encoded password in the URL, a client certificate; a wrong CA, a wrong password and a
/// broker that is not there each said in their own words.
@Suite("serve publishes to a TLS broker", .serialized,
       .enabled(if: tlsToolsPresent, Comment(rawValue: tlsToolsMissingMessage)))
struct ServeTLSTests {
    static let common = ["serve", "--simulate", "--no-gnss", "--location", "-33.87,151.21", "--rate", "10"]

    /// A private file holding `text`.
    static func secretFile(_ folder: URL, _ text: String) throws -> String {
        let url = folder.appendingPathComponent("pw-\(UUID().uuidString.prefix(6))")
        try text.write(to: url, atomically: true, encoding: .utf8)
        chmod(url.path, 0o600)
        return url.path
    }

    @Test("mqtts with --mqtt-ca and --mqtt-password-file publishes headings and the retained status")
    func publishesOverTLS() throws {
        let certificates = try TestCertificates()
        let port = freeTCPPort()
        let broker = try TLSMosquittoBroker(port: port, certificates: certificates, users: ["fleet": "harbour lights", "shore": "s"])
        #expect(broker.waitUntilListening(), "mosquitto did not start: \(broker.log)")
        let password = try Self.secretFile(certificates.folder, "harbour lights\n")
        let serve = try BackgroundProcess(Self.common + ["--duration", "20", "--mqtt", "mqtts://fleet@127.0.0.1:\(port)/boat1",
                                                         "--mqtt-ca", certificates.caCertificate, "--mqtt-password-file", password])
        let subscriber = try tlsSubscriber(port: port, topic: "boat1/#", certificates: certificates, user: "shore", password: "s")
        #expect(pollUntil(20) { subscriber.stdout.components(separatedBy: "boat1/heading {").count > 5 },
                "serve: \(serve.stderr)\nbroker: \(broker.log)\nsubscriber: \(subscriber.stderr)")
        #expect(serve.stderr.contains("connected to the MQTT broker (mqtts://fleet:***@127.0.0.1:\(port)/boat1)"), "\(serve.stderr)")
        #expect(!serve.stderr.contains("harbour"), "the password was shown: \(serve.stderr)")
        subscriber.stop(timeout: 0, signal: SIGKILL)
        #expect(serve.stop(timeout: 10) == 0, "\(serve.stderr)")
        // The retained status says offline after a clean stop, to a subscriber that comes later.
        let status = try tlsSubscriber(port: port, topic: "boat1/status", certificates: certificates, user: "shore", password: "s",
                                       extra: ["-C", "1", "-W", "10"])
        _ = status.stop(timeout: 12, signal: 0)
        #expect(status.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "boat1/status offline", "\(status.stdout)")
    }

    @Test("the password from LODESTONE_MQTT_PASSWORD, a percent-encoded one in the URL, and a client certificate")
    func otherWaysToLogIn() throws {
        let certificates = try TestCertificates()
        let port = freeTCPPort()
        let broker = try TLSMosquittoBroker(port: port, certificates: certificates,
                                            users: ["boat2": "from the environment", "b@at3": "p@ss/w:rd%"],
                                            requireClientCertificate: true)
        #expect(broker.waitUntilListening(), "mosquitto did not start: \(broker.log)")
        let client = ["--mqtt-ca", certificates.caCertificate, "--mqtt-cert", certificates.clientCertificate,
                      "--mqtt-key", certificates.clientKey]
        let fromEnvironment = try BackgroundProcess(executable: lodestoneBinaryPath,
                                                    Self.common + ["--duration", "20", "--mqtt", "mqtts://boat2@127.0.0.1:\(port)/boat2"] + client,
                                                    environment: ["LODESTONE_MQTT_PASSWORD": "from the environment"])
        let encoded = try BackgroundProcess(Self.common + ["--duration", "20", "--mqtt", "mqtts://b%40at3:p%40ss%2Fw%3Ard%25@127.0.0.1:\(port)/boat3"] + client)
        let subscriber = try BackgroundProcess(executable: mosquittoSubPath ?? "mosquitto_sub",
                                               ["-h", "127.0.0.1", "-p", String(port), "--cafile", certificates.caCertificate,
                                                "--cert", certificates.clientCertificate, "--key", certificates.clientKey,
                                                "-u", "boat2", "-P", "from the environment", "-t", "+/heading", "-v"])
        #expect(pollUntil(20) { subscriber.stdout.contains("boat2/heading {") && subscriber.stdout.contains("boat3/heading {") },
                "env: \(fromEnvironment.stderr)\nencoded: \(encoded.stderr)\nbroker: \(broker.log)")
        #expect(encoded.stderr.contains("visible") || encoded.stderr.contains("'ps'"), "no warning about the password in argv: \(encoded.stderr)")
        #expect(!encoded.stderr.contains("p@ss"), "\(encoded.stderr)")
        subscriber.stop(timeout: 0, signal: SIGKILL)
        #expect(fromEnvironment.stop(timeout: 10) == 0)
        #expect(encoded.stop(timeout: 10) == 0)

        // Without the client certificate this broker refuses the handshake: a TLS failure, said as one.
        let noCertificate = try BackgroundProcess(executable: lodestoneBinaryPath,
                                                  Self.common + ["--duration", "8", "--mqtt", "mqtts://boat2@127.0.0.1:\(port)/boat2",
                                                                 "--mqtt-ca", certificates.caCertificate],
                                                  environment: ["LODESTONE_MQTT_PASSWORD": "from the environment"])
        #expect(pollUntil(15) { noCertificate.stderr.contains("TLS") }, "\(noCertificate.stderr)")
        noCertificate.stop(timeout: 10)
        #expect(!noCertificate.stderr.contains("cannot reach"), "\(noCertificate.stderr)")
    }

    @Test("a wrong CA, a wrong password and an absent broker each get their own message")
    func failuresAreToldApart() throws {
        let certificates = try TestCertificates()
        let port = freeTCPPort()
        let broker = try TLSMosquittoBroker(port: port, certificates: certificates, users: ["fleet": "right"])
        #expect(broker.waitUntilListening(), "mosquitto did not start: \(broker.log)")
        let right = try Self.secretFile(certificates.folder, "right")
        let wrong = try Self.secretFile(certificates.folder, "wrong\n")
        let url = "mqtts://fleet@127.0.0.1:\(port)/boat1"
        let wrongCA = try BackgroundProcess(Self.common + ["--duration", "8", "--mqtt", url, "--mqtt-ca", certificates.otherCA,
                                                           "--mqtt-password-file", right])
        let wrongPassword = try BackgroundProcess(Self.common + ["--duration", "8", "--mqtt", url, "--mqtt-ca", certificates.caCertificate,
                                                                 "--mqtt-password-file", wrong])
        let absent = RefusingPort()
        let nobody = try BackgroundProcess(Self.common + ["--duration", "8", "--mqtt", "mqtts://fleet@127.0.0.1:\(absent.port)/boat1",
                                                          "--mqtt-ca", certificates.caCertificate, "--mqtt-password-file", right])
        #expect(pollUntil(15) { wrongCA.stderr.contains("certificate does not verify") }, "\(wrongCA.stderr)")
        #expect(pollUntil(15) { wrongPassword.stderr.contains("refused the login") }, "\(wrongPassword.stderr)")
        #expect(pollUntil(15) { nobody.stderr.contains("cannot reach the MQTT broker") }, "\(nobody.stderr)")
        // Each ends 69 at its --duration: its broker was never reached (naming why).
        for p in [wrongCA, wrongPassword, nobody] { #expect(p.stop(timeout: 20, signal: 0) == 69, "\(p.stderr)") }
        #expect(wrongPassword.stderr.contains("its login was turned down for the whole run"), "\(wrongPassword.stderr)")
        #expect(wrongCA.stderr.contains("the TLS handshake never succeeded"), "\(wrongCA.stderr)")
        #expect(nobody.stderr.contains("it could not be reached for the whole run"), "\(nobody.stderr)")
        #expect(!wrongCA.stderr.contains("cannot reach") && !wrongCA.stderr.contains("refused the login"), "\(wrongCA.stderr)")
        #expect(!wrongPassword.stderr.contains("cannot reach") && !wrongPassword.stderr.contains("certificate"), "\(wrongPassword.stderr)")
        #expect(!nobody.stderr.contains("certificate") && !nobody.stderr.contains("refused the login"), "\(nobody.stderr)")
        // Said once, not at every retry.
        #expect(wrongPassword.stderr.components(separatedBy: "refused the login").count == 2, "\(wrongPassword.stderr)")
        #expect(wrongCA.stderr.components(separatedBy: "does not verify").count == 2, "\(wrongCA.stderr)")
    }

    /// TLS files for a plain mqtt:// URL: a usage error from the option parser, in process (the file
    /// is never read, so it need not be a certificate). (Files that are not
    /// there or not PEM, and two passwords, are refused by the session: ServeTLSFilesInProcessTests.)
    @Test("TLS files with a plain mqtt:// URL are a usage error naming mqtts://")
    func tlsFilesNeedMQTTS() throws {
        let harness = try SessionHarness("tls-usage")
        let ca = try harness.file("ca.pem", "-----BEGIN CERTIFICATE-----\n")
        let plain = try harness.lodestone(Self.common + ["--mqtt", "mqtt://127.0.0.1/boat1", "--mqtt-ca", ca])
        #expect(plain.status == 64 && plain.stderr.contains("mqtts://"), "\(plain.stderr)")
    }
}
