import Glibc
import Platform

/// The socket calls `serve` makes, at the OS edge: everything non-blocking. `LinuxSockets` is the
/// real one; tests pass a fake to stall or drop consumers on a manual clock.
///
/// ```swift
/// let sockets: any SocketSystem = LinuxSockets()
/// let listener = try sockets.listen(host: "127.0.0.1", port: 10110)
/// if let client = sockets.accept(listener) { _ = sockets.send(client, Array("hi\r\n".utf8)[...]) }
/// ```
public protocol SocketSystem: AnyObject {
    /// A listening TCP socket on host:port (host "" or "0.0.0.0": every interface).
    func listen(host: String, port: UInt16) throws(ServeError) -> Int32
    /// The next pending connection, or nil when none is waiting.
    func accept(_ listener: Int32) -> Int32?
    /// A UDP socket connected to host:port (broadcast allowed).
    func datagram(host: String, port: UInt16) throws(ServeError) -> Int32
    /// Sends what it can of `bytes` without waiting.
    func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> SendOutcome
    /// Reads and discards up to `budget` bytes of what the peer sent (never more, so a peer that
    /// floods cannot hold the caller); false when the peer has closed the connection.
    func drainInput(_ fd: Int32, budget: Int) -> Bool
    /// The peer's address ("192.168.1.20:51234"), for messages; nil when unknown.
    func peerName(_ fd: Int32) -> String?
    /// The local port a socket is bound to.
    func localPort(_ fd: Int32) -> UInt16?
    func close(_ fd: Int32)
}

/// The real sockets: IPv4, non-blocking, `MSG_NOSIGNAL` (a vanished peer is an error, not SIGPIPE).
public final class LinuxSockets: SocketSystem {
    /// SO_SNDBUF of each accepted client, bytes (Linux doubles it for its bookkeeping).
    public static let clientSendBuffer: Int32 = 16 * 1024

    public init() {}

    public func listen(host: String, port: UInt16) throws(ServeError) -> Int32 {
        var address = try Self.address(host.isEmpty ? "0.0.0.0" : host, port: port)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket("socket", errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if Self.call(bind, fd, &address) != 0 {
            let e = errno
            Glibc.close(fd)
            if e == EADDRINUSE { throw .portInUse(host: host, port: port) }
            throw .socket("bind \(host):\(port)", errno: e)
        }
        guard Glibc.listen(fd, 16) == 0 else {
            let e = errno
            Glibc.close(fd)
            throw .socket("listen", errno: e)
        }
        return fd
    }

    public func accept(_ listener: Int32) -> Int32? {
        guard let fd = acceptClosingOnExec(listener, nonblocking: true) else { return nil }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        // Keepalive: a client that vanished without a word (power cut, cable, Wi-Fi) is found out in
        // about two minutes (60 s idle, then 6 probes 10 s apart) and its place freed.
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<Int32>.size))
        var idle: Int32 = 60, interval: Int32 = 10, probes: Int32 = 6
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &idle, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL, &interval, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPCNT, &probes, socklen_t(MemoryLayout<Int32>.size))
        // A small kernel buffer too: a client that stops reading holds at most a few seconds of
        // updates (ours and the kernel's), so when it reads again it gets recent headings, not old ones.
        var sendBuffer = Self.clientSendBuffer
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    public func datagram(host: String, port: UInt16) throws(ServeError) -> Int32 {
        var address = try Self.address(host, port: port)
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket("socket", errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &one, socklen_t(MemoryLayout<Int32>.size))
        guard Self.call(connect, fd, &address) == 0 else {
            let e = errno
            Glibc.close(fd)
            throw .socket("UDP to \(host):\(port)", errno: e)
        }
        return fd
    }

    public func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> SendOutcome {
        guard !bytes.isEmpty else { return .sent(0) }
        while true {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            if n >= 0 { return .sent(n) }
            let e = errno
            if e == EINTR { continue }
            return e == EAGAIN || e == EWOULDBLOCK ? .wouldBlock : .failed(e)
        }
    }

    public func drainInput(_ fd: Int32, budget: Int) -> Bool {
        var left = max(1, budget)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer in
            while left > 0 {
                let n = recv(fd, buffer.baseAddress, min(buffer.count, left), Int32(MSG_DONTWAIT))
                if n > 0 { left -= n; continue }
                if n == 0 { return false }
                let e = errno
                if e == EINTR { continue }
                return e == EAGAIN || e == EWOULDBLOCK
            }
            return true   // the budget is spent; the rest waits for the next turn
        }
    }

    public func peerName(_ fd: Int32) -> String? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard ok == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count)) != nil else { return nil }
        return String(cString: text) + ":" + String(UInt16(bigEndian: address.sin_port))
    }

    public func localPort(_ fd: Int32) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return ok == 0 ? UInt16(bigEndian: address.sin_port) : nil
    }

    public func close(_ fd: Int32) { Glibc.close(fd) }

    /// `bind` or `connect` with an IPv4 address.
    static func call(_ function: (Int32, UnsafePointer<sockaddr>?, socklen_t) -> Int32, _ fd: Int32,
                     _ address: inout sockaddr_in) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { function(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// An IPv4 address for a dotted quad or a host name (resolved once, at start).
    static func address(_ host: String, port: UInt16) throws(ServeError) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        if inet_pton(AF_INET, host, &address.sin_addr) == 1 { return address }
        var hints = addrinfo()
        hints.ai_family = AF_INET
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result, let sa = first.pointee.ai_addr else {
            throw .unknownHost(host)
        }
        defer { freeaddrinfo(result) }
        sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address.sin_addr = $0.pointee.sin_addr }
        return address
    }
}

/// Why `serve` cannot publish.
public enum ServeError: UserFacingError, Equatable {
    case portInUse(host: String, port: UInt16)
    case unknownHost(String)
    case socket(String, errno: Int32)
    case file(String, errno: Int32)
    case mqtt(String)
    /// A file serve needs (a password, a certificate) cannot be read: what it is, and why.
    case unreadable(String, FileError)
    /// A file serve needs is not what it should be.
    case badFile(String)
    /// A file serve writes (`--json FILE`) cannot be opened: why (a link refused in a shared folder, …).
    case unwritable(FileError)

    public var message: String {
        switch self {
        case .portInUse(let host, let port):
            return "port \(port) on \(host.isEmpty ? "every interface" : host) is already in use by another program; "
                + "stop it (ss -ltnp 'sport = :\(port)' shows which) or choose another port"
        case .unknownHost(let host):
            return "cannot resolve the host '\(sanitize(host))'; use an IPv4 address such as 127.0.0.1"
        case .socket(let what, let e):
            return "\(what) failed: \(Errno(e).description)"
        case .file(let path, let e):
            return "cannot write \(sanitize(path)): \(Errno(e).description)"
        case .mqtt(let text):
            return text
        case .unreadable(let what, let error):
            return "cannot read \(what): " + error.message
        case .badFile(let text):
            return text
        case .unwritable(let error):
            return error.message
        }
    }

    public var exitCode: ExitCode {
        switch self {
        case .portInUse, .unknownHost, .socket, .mqtt: return .unavailable
        case .file, .unreadable, .unwritable: return .ioError
        case .badFile: return .dataError
        }
    }
}
