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
    runServeHostileBenchmark()
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

// MARK: serve under hostile consumers (a real process)

/// `serve --rate 50` with four sinks (NMEA over TCP, Signal K over UDP, JSON lines to a FIFO whose
/// reader never reads, JSON lines on standard output) while one client floods input and 100 connect
/// and never read; one client reads and times the gaps between its sentences, and a new client
/// connects partway and times its first data. Goals: largest gap ≤ 250 ms, new client ≤ 2 s,
/// ≤ 1 % of a core, RSS ≤ 16 MB. `LODESTONE_SOAK_SECONDS=600` makes it the 10-minute soak (RSS
/// sampled each minute: flat).
func runServeHostileBenchmark() {
    guard report.shouldRun("serve.hostile") else { return }
    let binary = (getenv("LODESTONE_BIN").map { String(cString: $0) }) ?? ".build/release/lodestone"
    guard access(binary, X_OK) == 0 else {
        print("serve.hostile: \(binary) is not built (swift build -c release --product lodestone); skipped")
        return
    }
    let seconds = getenv("LODESTONE_SOAK_SECONDS").flatMap { Double(String(cString: $0)) } ?? 20
    let folder = "/tmp/lodestone-bench-serve-\(getpid())"
    mkdir(folder, 0o700)
    defer { unlink(folder + "/json.fifo"); rmdir(folder) }
    let fifo = folder + "/json.fifo"
    mkfifo(fifo, 0o600)
    let holder = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)   // a reader that never reads
    defer { close(holder) }
    let port = UInt16(20000 + getpid() % 20000)
    let arguments = [binary, "serve", "--simulate", "--no-gnss", "--location", "-33.87,151.21", "--rate", "50",
                     "--duration", String(Int(seconds) + 40), "--max-clients", "64",
                     "--nmea", "tcp://127.0.0.1:\(port)", "--signalk", "udp://127.0.0.1:9", "--json", fifo, "--json", "-"]
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    closeInheritedDescriptors(&actions)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    guard withCleanSpawnAttributes({ posix_spawn(&pid, binary, &actions, $0, argv, environ) }) == 0 else {
        print("serve.hostile: cannot start \(binary); skipped")
        return
    }
    defer {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
    func connectLoopback(receiveBuffer: Int32? = nil) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if ok != 0 { close(fd); return -1 }
        return fd
    }
    var probe: Int32 = -1
    let startWait = Clock.monotonic()
    while probe < 0 && Clock.monotonic() - startWait < 20 {
        Clock.sleep(seconds: 0.1)
        probe = connectLoopback()
    }
    guard probe >= 0 else { print("serve.hostile: serve did not listen; skipped"); return }
    close(probe)
    // The hostile ones first: a flooder and 100 that never read. The reader connects once they
    // have fallen behind (their buffers full): while every queue is empty a full server drops its
    // oldest client, and a reader that came first would be the one dropped.
    let flooder = connectLoopback()
    defer { if flooder >= 0 { close(flooder) } }
    var idle: [Int32] = []
    for _ in 0..<100 { let fd = connectLoopback(receiveBuffer: 4096); if fd >= 0 { idle.append(fd) } }
    defer { idle.forEach { close($0) } }
    let junk = [UInt8](repeating: 0x41, count: 65536)
    var buffer = [UInt8](repeating: 0, count: 65536)
    func cpuSeconds() -> Double {
        guard let f = fopen("/proc/\(pid)/stat", "r") else { return 0 }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 1024)
        guard fgets(&line, 1024, f) != nil else { return 0 }
        let text = String(cString: line)
        let fields = text[(text.lastIndex(of: ")") ?? text.startIndex)...].split(separator: " ")
        guard fields.count > 13, let u = Double(fields[12]), let s = Double(fields[13]) else { return 0 }
        return (u + s) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
    func residentKiB(_ key: String) -> Int {
        guard let f = fopen("/proc/\(pid)/status", "r") else { return 0 }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, 256, f) != nil {
            let text = String(cString: line)
            if text.hasPrefix(key) { return Int(text.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0 }
        }
        return 0
    }
    // Warm-up: let the idle clients' buffers and queues fill and the surplus be dropped to the limit.
    let settle = Clock.monotonic() + 10
    while Clock.monotonic() < settle {
        if flooder >= 0 { _ = junk.withUnsafeBytes { send(flooder, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) } }
        Clock.sleep(seconds: 0.005)
    }
    let reader = connectLoopback()
    guard reader >= 0 else { print("serve.hostile: the reading client could not connect; skipped"); return }
    defer { close(reader) }
    let cpu0 = cpuSeconds(), t0 = Clock.monotonic()
    var last = t0, largestGap = 0.0, sentences = 0
    var newcomer: Int32 = -1, newcomerAt = 0.0, newcomerFirst: Double?
    var rssSamples: [Int] = [residentKiB("VmRSS:")]
    var nextRSS = t0 + 60
    while Clock.monotonic() - t0 < seconds {
        var p = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, 5)
        let n = buffer.withUnsafeMutableBytes { recv(reader, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        let now = Clock.monotonic()
        if n > 0 {
            largestGap = max(largestGap, now - last)
            last = now
            sentences += buffer[..<n].filter { $0 == 10 }.count
        }
        if flooder >= 0 { _ = junk.withUnsafeBytes { send(flooder, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) } }
        if newcomer < 0 && now - t0 >= 2 { newcomer = connectLoopback(); newcomerAt = now }
        if newcomer >= 0 && newcomerFirst == nil,
           buffer.withUnsafeMutableBytes({ recv(newcomer, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {
            newcomerFirst = now - newcomerAt
        }
        if now >= nextRSS { rssSamples.append(residentKiB("VmRSS:")); nextRSS += 60 }
    }
    let elapsed = Clock.monotonic() - t0
    let cpu = (cpuSeconds() - cpu0) / elapsed * 100
    rssSamples.append(residentKiB("VmRSS:"))
    let peak = residentKiB("VmHWM:")
    if newcomer >= 0 { close(newcomer) }
    let growth = (rssSamples.last ?? 0) - (rssSamples.first ?? 0)
    reportFigure("serve.hostile", extra: [
        ("seconds", fixed(elapsed, 0)), ("sentences", String(sentences)),
        ("largest_gap_ms", fixed(largestGap * 1000, 1)), ("goal_gap_ms", "250"),
        ("new_client_first_data_s", newcomerFirst.map { fixed($0, 3) } ?? "none"), ("goal_new_client_s", "2"),
        ("cpu_percent", fixed(cpu, 2)), ("goal_cpu_percent", "1"),
        ("peak_rss_kib", String(peak)), ("goal_rss_kib", "16384"),
        ("rss_growth_kib", String(growth)),
        ("goal_met", String(largestGap <= 0.25 && (newcomerFirst ?? 99) <= 2 && cpu <= 1 && peak <= 16384)),
    ])
}

/// Waiting sleeps on the real clock; no signal ever arrives.
final class SleepingEventSource: ControlEventSource {
    func wait(seconds: Double) -> ControlEvents {
        if seconds > 0 { Clock.sleep(seconds: seconds) }
        return []
    }
}
