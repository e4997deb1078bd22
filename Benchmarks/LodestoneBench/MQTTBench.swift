// MQTT over TLS: what TLS adds to publishing a heading, in CPU time, against a real mosquitto on
// loopback with a TLS listener (certificates made by openssl here). Goal: at 50 updates a second
// TLS costs at most 0.5 % of one core more than plain MQTT. Skipped when mosquitto or openssl is
// missing (make bench-deps installs them).
import Glibc
import Outputs
import Platform
import Session

func runMQTTBenchmarks() {
    guard report.shouldRun("mqtt.tls") else { return }
    guard let folder = mqttBenchFolder() else { print("mqtt.tls: cannot make a temporary folder; skipped"); return }
    defer { _ = runShell("rm -rf '\(folder)'") }
    let certificates = """
        cd '\(folder)' && openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ca.key && \
        openssl req -x509 -new -key ca.key -sha256 -days 2 -subj /CN=bench-ca -addext basicConstraints=critical,CA:TRUE -out ca.crt && \
        openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out server.key && \
        openssl req -new -key server.key -subj /CN=127.0.0.1 -out server.csr && \
        printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > server.ext && \
        openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile server.ext -out server.crt && \
        chmod 755 . && chmod 644 *
        """
    guard runShell("command -v mosquitto >/dev/null && command -v openssl >/dev/null"),
          runShell("(" + certificates + ") >/dev/null 2>&1") else {
        print("mqtt.tls: mosquitto or openssl is missing (make bench-deps); skipped")
        return
    }
    let plainPort = UInt16(20_000 + getpid() % 20_000), tlsPort = plainPort + 1
    let config = """
        \(getuid() == 0 ? "user root" : "")
        per_listener_settings false
        allow_anonymous true
        persistence false
        listener \(plainPort) 127.0.0.1
        listener \(tlsPort) 127.0.0.1
        cafile \(folder)/ca.crt
        certfile \(folder)/server.crt
        keyfile \(folder)/server.key

        """
    guard (try? Files.writeAtomically(folder + "/mosquitto.conf", contents: config)) != nil,
          let broker = spawnShellCommand("exec mosquitto -c '\(folder)/mosquitto.conf' >/dev/null 2>&1", environment: []) else {
        print("mqtt.tls: cannot start mosquitto; skipped")
        return
    }
    defer { kill(broker, SIGKILL); var status: Int32 = 0; waitpid(broker, &status, 0) }
    Clock.sleep(seconds: 0.5)

    let messages = 4000
    guard let plain = mqttCPUPerMessage(MQTTEndpoint(host: "127.0.0.1", port: plainPort, prefix: "bench"), messages: messages),
          let tls = mqttCPUPerMessage(MQTTEndpoint(host: "127.0.0.1", port: tlsPort, prefix: "bench",
                                                   tls: MQTTTLS(caFile: folder + "/ca.crt")), messages: messages) else {
        print("mqtt.tls: the broker did not answer; skipped")
        return
    }
    // The extra CPU of TLS at 50 updates a second, as a share of one core.
    let share = max(0, tls - plain) * 50 * 100
    reportFigure("mqtt.tls", extra: [
        ("plain_us_per_message", jsonNumber(plain * 1e6, 2)), ("tls_us_per_message", jsonNumber(tls * 1e6, 2)),
        ("tls_core_percent_at_50hz", jsonNumber(share, 4)), ("goal_core_percent", "0.5"),
        ("meets_goal", share <= 0.5 ? "true" : "false"), ("messages", String(messages)),
    ])
}

/// CPU seconds (user + system, this process) per heading published through `MQTTSink`, the broker
/// reading every one; nil when it never connected.
private func mqttCPUPerMessage(_ endpoint: MQTTEndpoint, messages: Int) -> Double? {
    let runtime = Runtime.system(command: "bench", signals: false)
    guard let sink = try? MQTTSink(endpoint, runtime: runtime, queueLimit: 100_000) else { return nil }
    defer { sink.close() }
    let deadline = Clock.monotonic() + 10
    var connected = false
    while Clock.monotonic() < deadline {
        sink.service(now: Clock.monotonic())
        let before = sink.dropped
        sink.publish(HeadingReport(wall: 1_795_000_000, monotonic: 1, magneticHeading: 1), fix: nil)
        if sink.dropped == before { connected = true; break }
        Clock.sleep(seconds: 0.02)
    }
    guard connected else { return nil }
    let report = HeadingReport(wall: 1_795_000_000, monotonic: 1, magneticHeading: 123.4, variation: 12.8, trueHeading: 136.2,
                               rateOfTurn: 3.2, roll: 1.5, pitch: -2.5, accuracy: 1.1, fieldStrength: 57, flags: [])
    let start = cpuSeconds()
    for i in 0..<messages {
        var r = report
        r.magneticHeading = Double(i % 3600) / 10
        sink.publish(r, fix: nil)
        sink.service(now: Clock.monotonic())
    }
    let spent = cpuSeconds() - start
    return spent / Double(messages)
}

private func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

private func mqttBenchFolder() -> String? {
    var template = Array("/tmp/lodestone-bench-mqtt-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ p -> UnsafeMutablePointer<CChar>? in
        guard let base = p.baseAddress else { return nil }
        return mkdtemp(base)
    }) else { return nil }
    return String(cString: made)
}

@discardableResult
private func runShell(_ command: String) -> Bool {
    guard let pid = spawnShellCommand(command, environment: []) else { return false }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return status == 0
}
