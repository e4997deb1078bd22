import Foundation
import Platform
import Glibc

/// A tiny stand-in for gpsd in unit tests: a TCP listener on 127.0.0.1 that accepts the client,
/// reads its WATCH request and writes whatever JSON lines the test gives it.
final class FakeGpsd {
    let port: UInt16
    private var listener: Int32 = -1
    private(set) var client: Int32 = -1

    /// Listens on `port` (0 picks a free one).
    init(port: UInt16 = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        self.port = UInt16(bigEndian: actual.sin_port)
    }

    deinit { shutdown() }

    /// Waits for the client to connect and send its request; returns the request text.
    @discardableResult
    func acceptClient(timeout: Double = 5) -> String? {
        guard wait(listener, timeout) else { return nil }
        guard let fd = acceptClosingOnExec(listener, nonblocking: false) else { return nil }
        client = fd
        var request = [UInt8]()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, !request.contains(UInt8(ascii: ";")) {
            guard wait(fd, 0.1) else { continue }
            var chunk = [UInt8](repeating: 0, count: 512)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            request += chunk[0..<n]
        }
        return String(decoding: request, as: UTF8.self)
    }

    /// Writes lines (each followed by a newline) to the connected client.
    func send(_ lines: [String]) {
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Closes the client connection (gpsd going away for that client).
    func dropClient() {
        if client >= 0 { close(client); client = -1 }
    }

    /// Closes everything: the port stops listening.
    func shutdown() {
        dropClient()
        if listener >= 0 { close(listener); listener = -1 }
    }

    private func wait(_ fd: Int32, _ seconds: Double) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, Int32(seconds * 1000)) > 0
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on (bound, read, released).
func freeLocalPort() -> UInt16 {
    guard let probe = try? FakeGpsd() else { return 39_999 }
    let port = probe.port
    probe.shutdown()
    return port
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes.
func eventually(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}
