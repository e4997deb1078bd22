import Foundation
import Glibc

// Support for the gpsd integration tests: gpsfake under control, a background lodestone, and an
// independent geodesic (Vincenty) to check distances with.

/// The gpsfake executable, or nil when gpsd's test tools are not installed.
public let gpsfakePath: String? = findExecutable("gpsfake")

/// The first executable of that name on $PATH (or in /usr/bin, /usr/sbin, /usr/local/bin), or nil.
public func findExecutable(_ name: String) -> String? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for folder in folders + ["/usr/bin", "/usr/sbin", "/usr/local/bin"] {
        let candidate = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

public let gpsfakeMissingMessage = "gpsfake is not installed (Debian packages gpsd and gpsd-clients); "
    + "'make test' installs them — skipping the tests against a real gpsd"

/// The NMEA logs and gpsd's .chk output (Tests/Fixtures/nmea).
public let nmeaFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/nmea")

/// A free TCP port on 127.0.0.1 (bound to port 0, read back, released).
public func freeTCPPort() -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    defer { close(fd) }
    return bindLoopback(fd)
}

/// Binds the socket to 127.0.0.1 on a port the system chooses, and returns that port.
public func bindLoopback(_ fd: Int32) -> UInt16 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p -> Int32 in
            guard bind(fd, p, length) == 0 else { return -1 }
            return getsockname(fd, p, &length)
        }
    }
    return UInt16(bigEndian: address.sin_port)
}

/// A TCP socket listening on a free loopback port (close-on-exec): its descriptor and port.
public func listenOnLoopback() throws -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    let port = bindLoopback(fd)
    guard port != 0, listen(fd, 4) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
    return (fd, port)
}

/// True when something accepts TCP connections on 127.0.0.1:port.
public func acceptsConnections(_ port: UInt16) -> Bool {
    let fd = connectLoopback(port)
    defer { if fd >= 0 { close(fd) } }
    return fd >= 0
}

/// A TCP socket connected to 127.0.0.1:port, or -1.
public func connectLoopback(_ port: UInt16, configure: (Int32) -> Void = { _ in }) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    configure(fd)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { close(fd); return -1 }
    return fd
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes.
public func pollUntil(_ timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}

/// gpsfake replaying one log once (`gpsfake -1 -p -q -P PORT LOG`) with a private TMPDIR. Its
/// stdout (the JSON gpsd produced) is kept as the reference. The process runs in its own process
/// group with a clean signal mask (`SpawnedChild`), so gpsd sees gpsfake's SIGTERM at the end of the
/// log and `kill()` takes gpsd down with it.
public final class GpsFake {
    public let port: UInt16
    public let folder: URL
    private var child: SpawnedChild?
    public var referenceURL: URL { folder.appendingPathComponent("reference.json") }

    public init(log: String, port: UInt16, cycle: Double? = nil) throws {
        self.port = port
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("lodestone-gpsfake-\(getpid())-\(port)-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: referenceURL.path, contents: nil)
        var arguments = ["-1", "-p", "-q", "-P", String(port)]
        if let cycle { arguments += ["-c", String(cycle)] }
        arguments.append(nmeaFolder.appendingPathComponent(log).path)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = folder.path
        child = try SpawnedChild(gpsfakePath ?? "/usr/bin/gpsfake", arguments, environment: environment,
                                 outputPath: referenceURL.path)
    }

    private var isRunning: Bool { child?.isRunning ?? false }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Waits until gpsd accepts connections (the recipe: poll, then start the client at once).
    public func waitUntilListening(timeout: Double = 15) -> Bool {
        pollUntil(timeout) { acceptsConnections(port) || !isRunning }
            && isRunning
    }

    /// Waits for gpsfake to reach the end of the log and exit.
    public func waitUntilFinished(timeout: Double = 30) -> Bool {
        pollUntil(timeout) { !isRunning }
    }

    /// Kills gpsfake and its gpsd (the whole process group) at once.
    public func kill() { child?.kill() }

    /// The JSON lines gpsd sent to gpsfake's own client.
    public func referenceLines() -> [String] {
        let text = (try? String(contentsOf: referenceURL, encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasPrefix("{") }
    }
}

/// A program running in the background (in its own process group), its output collected as it comes.
public final class BackgroundProcess {
    private let child: PipedChild

    /// `lodestone` with these arguments.
    public convenience init(_ arguments: [String]) throws {
        try self.init(executable: lodestoneBinaryPath, arguments)
    }

    /// `environment`: variables added to (or replacing) this process's own.
    public init(executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        child = try PipedChild(executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    deinit { if child.isRunning { kill(-child.pid, SIGKILL) } }

    public var pid: pid_t { child.pid }
    public var isRunning: Bool { child.isRunning }
    public var stdout: String { child.stdout }
    public var stderr: String { child.stderr }

    /// Sends SIGTERM (or `signal`) and waits for the exit status (SIGKILL to its group after `timeout`).
    @discardableResult
    public func stop(timeout: Double = 5, signal: Int32 = SIGTERM) -> Int32 {
        if child.isRunning { kill(child.pid, signal) }
        if !pollUntil(timeout, { !child.isRunning }) { kill(-child.pid, SIGKILL) }
        return child.wait()
    }
}

/// `lodestone` running in the background.
public typealias BackgroundLodestone = BackgroundProcess

/// The text of a JSON member in one gpsd line (`"lat":48.2175` → "48.2175"), read without a JSON
/// library so the digits are exactly gpsd's.
public func gpsdMemberText(_ key: String, in line: String) -> String? {
    guard let range = line.range(of: "\"\(key)\":") else { return nil }
    var text = ""
    for c in line[range.upperBound...] {
        if c == "," || c == "}" { break }
        text.append(c)
    }
    return text.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
}

/// One epoch of gpsd's stream: the TPVs with mode ≥ 2 that share a time, consecutive.
public struct ReferenceEpoch: Equatable {
    public var time: String
    public var lat: Double
    public var lon: Double
}

/// Groups TPV lines (mode ≥ 2, with time and position) into epochs, as a client that merges by
/// time sees them.
public func referenceEpochs(_ lines: [String]) -> [ReferenceEpoch] {
    var epochs: [ReferenceEpoch] = []
    for line in lines where gpsdMemberText("class", in: line) == "TPV" {
        guard let mode = gpsdMemberText("mode", in: line).flatMap({ Int($0) }), mode >= 2,
              let time = gpsdMemberText("time", in: line),
              let lat = gpsdMemberText("lat", in: line).flatMap({ Double($0) }),
              let lon = gpsdMemberText("lon", in: line).flatMap({ Double($0) }) else { continue }
        if epochs.last?.time == time {
            epochs[epochs.count - 1].lat = lat
            epochs[epochs.count - 1].lon = lon
        } else {
            epochs.append(ReferenceEpoch(time: time, lat: lat, lon: lon))
        }
    }
    return epochs
}

/// Distinct TPV times with mode ≥ 2 in a .chk file.
public func distinctFixTimes(chk: String) throws -> Int {
    Set(referenceEpochs(try gpsdReports(chk: chk)).map(\.time)).count
}

/// A loopback port held for the life of the value by a bound socket that does not listen: a client
/// connecting to it is refused at once, and no other test can take the port meanwhile (a port from
/// `freeTCPPort()` is free only until someone else binds it).
public final class RefusingPort {
    public let port: UInt16
    private let fd: Int32

    public init() {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        port = bindLoopback(fd)
    }

    deinit { close(fd) }
}
