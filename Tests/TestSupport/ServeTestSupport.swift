import Foundation
import Glibc

// Real consumers for the `serve` integration tests: a mosquitto broker on a free loopback port, a
// UDP listener, a TCP reader, and a gpsd client. All traffic stays on 127.0.0.1.

public let mosquittoPath: String? = findExecutable("mosquitto")
public let mosquittoSubPath: String? = findExecutable("mosquitto_sub")
public let gpsdPath: String? = findExecutable("gpsd")

public let mosquittoMissingMessage = "mosquitto or mosquitto_sub is not installed (Debian packages mosquitto and "
    + "mosquitto-clients); 'make test' installs them — skipping the tests against a real MQTT broker"
public let gpsdMissingMessage = "gpsd is not installed (Debian package gpsd); 'make test' installs it — "
    + "skipping the test that feeds Lodestone's NMEA to a real gpsd"

/// A mosquitto broker listening on 127.0.0.1:port with a private configuration (anonymous, no
/// persistence), killed when released.
public final class MosquittoBroker {
    public let port: UInt16
    public let folder: URL
    let process: BackgroundProcess

    public init(port: UInt16) throws {
        self.port = port
        folder = try makeTemporaryFolder("lodestone-mosquitto")
        let config = folder.appendingPathComponent("mosquitto.conf")
        try """
        listener \(port) 127.0.0.1
        allow_anonymous true
        persistence false
        log_dest stderr

        """.write(to: config, atomically: true, encoding: .utf8)
        process = try BackgroundProcess(executable: mosquittoPath ?? "/usr/sbin/mosquitto", ["-c", config.path])
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: folder)
    }

    public func waitUntilListening(timeout: Double = 15) -> Bool {
        pollUntil(timeout) { acceptsConnections(port) || !process.isRunning } && process.isRunning
    }

    public func kill() { process.stop(timeout: 0, signal: SIGKILL) }

    /// The broker's own log (stderr).
    public var log: String { process.stderr }
}

/// `mosquitto_sub -v` on the broker: "topic payload" lines as they arrive.
public func mosquittoSubscriber(port: UInt16, topic: String, extra: [String] = []) throws -> BackgroundProcess {
    try BackgroundProcess(executable: mosquittoSubPath ?? "/usr/bin/mosquitto_sub",
                          ["-h", "127.0.0.1", "-p", String(port), "-t", topic, "-v"] + extra)
}

/// A UDP socket bound to 127.0.0.1 on a free port; `receive` collects datagrams.
public final class UDPListener {
    public let fd: Int32
    public let port: UInt16

    public init() {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.fd = fd
        port = bindLoopback(fd)
    }

    deinit { close(fd) }

    /// Datagrams received within `seconds` (stops early at `count`).
    public func receive(seconds: Double, count: Int = .max) -> [Data] {
        var out: [Data] = []
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline && out.count < count {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { out.append(Data(buffer[0..<n])) }
        }
        return out
    }
}

/// Connects to 127.0.0.1:port, optionally sends `request`, and returns what arrives within `seconds`
/// (or once `until` holds for the text so far).
public func readTCP(port: UInt16, seconds: Double, request: String? = nil, until: (String) -> Bool = { _ in false }) -> String {
    let fd = connectLoopback(port)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    if let request { _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, 100) > 0 else { continue }
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { break }
        data.append(contentsOf: buffer[0..<n])
        if until(String(decoding: data, as: UTF8.self)) { break }
    }
    return String(decoding: data, as: UTF8.self)
}
