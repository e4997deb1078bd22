import Glibc
@testable import Session
import Testing
import TestSupport

/// `serve --mqtt mqtt://…` to a port whose peer accepts the connection and drops it before any
/// CONNACK (a TLS listener given plain MQTT, another service): said once, with what to do, instead
/// of nothing for 15 s and then "cannot reach" a broker it reached.
@Suite("MQTT: a peer that drops the login")
struct MQTTPeerTests {
    /// Accepts the sink's connection and waits (up to 0.5 s) for its CONNECT.
    static func acceptLogin(_ broker: MQTTDirectWriteTests.ScriptedBroker) -> Int32 {
        let client = accept(broker.listener, nil, nil)
        #expect(client >= 0)
        var received: [UInt8] = []
        for _ in 0..<500 where received.isEmpty { MQTTDirectWriteTests.drain(client, into: &received); usleep(1000) }
        return client
    }

    @Test("plain MQTT to a peer that reads the CONNECT and closes (a TLS listener): said as such")
    func peerDropsTheLogin() throws {
        let broker = MQTTDirectWriteTests.ScriptedBroker()
        let h = try SessionHarness("mqtt-dropped-login")
        let sink = try MQTTSink(MQTTEndpoint(host: "127.0.0.1", port: broker.port, prefix: "t"), runtime: h.runtime("serve"))
        defer { sink.close() }
        var now = 0.0
        // Each connection: the CONNECT is read, a TLS alert written back (what a TLS listener
        // answers to bytes that are not a handshake), and the connection closed.
        for _ in 0..<3 {
            let client = Self.acceptLogin(broker)
            let alert: [UInt8] = [0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46]
            _ = send(client, alert, alert.count, Int32(MSG_NOSIGNAL))
            close(client)
            for _ in 0..<20 { now += MQTTSink.readInterval; sink.service(now: now); usleep(2000) }
        }
        #expect(!sink.isConnected)
        let said = h.diagnostics.text
        #expect(said.contains("closed it before answering the MQTT login"), "\(said)")
        #expect(said.contains("mqtts://"), "\(said)")
        #expect(!said.contains("cannot reach the MQTT broker"), "\(said)")
        #expect(said.components(separatedBy: "closed it before answering").count == 2, "said once: \(said)")
        #expect(sink.unreached?.contains("closed every connection before answering the login") == true, "\(sink.unreached ?? "nil")")
    }

    @Test("serve whose only broker is never reached: the JSON sink goes on, and the run ends 69 naming the broker")
    func neverReachedEndsUnavailable() throws {
        let refusing = RefusingPort()
        let h = try SessionHarness("serve-mqtt-unreached")
        var request = ServeSessionTests.request(json: ["-"], rate: 10, duration: 8)
        request.mqtt = [MQTTEndpoint(host: "127.0.0.1", port: refusing.port, prefix: "boat")]
        do {
            _ = try ServeSession.run(request, runtime: h.runtime("serve"), sockets: FakeSockets(clock: h.clock))
            Issue.record("serve ended 0 though nothing reached the broker: \(h.diagnostics.text)")
        } catch let error as ServeError {
            #expect(error.exitCode == .unavailable)
            #expect(error.message.contains("nothing was published to the MQTT broker at mqtt://127.0.0.1:\(refusing.port)/boat"),
                    "\(error.message)")
            #expect(error.message.contains("could not be reached"), "\(error.message)")
        }
        #expect(h.diagnostics.text.contains("cannot reach the MQTT broker"), "\(h.diagnostics.text)")
        #expect(h.output.lines.count > 60, "the JSON sink kept publishing: \(h.output.lines.count) lines")
    }

    @Test("a broker reached once, then gone, is not 'never reached': no 69 for a broker that came and went")
    func reachedOnceIsNotUnreached() throws {
        let broker = MQTTDirectWriteTests.ScriptedBroker()
        let h = try SessionHarness("mqtt-reached-once")
        let sink = try MQTTSink(MQTTEndpoint(host: "127.0.0.1", port: broker.port, prefix: "t"), runtime: h.runtime("serve"))
        defer { sink.close() }
        #expect(sink.unreached == nil, "nothing said yet")
        let client = Self.acceptLogin(broker)
        let connack: [UInt8] = [0x20, 0x02, 0x00, 0x00]
        _ = send(client, connack, connack.count, Int32(MSG_NOSIGNAL))
        var now = 0.0
        for _ in 0..<50 where !sink.isConnected { now += MQTTSink.readInterval; sink.service(now: now); usleep(2000) }
        #expect(sink.isConnected)
        close(client)
        for _ in 0..<20 { now += MQTTSink.readInterval; sink.service(now: now); usleep(2000) }
        #expect(sink.unreached == nil)
    }
}
