import Glibc
@testable import Session
import Testing
import TestSupport

/// `serve --mqtt mqtt://…` to a port whose peer accepts the connection and drops it before any
/// CONNACK (a TLS listener given plain MQTT, another service): said once, with what to do, instead
/// of nothing for 15 s and then "cannot reach" a broker it reached.
@Suite("MQTT: a peer that drops the login")
struct MQTTPeerTests {
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
            let client = accept(broker.listener, nil, nil)
            #expect(client >= 0)
            var received: [UInt8] = []
            for _ in 0..<500 where received.isEmpty { MQTTDirectWriteTests.drain(client, into: &received); usleep(1000) }
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
    }
}
