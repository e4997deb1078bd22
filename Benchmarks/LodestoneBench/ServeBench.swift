// Serve benchmarks: from a pipeline estimate to bytes in the kernel for every sink — the part of the
// sample-to-sentence latency that Lodestone spends (the rest is the sensor's conversion time and the
// consumer's own scheduling).
import Glibc
import Heading
import Outputs
import Platform
import Session

func runServeBenchmarks() {
    benchServePublish()
}

/// One update: HeadingEstimate → HeadingReport → NMEA sentences to a TCP client on loopback, a Signal K
/// delta as a UDP datagram, and a JSON line, through the sinks `serve` builds.
private func benchServePublish() {
    guard report.shouldRun("serve.publish") else { return }
    let sockets = LinuxSockets()
    guard let server = try? StreamServer(sockets: sockets, host: "127.0.0.1", port: 0),
          let udp = try? DatagramSender(sockets: sockets, host: "127.0.0.1", port: 9) else {
        print("serve.publish: cannot open loopback sockets; skipped")
        return
    }
    defer { server.close(); udp.close() }
    // A client that reads everything (drained between batches).
    let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(client) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = server.port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    server.service()
    let null = NullOutput()
    let nmea = MessageSink.nmea(.server(server), formatter: NMEAFormatter(), label: "nmea")
    let signalK = MessageSink.signalK(.datagrams(udp), delta: SignalKDelta(), label: "signalk")
    let sinks: [any ServeSink] = [nmea, signalK, JSONLinesSink(output: BoundedOutput(TextOutputChannel(null)), label: "json")]
    let estimate = HeadingEstimate(monotonic: 1, wall: 1_795_000_000, magneticHeading: 123.4, trueHeading: 136.2,
                                   rawMagneticHeading: 123.3, accuracy: 1.1, trueAccuracy: 1.2, declination: 12.8,
                                   declinationSource: .wmm(latitude: -33.87, longitude: 151.21), deviation: 0, fieldStrength: 57, horizontalField: 24,
                                   inclination: -64, tilt: Tilt(roll: 1.5, pitch: -2.5), turnRate: 3.2, flags: [])
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    func drain() {
        while buffer.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
        server.service()
    }
    func publish(_ name: String, to sinks: [any ServeSink], iterations: Int = 50_000, extra: [(String, String)] = []) {
        guard report.shouldRun(name) else { return }
        let ns = measure(iterations: iterations) { n in
            for i in 0..<n {
                var e = estimate
                e.magneticHeading = Double(i % 3600) / 10
                let r = HeadingReport(e)
                for s in sinks { s.publish(r, fix: nil) }
                if i & 15 == 15 { drain() }
            }
        }
        // The share of a core this takes at serve's top rate, 50 updates a second.
        report.add(BenchResult(name: name, nsPerOp: ns, iterations: iterations,
                               extra: extra + [("cpu_percent_at_50hz", fixed(ns * 50 / 1e7, 4))]))
    }
    publish("serve.publish", to: sinks, extra: [("goal_ns", "5000000")])
    // The cost of each sink alone: NMEA to a TCP client, Signal K as UDP datagrams, JSON lines to a
    // file (a real write per update), MQTT to a local broker when mosquitto is installed.
    publish("serve.publish.nmea_tcp", to: [nmea])
    publish("serve.publish.signalk_udp", to: [signalK])
    let jsonPath = "/tmp/lodestone-bench-publish-\(getpid()).jsonl"
    defer { unlink(jsonPath) }
    if let file = try? JSONLinesSink(path: jsonPath, label: "json") {
        publish("serve.publish.json_file", to: [file], iterations: 20_000)
        file.close()
    }
    if report.shouldRun("serve.publish.mqtt") {
        if let broker = LocalBroker() {
            let runtime = Runtime(time: SystemTime(), events: SleepingEventSource(), output: null, diagnostics: null,
                                  environment: EnvironmentValues([:]), command: "serve")
            if let mqtt = try? MQTTSink(MQTTEndpoint(host: "127.0.0.1", port: broker.port), runtime: runtime) {
                // Let the client connect before timing (its first publishes would only queue).
                for _ in 0..<100 { mqtt.service(now: Clock.monotonic()); Clock.sleep(seconds: 0.01) }
                publish("serve.publish.mqtt", to: [mqtt], iterations: 20_000)
                mqtt.close()
            } else {
                print("serve.publish.mqtt: cannot connect to the local broker; skipped")
            }
            broker.stop()
        } else {
            print("serve.publish.mqtt: no mosquitto (apt-get install mosquitto); skipped")
        }
    }
    if server.dropped > 0 { print("serve.publish: \(server.dropped) updates dropped by the loopback client") }
}

/// Accepts every write and forgets it.
private final class NullOutput: TextOutput {
    func write(_ text: String) -> Bool { true }
}

/// Waiting sleeps on the real clock; no signal ever arrives.
final class SleepingEventSource: ControlEventSource {
    func wait(seconds: Double) -> ControlEvents {
        if seconds > 0 { Clock.sleep(seconds: seconds) }
        return []
    }
}
