import Foundation
@testable import Session
import Testing
import TestSupport

@Suite("MQTT URLs and credentials")
struct MQTTEndpointTests {
    @Test("mqtts:// means TLS on 8883; user and password are percent-decoded; the password never shows")
    func parsing() throws {
        let e = try MQTTEndpoint.parse("mqtts://b%40at1:p%40ss%2Fw%3Ard%25@fleet.example.org/fleet/boat1")
        #expect(e.host == "fleet.example.org" && e.port == 8883 && e.prefix == "fleet/boat1")
        #expect(e.user == "b@at1" && e.password == "p@ss/w:rd%")
        #expect(e.tls == MQTTTLS())
        #expect(e.description == "mqtts://b@at1:***@fleet.example.org:8883/fleet/boat1")
        let plain = try MQTTEndpoint.parse("mqtt://boat@127.0.0.1/boat")
        #expect(plain.port == 1883 && plain.tls == nil && plain.password == nil)
        #expect(try MQTTEndpoint.parse("MQTTS://h:9999/x").port == 9999)
        for bad in ["mqtt://u:p%4@h/x", "mqtt://u:p%zz@h/x", "mqtt://u%00:p@h/x", "mqtt://:p@h/x", "mqtts://u:p@/x"] {
            do {
                _ = try MQTTEndpoint.parse(bad)
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(!error.message.contains("p%4@") && !error.message.contains(":p@"), "the password shows: \(error.message)")
            }
        }
    }

    @Test("the password from a file (first line), else the URL (with a warning), else LODESTONE_MQTT_PASSWORD")
    func passwordSources() throws {
        let h = try SessionHarness("mqtt-credentials")
        let folder = try makeTemporaryFolder("lodestone-mqtt-pw")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pw").path
        try "first line\r\nsecond\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let url = try MQTTEndpoint.parse("mqtts://boat1@127.0.0.1/boat1")
        let fromFile = try MQTTOptions(passwordFile: file).resolve(url, runtime: h.runtime("serve"))
        #expect(fromFile.password == "first line")
        #expect(!h.diagnostics.text.contains("readable by every user"))
        chmod(file, 0o644)
        _ = try MQTTOptions(passwordFile: file).resolve(url, runtime: h.runtime("serve"))
        #expect(h.diagnostics.text.contains("readable by every user"), "\(h.diagnostics.text)")
        let fromEnvironment = try MQTTOptions().resolve(url, runtime: h.runtime("serve", environment: ["LODESTONE_MQTT_PASSWORD": "env"]))
        #expect(fromEnvironment.password == "env")
        let inURL = try MQTTOptions().resolve(try MQTTEndpoint.parse("mqtt://u:secret@h/x"), runtime: h.runtime("serve"))
        #expect(inURL.password == "secret" && h.diagnostics.text.contains("'ps' shows it"))
        #expect(throws: InvalidRequest.self) {
            _ = try MQTTOptions(passwordFile: file).resolve(try MQTTEndpoint.parse("mqtt://u:secret@h/x"), runtime: h.runtime("serve"))
        }
        #expect(throws: InvalidRequest.self) {
            _ = try MQTTOptions(passwordFile: file).resolve(try MQTTEndpoint.parse("mqtt://h/x"), runtime: h.runtime("serve"))
        }
        // TLS files go on an mqtts:// endpoint.
        let ca = folder.appendingPathComponent("ca.crt").path
        try "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".write(toFile: ca, atomically: true, encoding: .utf8)
        let tls = try MQTTOptions(caFile: ca).resolve(url, runtime: h.runtime("serve"))
        #expect(tls.tls == MQTTTLS(caFile: ca))
    }

    @Test("a connection the broker ended in the TLS handshake is not an unreachable broker; a refused or unroutable one is")
    func failuresBelowAndInTLS() {
        // libmosquitto reports an OpenSSL failure as EPROTO, sometimes with none of OpenSSL's words
        // in its log: that is a handshake the broker refused (a client certificate it wants), said
        // as a TLS failure, never as "cannot reach".
        for e in [EPROTO, ECONNRESET, EPIPE] {
            #expect(MQTTSink.isReset(e) && !MQTTSink.isNetworkErrno(e), "errno \(e)")
        }
        for e in [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT] {
            #expect(MQTTSink.isNetworkErrno(e) && !MQTTSink.isReset(e), "errno \(e)")
        }
    }
}
