// The live path at the rates a boat runs, on the real clock with real sockets, through the public
// session API (`ServeSession.run`, `LogRecording.run`) on the simulated sensor:
// - `live.serve_50hz`: serve at 50 Hz publishing NMEA 0183 over TCP to a connected client, Signal K
//   deltas over UDP, JSON lines to a file and MQTT to a local mosquitto (started on a free port when
//   the `mosquitto` binary is there, else that sink is left out and said so). Goal: ≤ 1 % of a core.
// - `live.log_50hz`, `live.log_100hz`: log rows to a CSV file. Goal at 100 Hz: ≤ 0.5 % of a core.
// - `live.serve_rss`: the same serve run as the real `lodestone` binary (LODESTONE_BINARY, default
//   .build/release/lodestone) with real sockets and the local mosquitto: its CPU per update and % of
//   a core in the steady state (from 2 s in), and its peak resident memory. Goals: ≤ 1 %, ≤ 16 MB.
// - `live.log_100hz_binary`: the real binary's `log --simulate --rate 100` to a CSV file, CPU per row
//   and % of a core. Goal: ≤ 0.5 %.
// - `live.loop_50hz`: the live loop alone at 50 Hz as serve runs it (the simulated chip read at
//   50 Hz, every sample through the pipeline, a consumer that does nothing): what serve costs before
//   any sink, wake-ups included.
// - `live.simulator_sample`: the simulator's own share, per sample: the emulated chips and world
//   model read through the reader on a manual clock (no waiting, no pipeline). On a Pi this is an
//   I²C transaction instead. `samples_digest` is a digest of the bits of the first 20,000 samples
//   serve's reader gets from the simulator: a change that keeps it keeps the samples bit-identical.
// - `live.wake_floor_50hz`, `live.wake_floor_100hz`: a bare wake-up (a timed `sigtimedwait`, as
//   the loop sleeps) at that rate with nothing done: the least an update or a row can cost here.
// - `live.cold_sample`, `live.cold_pipeline`: the work of an update run COLD, as serve runs it after
//   each 20 ms sleep: wake at 50 Hz as the loop sleeps (`SignalWatcher.wait`), then read one
//   simulated sample through the reader (the emulated chips and world model on a manual clock,
//   advanced a chip period per wake), or run one `HeadingPipeline.process` of a sample read before.
//   One-second blocks of bare wake-ups and of wake-ups with the work alternate, so the machine's
//   drift falls on both; `us_above_wake` is the CPU (this thread's, user + system) per wake with the
//   work less that per bare wake. Why: after a sleep the code and data are out of the caches, and
//   the work costs what the distinct cache lines it touches cost (the same work done again in the
//   same wake-up costs a tenth), which `live.simulator_sample`, run hot, does not show.
// - `live.serve_sink.nmea_tcp`, `.signalk_udp`, `.json_file`, `.mqtt`: serve at 50 Hz with that sink
//   alone; the sink's cost is its us_per_update less `live.loop_50hz`'s.
// - `live.c_floor`: a plain C loop (Benchmarks/c/live_floor.c, built by `make bench`) making the
//   system calls serve makes at 50 Hz with the four sinks, against the same consumers as
//   `live.serve_rss`, and nothing else: the least serve could cost here. What serve costs above it
//   is Lodestone's own work (the sensor, the filter, the formatting, the loop).
// - `live.c_floor_log`: the same C program's `log` form, one wake-up per row at 100 Hz and the rows
//   written every 0.4 s (fdatasync each second): the least `log --rate 100` could cost here, beside
//   `live.log_100hz_binary`.
// - `live.budget`: the goals in µs per update (serve: 1 % at 50 Hz is 200 µs; log: 0.5 % at 100 Hz is
//   50 µs) beside the wake-up, the loop alone, each sink and the whole, from the runs above.
// CPU is the process's user + system time over the run (every thread: libmosquitto's too), less the
// consumer thread's own; "% of a core" is that over the run's wall time. The simulated sensor's
// emulated chip is part of it (on a Pi the I²C reads cost syscalls instead). LODESTONE_LIVE_SECONDS
// sets each run's length (default 8 s). The cost of each sink alone is `serve.publish.*` (ServeBench).
import Glibc
import HeadingLog
import JSON
import Platform
import Sensors
import Session

/// A consumer of the live loop that does nothing (the loop's own cost).
private final class IdleConsumer: LiveConsumer {
    var fresh = 0
    func update(_ update: LiveUpdate, loop: LiveLoop) throws -> LiveStep {
        if update.fresh { fresh += 1 }
        return .proceed
    }
}

/// User + system CPU seconds of the whole process.
private func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

private func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Swallows diagnostics.
private final class QuietOutput: TextOutput {
    func write(_ text: String) -> Bool { true }
}

