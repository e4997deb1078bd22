import Foundation
import Glibc
import Platform

/// A gpsd stand-in that streams, for tests of the `lodestone` binary: it listens on 127.0.0.1,
/// greets each client as gpsd does (VERSION, then DEVICES and WATCH once asked to watch), and
/// writes `line(n)` for n = 0, 1, 2, … at `rate` lines a second, on its own thread, until
/// `stop()`. A client that goes away is replaced by the next one (the count goes on).
///
/// ```swift
/// let gpsd = try StreamingGpsd(rate: 200) { n in StreamingGpsd.tpv(time: Clock.wall(), lat: n % 2 == 0 ? 0 : 0.01, lon: 0) }
/// defer { gpsd.stop() }
/// let run = try runLodestone(["regions", "--gpsd", "127.0.0.1:\(gpsd.port)", ...])
/// ```
public final class StreamingGpsd: @unchecked Sendable {
    public let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var stopping = false
    private var sent = 0
    private let finished = DispatchSemaphore(value: 0)

    public init(rate: Double, line: @escaping @Sendable (Int) -> String) throws {
        (listener, port) = try listenOnLoopback()
        let thread = Thread { [self] in
            serve(rate: rate, line: line)
            finished.signal()
        }
        thread.start()
    }

    deinit { stop() }

    /// Lines written so far, to every client.
    public var linesSent: Int { lock.withLock { sent } }

    /// Stops streaming, closes the client and the port, and waits for the thread.
    public func stop() {
        let first: Bool = lock.withLock {
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        finished.wait()
        close(listener)
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func serve(rate: Double, line: @Sendable (Int) -> String) {
        var n = 0
        while !isStopping {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            guard let client = acceptClosingOnExec(listener, nonblocking: false) else { continue }
            defer { close(client) }
            // A client that stops reading holds a write at most a second (so `stop()` never hangs).
            guard GpsdGreeting.greet(client, sendTimeout: 1) else { continue }
            let start = Clock.monotonic()
            let first = n
            while !isStopping {
                let due = first + Int((Clock.monotonic() - start) * rate)
                var batch: [String] = []
                while n <= due { batch.append(line(n)); n += 1 }
                if !batch.isEmpty {
                    guard send(client, batch) else { break }
                    lock.withLock { sent += batch.count }
                }
                // Drain what the client says, so it never blocks on us.
                var r = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                if poll(&r, 1, 0) > 0 {
                    var chunk = [UInt8](repeating: 0, count: 1024)
                    if read(client, &chunk, chunk.count) <= 0 { break }
                }
                usleep(2_000)
            }
        }
    }

    private func send(_ client: Int32, _ lines: [String]) -> Bool { sendLines(client, lines) }

    /// A gpsd TPV report: a 3D fix at `time` (Unix seconds) with a horizontal error of `eph` metres.
    public static func tpv(time: Double, lat: Double, lon: Double, eph: Double = 3) -> String {
        #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"\#(ISO8601.format(time))","lat":\#(lat),"lon":\#(lon),"#
            + #""altMSL":12.5,"eph":\#(eph),"speed":0.0,"track":0.0}"#
    }
}

/// What a gpsd stand-in says before its reports: VERSION on connecting, DEVICES and WATCH once asked
/// to watch.
enum GpsdGreeting {
    /// Greets a client that just connected, as gpsd does: VERSION, its ?WATCH request (whatever it
    /// is), then DEVICES and WATCH. A write waits at most `sendTimeout` seconds. False when it is gone.
    static func greet(_ client: Int32, sendTimeout: Int) -> Bool {
        var limit = timeval(tv_sec: sendTimeout, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard sendLines(client, [version]) else { return false }
        var q = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        if poll(&q, 1, 2000) > 0 {
            var chunk = [UInt8](repeating: 0, count: 1024)
            _ = read(client, &chunk, chunk.count)
        }
        return sendLines(client, devicesAndWatch)
    }

    static let version = #"{"class":"VERSION","release":"3.25","rev":"3.25","proto_major":3,"proto_minor":15}"#
    static let devicesAndWatch = [#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","driver":"u-blox"}]}"#,
                                  #"{"class":"WATCH","enable":true,"json":true}"#]
}

/// Writes `lines`, each with a newline, to a socket (retrying short writes and EINTR, no SIGPIPE);
/// false when the peer is gone.
func sendLines(_ fd: Int32, _ lines: [String]) -> Bool {
    let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return false }
        offset += n
    }
    return true
}
