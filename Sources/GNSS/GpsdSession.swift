import CGPS
import Glibc

/// One connection to gpsd through libgps: open, watch, read raw JSON lines, close.
///
/// `gps_data_t` is about 24 KB, so it lives on the heap. The session is used from one thread only
/// (the client's); it is not shared.
///
/// ```swift
/// let session = GpsdSession()
/// try session.open(.default)
/// if case .line(let json) = session.readLine(timeout: 0.1) { … }
/// session.close()
/// ```
final class GpsdSession {
    enum ReadResult: Equatable {
        /// One complete JSON line.
        case line(String)
        /// Nothing complete within the timeout.
        case nothing
        /// gpsd closed the connection, or it failed.
        case closed
        /// A line longer than libgps's buffer: it cannot read on from there (the session must reopen).
        case tooLong
    }

    private let data: UnsafeMutablePointer<gps_data_t>
    private var buffer: [CChar]
    private(set) var isOpen = false
    /// True once the connected peer was checked not to be the socket itself.
    private var peerVerified = false

    init(bufferSize: Int = 1 << 16) {
        data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        data.initialize(to: gps_data_t())
        buffer = [CChar](repeating: 0, count: bufferSize)
    }

    deinit {
        close()
        data.deinitialize(count: 1)
        data.deallocate()
    }

    /// Connects and asks gpsd to stream JSON reports.
    func open(_ address: GpsdAddress) throws(GNSSError) {
        close()
        data.pointee = gps_data_t()
        guard gps_open(address.host, String(address.port), data) == 0 else {
            // libgps leaves its own (negative) code in errno: NL_NOHOST when the name does not resolve.
            throw errno == NL_NOHOST ? .cannotResolve(address) : .cannotConnect(address)
        }
        isOpen = true
        peerVerified = false
        // Connecting to a local port nobody listens on can, now and then, connect the socket to
        // itself (its own ephemeral port is the one asked for): that is no gpsd. Checked here and,
        // as the connection may still be completing, again at the first read.
        if Self.isConnectedToItself(data.pointee.gps_fd) {
            close()
            throw .cannotConnect(address)
        }
        guard gps_stream(data, UInt32(WATCH_ENABLE | WATCH_JSON), nil) == 0 else {
            close()
            throw .watchFailed(address)
        }
        // Reads must never block the thread for long: it also watches the stop flag.
        let fd = data.pointee.gps_fd
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        // libgps opens its socket without close-on-exec: a command spawned later (a region's
        // --on-enter) would otherwise hold the connection open after we close it.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// True when the socket's local and remote addresses are the same (a TCP self-connection).
    static func isConnectedToItself(_ fd: Int32) -> Bool {
        var local = sockaddr_storage(), remote = sockaddr_storage()
        var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size), remoteLength = localLength
        let ok = withUnsafeMutablePointer(to: &local) { l in
            withUnsafeMutablePointer(to: &remote) { r in
                l.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &localLength) } == 0
                    && r.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &remoteLength) } == 0
            }
        }
        guard ok, localLength == remoteLength else { return false }
        return withUnsafeBytes(of: &local) { l in
            withUnsafeBytes(of: &remote) { r in l.prefix(Int(localLength)).elementsEqual(r.prefix(Int(remoteLength))) }
        }
    }

    /// Waits up to `timeout` seconds for a complete line.
    func readLine(timeout: Double) -> ReadResult {
        guard isOpen else { return .closed }
        if !peerVerified {
            // The connection may complete after gps_open returned: check its peer once it has one.
            if Self.isConnectedToItself(data.pointee.gps_fd) {
                close()
                return .closed
            }
            var remote = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            peerVerified = withUnsafeMutablePointer(to: &remote) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(data.pointee.gps_fd, $0, &length) }
            } == 0
        }
        let micros = Int32(max(0, min(timeout, 10)) * 1_000_000)
        guard gps_waiting(data, micros) else { return .nothing }
        buffer[0] = 0
        let count = Int32(buffer.count)
        let status = buffer.withUnsafeMutableBufferPointer { gps_read(data, $0.baseAddress, count) }
        let text: String? = buffer[0] == 0 ? nil : String(
            decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if status > 0, let text { return .line(text) }
        // libgps returns −1 both for a closed socket and for a line it could not unpack itself;
        // in the second case the line was copied out, and the connection is fine.
        if status < 0 {
            if let text { return .line(text) }
            // libgps also says −1 when its buffer filled without a line end: then the socket is
            // still open with the rest of the line waiting, unlike a closed one.
            var byte: UInt8 = 0
            return recv(data.pointee.gps_fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0 ? .tooLong : .closed
        }
        // A partial line: wait for the rest on the socket itself (gps_waiting would say "ready"
        // at once because of the buffered part).
        var pfd = pollfd(fd: data.pointee.gps_fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, Int32(max(1, micros / 1000)))
        return .nothing
    }

    /// Closes the connection (safe to call when closed).
    func close() {
        guard isOpen else { return }
        // No WATCH_DISABLE: gpsd may already be gone, and closing the socket says enough.
        _ = gps_close(data)
        isOpen = false
    }
}