/// A free TCP or UDP port on loopback (bound, read back, released).
func freeLoopbackPort(udp: Bool = false) -> UInt16? {
    let fd = socket(AF_INET, Int32(udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    return bound ? UInt16(bigEndian: address.sin_port) : nil
}

func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

/// Connects to a loopback TCP port; nil when nothing listens.
func connectLoopback(port: UInt16) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = loopback(port: port)
    let ok = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    if ok { return fd }
    close(fd)
    return nil
}

/// The consumers, on their own thread: a TCP client of the NMEA server (connecting as soon as it
/// listens, then reading everything) and a UDP socket the Signal K deltas go to, drained.
final class LoopbackConsumer: @unchecked Sendable {
    let tcpPort: UInt16
    let udp: Int32
    let udpPort: UInt16
    private var stopPipe: [Int32] = [-1, -1]
    private var thread = pthread_t()
    /// Written by the thread, read after `finish` joined it.
    private(set) var bytes = 0
    private(set) var datagrams = 0
    private(set) var cpuSeconds = 0.0

    init?(tcpPort: UInt16) {
        guard let udpPort = freeLoopbackPort(udp: true) else { return nil }
        self.tcpPort = tcpPort
        self.udpPort = udpPort
        udp = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = loopback(port: udpPort)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(udp, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard udp >= 0, bound, pipe(&stopPipe) == 0 else { return nil }
        let context = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&thread, nil, { raw in
            let consumer = Unmanaged<LoopbackConsumer>.fromOpaque(raw!).takeRetainedValue()
            consumer.main()
            return nil
        }, context) == 0 else { return nil }
    }

    private func main() {
        let start = threadCPUSeconds()
        var tcp: Int32 = -1
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        loop: while true {
            if tcp < 0, let fd = connectLoopback(port: tcpPort) { tcp = fd }
            var fds = [pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
                       pollfd(fd: udp, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: tcp, events: Int16(POLLIN), revents: 0)]
            // Until connected, poll only briefly so the client connects soon after the server listens.
            _ = poll(&fds, nfds_t(fds.count), tcp < 0 ? 5 : 500)
            if fds[0].revents != 0 { break loop }
            if fds[1].revents & Int16(POLLIN) != 0 {
                while buffer.withUnsafeMutableBytes({ recv(udp, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 { datagrams += 1 }
            }
            if tcp >= 0, fds[2].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(tcp, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n > 0 { bytes += n } else if n == 0 { close(tcp); tcp = -1 }
            }
        }
        if tcp >= 0 { close(tcp) }
        cpuSeconds = threadCPUSeconds() - start
    }

    /// Stops and joins the thread.
    func finish() {
        var one: UInt8 = 1
        _ = write(stopPipe[1], &one, 1)
        pthread_join(thread, nil)
        close(stopPipe[0]); close(stopPipe[1]); close(udp)
    }
}

/// A mosquitto broker of our own on a free port, when the binary is installed; stopped by its pid.
final class LocalBroker {
    let port: UInt16
    private let pid: pid_t

    init?() {
        guard access("/usr/sbin/mosquitto", X_OK) == 0 || access("/usr/bin/mosquitto", X_OK) == 0,
              let port = freeLoopbackPort() else { return nil }
        guard let pid = spawnShellCommand("exec mosquitto -p \(port) >/dev/null 2>&1", environment: []) else { return nil }
        self.port = port
        self.pid = pid
        // Ready when it accepts a connection (at most 3 s).
        for _ in 0..<300 {
            if let fd = connectLoopback(port: port) { close(fd); return }
            Clock.sleep(seconds: 0.01)
        }
        stop()
        return nil
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

/// One live run's figures.
private struct LiveFigures {
    var cpuPercent: Double
    var microsecondsPerUpdate: Double
    var updates: Int
    var seconds: Double
}

private func liveSeconds() -> Double { Double(Environment.value("LODESTONE_LIVE_SECONDS") ?? "") ?? 8 }

private func benchRuntime(_ command: String) -> Runtime {
    Runtime(time: SystemTime(), events: SleepingEventSource(), output: QuietOutput(), diagnostics: QuietOutput(),
            environment: EnvironmentValues([:]), command: command)
}

/// Runs `body` (which returns the updates it made) and measures the process's CPU over it, less `extra`.
private func measureLive(_ body: () throws -> Int, less extra: () -> Double = { 0 }) rethrows -> LiveFigures {
    let wall0 = Clock.monotonic(), cpu0 = processCPUSeconds()
    let updates = try body()
    let cpu = processCPUSeconds() - cpu0 - extra()
    let wall = Clock.monotonic() - wall0
    return LiveFigures(cpuPercent: 100 * cpu / wall, microsecondsPerUpdate: updates > 0 ? cpu * 1e6 / Double(updates) : .nan,
                       updates: updates, seconds: wall)
}

func runLiveBenchmarks() {
    let floor50 = benchWakeFloor(rate: 50)
    let floor100 = benchWakeFloor(rate: 100)
    let loop = benchLoopAlone()
    benchSimulatorPerSample()
    let coldSample = benchColdSample()
    let coldPipeline = benchColdPipeline()
    let serve = benchServeLive()
    // The cost of each sink as serve runs it: serve at 50 Hz with that sink alone, less the loop alone.
    var sinks: [(String, Double)] = []
    for sink in ServeSinkChoice.allCases {
        if let us = benchServeLive(only: sink) { sinks.append((sink.rawValue, us)) }
    }
    benchLogLive(rate: 50, goal: nil)
    let log = benchLogLive(rate: 100, goal: 0.5)
    let binary = benchServeResidentMemory()
    let cFloor = benchCFloor()
    let logBinary = benchLogBinary()
    let logFloor = benchCFloorLog()
    reportBudget(floor50: floor50, floor100: floor100, loop: loop, serve: serve, sinks: sinks, log: log,
                 binary: binary, cFloor: cFloor, logBinary: logBinary, logFloor: logFloor,
                 coldSample: coldSample, coldPipeline: coldPipeline)
}

/// The sinks of `live.serve_50hz`, each measured alone (`live.serve_sink.NAME`).
private enum ServeSinkChoice: String, CaseIterable {
    case nmea_tcp, signalk_udp, json_file, mqtt
}

/// `live.wake_floor_NHz`: a bare wake-up, as the loop sleeps (a timed `sigtimedwait` on the blocked
/// stop signals, through `SignalWatcher`), at `rate` a second with nothing done: the CPU no
/// update can cost less than on this machine. Returns µs per wake-up.
@discardableResult
private func benchWakeFloor(rate: Double) -> Double? {
    let name = "live.wake_floor_\(Int(rate))hz"
    guard report.shouldRun(name) else { return nil }
    let signals = SignalWatcher()
    let seconds = min(4, max(1, liveSeconds() / 2))
    let count = Int(seconds * rate)
    let figures = measureLive {
        let start = Clock.monotonic()
        for k in 1...count {
            let wait = start + Double(k) / rate - Clock.monotonic()
            if wait > 0 { signals.wait(seconds: wait) }
        }
        return count
    }
    report.add(BenchResult(name: name, nsPerOp: figures.microsecondsPerUpdate * 1000, iterations: count, extra: [
        ("us_per_wake", fixed(figures.microsecondsPerUpdate, 1)), ("cpu_percent", fixed(figures.cpuPercent, 3)),
        ("note", "\"a timed sigtimedwait and nothing else, as the live loop sleeps\""),
    ]))
    return figures.microsecondsPerUpdate
}

@discardableResult
private func benchLoopAlone() -> Double? {
    guard report.shouldRun("live.loop_50hz") else { return nil }
    let runtime = benchRuntime("serve")
    let inbox = ControlInbox(runtime.events)
    let request = LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none).sampled(forUpdateRate: 50)
    guard let live = try? LiveSession.open(request, runtime: runtime, inbox: inbox) else {
        print("live.loop_50hz: cannot open the simulated sensor")
        return nil
    }
    let consumer = IdleConsumer()
    let figures = measureLive {
        _ = try? LiveLoop(live: live, runtime: runtime, inbox: inbox, rate: 50, duration: liveSeconds()).run([consumer])
        return consumer.fresh
    }
    report.add(BenchResult(name: "live.loop_50hz", nsPerOp: figures.microsecondsPerUpdate * 1000, iterations: figures.updates, extra: [
        ("cpu_percent", fixed(figures.cpuPercent, 3)), ("us_per_update", fixed(figures.microsecondsPerUpdate, 1)),
        ("samples", "\(live.reader.counters.samples)"), ("chip_hz", plain(live.reader.magnetometer.info.outputRate)),
        ("seconds", fixed(figures.seconds, 1)),
    ]))
    return figures.microsecondsPerUpdate
}

private func benchSimulatorPerSample() {
    guard report.shouldRun("live.simulator_sample") else { return }
    let clock = ManualClock(0)
    guard let source = try? SensorSelection(simulate: true).open(time: clock) else {
        print("live.simulator_sample: cannot open the simulated sensor")
        return
    }
    let reader = source.makeReader(clock: ReaderClock(monotonic: { clock.monotonic() }, wall: { clock.wall() }, sleep: { clock.advance(by: $0) }))
    let step = 1 / source.magnetometer.info.outputRate
    var samples = 0
    let ns = measure(iterations: 20_000) { n in
        for _ in 0..<n {
            clock.advance(by: step)
            if reader.poll() != nil { samples += 1 }
        }
    }
    report.add(BenchResult(name: "live.simulator_sample", nsPerOp: ns, iterations: samples, extra: [
        ("chip_hz", plain(source.magnetometer.info.outputRate)), ("samples_digest", "\"\(simulatedSamplesDigest())\""),
        ("note", "\"emulated chips + world model per sample, through the reader; no waiting\""),
    ]))
}

/// The digest (FNV-1a, 64 bits, hex) of the bits of the first 20,000 samples (times, field,
/// acceleration, rotation rate) the simulator gives serve's reader on a manual clock: equal before
/// and after a change to the simulator or the reader when their samples are bit-identical.
private func simulatedSamplesDigest() -> String {
    guard let (reader, clock, step) = manualSimulatedReader("live.simulator_sample") else { return "none" }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ x: Double) {
        var bits = x.bitPattern
        for _ in 0..<8 {
            hash = (hash ^ (bits & 0xFF)) &* 0x100_0000_01b3
            bits >>= 8
        }
    }
    for _ in 0..<20_000 {
        clock.advance(by: step)
        guard let s = reader.poll() else { mix(-1); continue }
        for x in [s.monotonic, s.wall, s.field.x, s.field.y, s.field.z] { mix(x) }
        for v in [s.acceleration, s.rotationRate] {
            if let v { mix(v.x); mix(v.y); mix(v.z) } else { mix(-2) }
        }
    }
    return String(hash, radix: 16)
}

/// A simulated sensor as serve opens it (the chip at 50 Hz), on a manual clock, and a reader of it
/// on that clock; nil, said, when it cannot be opened.
private func manualSimulatedReader(_ name: String) -> (reader: MagnetometerReader, clock: ManualClock, step: Double)? {
    let clock = ManualClock(0)
    let sensors = LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none).sampled(forUpdateRate: 50).sensors
    guard let source = try? sensors.open(time: clock) else {
        print("\(name): cannot open the simulated sensor")
        return nil
    }
    let reader = source.makeReader(clock: ReaderClock(monotonic: { clock.monotonic() }, wall: { clock.wall() },
                                                      sleep: { clock.advance(by: $0) }))
    return (reader, clock, 1 / source.magnetometer.info.outputRate)
}

/// Wakes at 50 Hz as the live loop sleeps, in one-second blocks that alternate between bare
/// wake-ups and wake-ups that run `work` once (see `live.cold_sample`), and reports the CPU per wake
/// of each and their difference. Returns the µs per wake above a bare one.
private func benchColdWork(_ name: String, note: String, work: () -> Void) -> Double {
    let signals = SignalWatcher()
    let rate = 50.0
    let blocks = max(2, Int(liveSeconds() / 2))
    var seconds = (bare: 0.0, busy: 0.0)
    var wakes = (bare: 0, busy: 0)
    for _ in 0..<blocks {
        for busy in [false, true] {
            let cpu = threadCPUSeconds()
            let start = Clock.monotonic()
            for k in 1...Int(rate) {
                let wait = start + Double(k) / rate - Clock.monotonic()
                if wait > 0 { signals.wait(seconds: wait) }
                if busy { work() }
            }
            let used = threadCPUSeconds() - cpu
            if busy { seconds.busy += used; wakes.busy += Int(rate) } else { seconds.bare += used; wakes.bare += Int(rate) }
        }
    }
    let busy = seconds.busy * 1e6 / Double(wakes.busy), bare = seconds.bare * 1e6 / Double(wakes.bare)
    report.add(BenchResult(name: name, nsPerOp: (busy - bare) * 1000, iterations: wakes.busy, extra: [
        ("us_above_wake", fixed(busy - bare, 1)), ("us_per_wake", fixed(busy, 1)), ("wake_floor_us", fixed(bare, 1)),
        ("note", "\"\(note)\""),
    ]))
    return busy - bare
}

/// `live.cold_sample`: one simulated sample read through the reader after each 50 Hz wake-up.
private func benchColdSample() -> Double? {
    guard report.shouldRun("live.cold_sample"), let (reader, clock, step) = manualSimulatedReader("live.cold_sample") else { return nil }
    var samples = 0
    let us = benchColdWork("live.cold_sample", note: "one simulated sample read cold after each 50 Hz wake-up") {
        clock.advance(by: step)
        if reader.poll() != nil { samples += 1 }
    }
    blackHole(samples)
    return us
}

/// `live.cold_pipeline`: one `HeadingPipeline.process` (serve's pipeline) of a sample read before,
/// after each 50 Hz wake-up.
private func benchColdPipeline() -> Double? {
    guard report.shouldRun("live.cold_pipeline"), let (reader, clock, step) = manualSimulatedReader("live.cold_pipeline") else { return nil }
    let runtime = benchRuntime("serve")
    let request = LiveRequest(sensors: SensorSelection(simulate: true), gnss: .none).sampled(forUpdateRate: 50)
    guard let live = try? LiveSession.open(request, runtime: runtime, inbox: ControlInbox(runtime.events)) else {
        print("live.cold_pipeline: cannot open the simulated sensor")
        return nil
    }
    var samples: [MagnetometerSample] = []
    let needed = 50 * 2 * max(2, Int(liveSeconds() / 2)) + 10
    while samples.count < needed {
        clock.advance(by: step)
        if let sample = reader.poll() { samples.append(sample) }
    }
    var next = 0
    var sum = 0.0
    let us = benchColdWork("live.cold_pipeline", note: "one HeadingPipeline.process of a sample read before, cold after each 50 Hz wake-up") {
        if let estimate = live.pipeline.process(samples[next]) { sum += estimate.magneticHeading }
        next += 1
    }
    blackHole(sum)
    return us
}

/// `serve` at 50 Hz in process with real sockets: all four sinks (`live.serve_50hz`), or one alone
/// (`live.serve_sink.NAME`, its cost: CPU per update less the loop alone's). Returns µs per update.
@discardableResult
private func benchServeLive(only: ServeSinkChoice? = nil) -> Double? {
    let name = only.map { "live.serve_sink." + $0.rawValue } ?? "live.serve_50hz"
    guard report.shouldRun(name) else { return nil }
    guard let tcpPort = freeLoopbackPort(), let consumer = LoopbackConsumer(tcpPort: tcpPort) else {
        print("\(name): cannot open loopback sockets; skipped")
        return nil
    }
    let wants = { (sink: ServeSinkChoice) in only == nil || only == sink }
    let broker = wants(.mqtt) ? LocalBroker() : nil
    if wants(.mqtt) && broker == nil {
        print("\(name): no mosquitto (apt-get install mosquitto); measured without the MQTT sink")
        if only == .mqtt { consumer.finish(); return nil }
    }
    defer { broker?.stop() }
    let jsonPath = "/tmp/lodestone-bench-serve-\(getpid()).jsonl"
    defer { unlink(jsonPath) }
    let request = ServeRequest(live: LiveRequest(sensors: SensorSelection(simulate: true)), rate: 50, duration: liveSeconds(),
                               nmea: wants(.nmea_tcp) ? [.tcp(host: "127.0.0.1", port: tcpPort)] : [],
                               signalK: wants(.signalk_udp) ? [.udp(host: "127.0.0.1", port: consumer.udpPort)] : [],
                               json: wants(.json_file) ? [jsonPath] : [],
                               mqtt: broker.map { [MQTTEndpoint(host: "127.0.0.1", port: $0.port)] } ?? [])
    var failure: String?
    let figures = measureLive({
        do { return try ServeSession.run(request, runtime: benchRuntime("serve")).updates } catch {
            failure = "\(error)"
            return 0
        }
    }, less: { consumer.finish(); return consumer.cpuSeconds })
    if let failure { print("\(name): \(failure)") }
    if let only {
        report.add(BenchResult(name: name, nsPerOp: figures.microsecondsPerUpdate * 1000, iterations: figures.updates, extra: [
            ("cpu_percent", fixed(figures.cpuPercent, 3)), ("us_per_update", fixed(figures.microsecondsPerUpdate, 1)),
            ("updates", "\(figures.updates)"), ("seconds", fixed(figures.seconds, 1)),
            ("note", "\"serve at 50 Hz with this sink alone; its cost is us_per_update less live.loop_50hz's\""),
        ]))
        return failure == nil ? figures.microsecondsPerUpdate : nil
    }
    let sinks = "nmea-tcp+signalk-udp+json" + (broker == nil ? "" : "+mqtt")
    report.add(BenchResult(name: name, nsPerOp: figures.microsecondsPerUpdate * 1000, iterations: figures.updates, extra: [
        ("sinks", "\"\(sinks)\""), ("cpu_percent", fixed(figures.cpuPercent, 3)), ("us_per_update", fixed(figures.microsecondsPerUpdate, 1)),
        ("updates", "\(figures.updates)"), ("seconds", fixed(figures.seconds, 1)), ("client_bytes", "\(consumer.bytes)"),
        ("udp_datagrams", "\(consumer.datagrams)"), ("goal_cpu_percent", "1"),
        ("goal_met", failure == nil && figures.cpuPercent <= 1 && consumer.bytes > 0 ? "true" : "false"),
    ]))
    return failure == nil ? figures.microsecondsPerUpdate : nil
}

/// `live.budget`: the goals as µs per update against what this machine's bare wake-up costs, the
/// loop alone, each sink and the whole, so a goal missed shows where its budget went.
private func reportBudget(floor50: Double?, floor100: Double?, loop: Double?, serve: Double?, sinks: [(String, Double)], log: Double?,
                          binary: Double?, cFloor: Double?, logBinary: Double?, logFloor: Double?,
                          coldSample: Double?, coldPipeline: Double?) {
    guard report.shouldRun("live.budget") else { return }
    var extra: [(String, String)] = [("serve_budget_us_per_update", "200"), ("log_budget_us_per_row", "50")]
    if let binary { extra.append(("serve_binary_us", fixed(binary, 1))) }
    if let cFloor { extra.append(("c_floor_us", fixed(cFloor, 1))) }
    if let binary, let cFloor { extra.append(("serve_above_c_floor_us", fixed(binary - cFloor, 1))) }
    if let floor50 { extra.append(("wake_us_50hz", fixed(floor50, 1))) }
    if let loop { extra.append(("loop_alone_us", fixed(loop, 1))) }
    if let coldSample { extra.append(("cold_sample_us", fixed(coldSample, 1))) }
    if let coldPipeline { extra.append(("cold_pipeline_us", fixed(coldPipeline, 1))) }
    for (sink, us) in sinks {
        extra.append(("sink_\(sink)_us", loop.map { fixed(us - $0, 1) } ?? fixed(us, 1)))
    }
    if let serve { extra.append(("serve_us", fixed(serve, 1))) }
    if let floor100 { extra.append(("wake_us_100hz", fixed(floor100, 1))) }
    if let log { extra.append(("log_us_per_row_100hz", fixed(log, 1))) }
    if let logBinary { extra.append(("log_binary_us_per_row", fixed(logBinary, 1))) }
    if let logFloor { extra.append(("log_c_floor_us_per_row", fixed(logFloor, 1))) }
    if let logBinary, let logFloor { extra.append(("log_above_c_floor_us", fixed(logBinary - logFloor, 1))) }
    if let floor50, let floor100 {
        extra.append(("note", "\"serve's 1 % at 50 Hz is 200 us an update, \(fixed(floor50, 0)) of it the wake-up; "
            + "log's 0.5 % at 100 Hz is 50 us a row, \(fixed(floor100, 0)) of it the wake-up\""))
    }
    report.add(BenchResult(name: "live.budget", nsPerOp: (serve ?? .nan) * 1000, iterations: 1, extra: extra))
}

@discardableResult
private func benchLogLive(rate: Double, goal: Double?) -> Double? {
    let name = "live.log_\(Int(rate))hz"
    guard report.shouldRun(name) else { return nil }
    let path = "/tmp/lodestone-bench-log-\(getpid())-\(Int(rate)).csv"
    defer { unlink(path) }
    let request = LogRequest(live: LiveRequest(sensors: SensorSelection(simulate: true), distanceFilter: 0),
                             file: LogSession.Options(path: path, overwrite: true), rate: rate, duration: liveSeconds())
    var failure: String?
    let figures = measureLive {
        do { _ = try LogRecording.run(request, runtime: benchRuntime("log")) } catch { failure = "\(error)" }
        // The rows written: the file's lines less the header.
        guard let text = try? Files.readText(path) else { return 0 }
        return max(0, text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } - 1)
    }
    if let failure { print("\(name): \(failure)") }
    var extra: [(String, String)] = [("cpu_percent", fixed(figures.cpuPercent, 3)), ("us_per_row", fixed(figures.microsecondsPerUpdate, 1)),
                                     ("rows", "\(figures.updates)"), ("seconds", fixed(figures.seconds, 1))]
    if let goal {
        extra += [("goal_cpu_percent", plain(goal)), ("goal_met", failure == nil && figures.cpuPercent <= goal && figures.updates > 0 ? "true" : "false")]
    }
    report.add(BenchResult(name: name, nsPerOp: figures.microsecondsPerUpdate * 1000, iterations: figures.updates, extra: extra))
    return failure == nil ? figures.microsecondsPerUpdate : nil
}

/// What a run of the real binary measured.
private struct BinaryRun {
    /// CPU (user + system, every thread) over the steady part of the run (from 2 s in to the end),
    /// per cent of one core.
    var cpuPercent: Double
    /// CPU seconds over that part.
    var cpuSeconds: Double
    /// Wall seconds over that part.
    var steadySeconds: Double
    var peakKB: Int
    var wall: Double
    var stderr: String
}

/// Runs `command` (a shell line that `exec`s the binary, its stdout to /dev/null) with a home of
/// its own, samples /proc until it ends, and returns its steady CPU and peak memory. The first 2 s
/// (opening the sensor, the profile, the sockets) are left out of the CPU figure.
private func runBinary(_ command: String, name: String) -> BinaryRun? {
    let home = "/tmp/lodestone-bench-home-\(getpid())"
    mkdir(home, 0o700)
    defer { rmdir(home) }
    let errPath = "/tmp/lodestone-bench-stderr-\(getpid())-\(name)"
    defer { unlink(errPath) }
    guard let pid = spawnShellCommand(command + " >/dev/null 2>'\(errPath)'",
                                      environment: [("HOME", home), ("XDG_CONFIG_HOME", home)]) else { return nil }
    // CPU seconds of every thread: the scheduler's own nanoseconds (/proc/PID/task/*/schedstat),
    // else utime + stime in clock ticks (a tick is 0.17 % of a core over a 6 s window).
    func cpuSeconds() -> Double? {
        if let tasks = Files.list("/proc/\(pid)/task"), !tasks.isEmpty {
            var total = 0.0
            var read = false
            for task in tasks {
                guard let text = try? Files.readText("/proc/\(pid)/task/\(task)/schedstat"),
                      let first = text.split(separator: " ").first, let ns = Double(first) else { continue }
                total += ns / 1e9
                read = true
            }
            if read { return total }
        }
        guard let stat = try? Files.readText("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
        guard fields.count > 13, let u = Double(fields[11]), let s = Double(fields[12]) else { return nil }
        return (u + s) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
    var peakKB = 0
    var first: (cpu: Double, time: Double)?, last: (cpu: Double, time: Double)?
    let started = Clock.monotonic()
    // Sample /proc until the process ends (its last readable figures are kept).
    while true {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { break }
        if let text = try? Files.readText("/proc/\(pid)/status"),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kb = Int(line.split(separator: " ").dropFirst().first ?? "") {
            peakKB = max(peakKB, kb)
        }
        let now = Clock.monotonic()
        if let t = cpuSeconds() {
            if now - started >= 2 {
                if first == nil { first = (t, now) }
                last = (t, now)
            }
        }
        Clock.sleep(seconds: 0.1)
    }
    let wall = Clock.monotonic() - started
    let stderr = (try? Files.readText(errPath)) ?? ""
    guard let first, let last, last.time > first.time else {
        return BinaryRun(cpuPercent: .nan, cpuSeconds: .nan, steadySeconds: 0, peakKB: peakKB, wall: wall, stderr: stderr)
    }
    let cpu = last.cpu - first.cpu
    return BinaryRun(cpuPercent: 100 * cpu / (last.time - first.time), cpuSeconds: cpu, steadySeconds: last.time - first.time,
                     peakKB: peakKB, wall: wall, stderr: stderr)
}

private func benchBinary() -> String? {
    let binary = Environment.value("LODESTONE_BINARY") ?? ".build/release/lodestone"
    return access(binary, X_OK) == 0 ? binary : nil
}

/// A real `lodestone serve --simulate --rate 50` with four sinks (NMEA 0183 over TCP to a reading
/// client, Signal K over UDP, JSON lines to a file, MQTT to a local mosquitto): its CPU per update
/// and share of a core (steady state, every thread), and its peak resident memory (VmHWM).
/// Goals: ≤ 1 % of a core, ≤ 16 MB. Returns the CPU µs per update.
@discardableResult
private func benchServeResidentMemory() -> Double? {
    guard report.shouldRun("live.serve_rss") else { return nil }
    guard let binary = benchBinary() else {
        print("live.serve_rss: skipped, no \(Environment.value("LODESTONE_BINARY") ?? ".build/release/lodestone") (make bench builds it)")
        return nil
    }
    guard let (tcpPort, consumer, broker) = binaryConsumers("live.serve_rss") else { return nil }
    defer { broker?.stop() }
    let jsonPath = "/tmp/lodestone-bench-serve-rss-\(getpid()).jsonl"
    defer { unlink(jsonPath) }
    let seconds = max(liveSeconds(), 5)
    var command = "exec '\(binary)' serve --simulate --rate 50 --duration \(plain(seconds)) --nmea tcp://127.0.0.1:\(tcpPort)"
        + " --signalk udp://127.0.0.1:\(consumer.udpPort) --json \(jsonPath)"
    if let broker { command += " --mqtt mqtt://127.0.0.1:\(broker.port)" }
    guard let run = runBinary(command, name: "serve") else {
        consumer.finish()
        print("live.serve_rss: cannot start \(binary)")
        return nil
    }
    consumer.finish()
    let megabytes = Double(run.peakKB) / 1024
    // Updates in the steady part: serve's own count, scaled to it.
    // Its closing line: "lodestone serve: N updates published; …".
    let published = run.stderr.split(separator: "\n").compactMap { line -> Int? in
        let words = line.split(separator: " ")
        guard let i = words.firstIndex(of: "updates"), i > words.startIndex, words.index(after: i) < words.endIndex,
              words[words.index(after: i)].hasPrefix("published") else { return nil }
        return Int(words[words.index(before: i)])
    }.last ?? 0
    let steadyUpdates = Double(published) * run.steadySeconds / max(seconds, 1)
    let usPerUpdate = steadyUpdates > 0 ? run.cpuSeconds * 1e6 / steadyUpdates : .nan
    let met = run.peakKB > 0 && megabytes <= 16 && run.cpuPercent <= 1 && consumer.bytes > 0
    report.add(BenchResult(name: "live.serve_rss", nsPerOp: usPerUpdate * 1000, iterations: published, extra: [
        ("binary", "\"\(binary)\""), ("sinks", broker == nil ? "\"nmea-tcp+signalk-udp+json\"" : "\"nmea-tcp+signalk-udp+json+mqtt\""),
        ("peak_rss_mb", fixed(megabytes, 1)), ("cpu_percent", jsonNumber(run.cpuPercent, 2)),
        ("us_cpu_per_update", jsonNumber(usPerUpdate, 1)), ("updates", "\(published)"),
        ("seconds", fixed(run.wall, 1)), ("client_bytes", "\(consumer.bytes)"), ("mqtt", broker == nil ? "false" : "true"),
        ("goal_cpu_percent", "1"), ("goal_rss_mb", "16"), ("goal_met", met ? "true" : "false"),
    ]))
    return usPerUpdate.isFinite ? usPerUpdate : nil
}

/// The consumers a real process serves in `live.serve_rss` and `live.c_floor`: the reading TCP client
/// (of a free port the process listens on) and the UDP socket, on their own thread, and a local
/// mosquitto when it is installed (stop it at the end). Nil, said, when loopback sockets cannot be had.
private func binaryConsumers(_ name: String) -> (tcpPort: UInt16, consumer: LoopbackConsumer, broker: LocalBroker?)? {
    guard let tcpPort = freeLoopbackPort(), let consumer = LoopbackConsumer(tcpPort: tcpPort) else {
        print("\(name): cannot open loopback sockets; skipped")
        return nil
    }
    return (tcpPort, consumer, LocalBroker())
}

/// `live.c_floor`: Benchmarks/c/live_floor.c (LODESTONE_LIVE_FLOOR, default .build/bench/live_floor)
/// at 50 Hz against the consumers of `live.serve_rss`: its CPU per update and share of a core over
/// the steady part. Returns the µs per update.
private func benchCFloor() -> Double? {
    guard report.shouldRun("live.c_floor") else { return nil }
    let program = Environment.value("LODESTONE_LIVE_FLOOR") ?? ".build/bench/live_floor"
    guard access(program, X_OK) == 0 else {
        print("live.c_floor: skipped, no \(program) (make bench builds it from Benchmarks/c/live_floor.c)")
        return nil
    }
    guard let (tcpPort, consumer, broker) = binaryConsumers("live.c_floor") else { return nil }
    defer { broker?.stop() }
    let jsonPath = "/tmp/lodestone-bench-floor-\(getpid()).jsonl"
    let outPath = "/tmp/lodestone-bench-floor-\(getpid()).out"
    defer { unlink(jsonPath); unlink(outPath) }
    let seconds = max(liveSeconds(), 5)
    let command = "exec '\(program)' 50 \(plain(seconds)) \(tcpPort) \(consumer.udpPort) \(broker?.port ?? 0) '\(jsonPath)'"
        + " >'\(outPath)' 2>&1"
    let result = runFloorProgram(command, outPath: outPath, name: "live.c_floor", perKey: "us_per_update")
    consumer.finish()
    guard let (fields, us, percent) = result else { return nil }
    report.add(BenchResult(name: "live.c_floor", nsPerOp: us * 1000, iterations: Int(fields["updates"]?.double ?? 0), extra: [
        ("us_per_update", fixed(us, 1)), ("cpu_percent", fixed(percent, 3)), ("client_bytes", "\(consumer.bytes)"),
        ("mqtt", broker == nil ? "false" : "true"),
        ("note", "\"a C loop making serve's system calls at 50 Hz (sleep, TCP, UDP, MQTT; JSON file, accept, recv each 0.25 s), nothing else\""),
    ]))
    return us
}

/// A real `lodestone log --simulate --rate 100` to a CSV file: CPU per row and share of a core
/// (steady state). Goal: ≤ 0.5 % of a core. Returns the µs per row.
private func benchLogBinary() -> Double? {
    guard report.shouldRun("live.log_100hz_binary") else { return nil }
    guard let binary = benchBinary() else {
        print("live.log_100hz_binary: skipped, no built binary (make bench builds it)")
        return nil
    }
    let path = "/tmp/lodestone-bench-log-binary-\(getpid()).csv"
    defer { unlink(path) }
    let seconds = max(liveSeconds(), 5)
    guard let run = runBinary("exec '\(binary)' log --simulate --no-gnss --rate 100 --duration \(plain(seconds)) --output '\(path)' --overwrite",
                              name: "log") else {
        print("live.log_100hz_binary: cannot start \(binary)")
        return nil
    }
    let rows = max(0, ((try? Files.readText(path)) ?? "").utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } - 1)
    let steadyRows = Double(rows) * run.steadySeconds / max(seconds, 1)
    let usPerRow = steadyRows > 0 ? run.cpuSeconds * 1e6 / steadyRows : .nan
    report.add(BenchResult(name: "live.log_100hz_binary", nsPerOp: usPerRow * 1000, iterations: rows, extra: [
        ("binary", "\"\(binary)\""), ("cpu_percent", jsonNumber(run.cpuPercent, 2)), ("us_cpu_per_row", jsonNumber(usPerRow, 1)),
        ("rows", "\(rows)"), ("peak_rss_mb", fixed(Double(run.peakKB) / 1024, 1)), ("seconds", fixed(run.wall, 1)),
        ("goal_cpu_percent", "0.5"), ("goal_met", rows > 0 && run.cpuPercent <= 0.5 ? "true" : "false"),
    ]))
    return usPerRow.isFinite ? usPerRow : nil
}

/// Runs the C floor program's shell line (its output to `outPath`) to the end and reads its JSON
/// line: the fields, the CPU µs per update or row (`perKey`) and the share of a core; nil, said,
/// when it could not start or said something else.
private func runFloorProgram(_ command: String, outPath: String, name: String, perKey: String)
    -> (fields: JSONValue, us: Double, percent: Double)? {
    guard let pid = spawnShellCommand(command, environment: []) else {
        print("\(name): cannot start the floor program")
        return nil
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let text = (try? Files.readText(outPath)) ?? ""
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("{") }),
          let fields = try? JSONValue.parse(String(line)), let us = fields[perKey]?.double,
          let percent = fields["cpu_percent"]?.double else {
        print("\(name): the floor program said: \(text.prefix(300))")
        return nil
    }
    return (fields, us, percent)
}

/// `live.c_floor_log`: Benchmarks/c/live_floor.c's `log` form at 100 Hz (one wake-up per row, the
/// rows written every 0.4 s, an fdatasync each second): the least a row of `log --rate 100` can
/// cost here. Returns the µs per row.
private func benchCFloorLog() -> Double? {
    guard report.shouldRun("live.c_floor_log") else { return nil }
    let program = Environment.value("LODESTONE_LIVE_FLOOR") ?? ".build/bench/live_floor"
    guard access(program, X_OK) == 0 else {
        print("live.c_floor_log: skipped, no \(program) (make bench builds it from Benchmarks/c/live_floor.c)")
        return nil
    }
    let csvPath = "/tmp/lodestone-bench-floor-log-\(getpid()).csv"
    let outPath = "/tmp/lodestone-bench-floor-log-\(getpid()).out"
    defer { unlink(csvPath); unlink(outPath) }
    let seconds = max(liveSeconds(), 5)
    guard let (fields, us, percent) = runFloorProgram("exec '\(program)' log 100 \(plain(seconds)) '\(csvPath)' >'\(outPath)' 2>&1",
                                                      outPath: outPath, name: "live.c_floor_log", perKey: "us_per_row") else { return nil }
    report.add(BenchResult(name: "live.c_floor_log", nsPerOp: us * 1000, iterations: Int(fields["rows"]?.double ?? 0), extra: [
        ("us_per_row", fixed(us, 1)), ("cpu_percent", fixed(percent, 3)),
        ("note", "\"a C loop at 100 Hz: one wake-up per row, the rows written every 0.4 s, fdatasync each second; nothing else\""),
    ]))
    return us
}
