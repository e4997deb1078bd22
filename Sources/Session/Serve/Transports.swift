import Platform

/// A TCP server that hands every message to each connected client, each with its own bounded
/// queue, nothing ever waited for. A client that stops reading loses messages (counted), never
/// stalls the others; one that hangs up is forgotten. At most `maximumClients` at once
/// (`--max-clients`): when full, a new client is still served, and the client with the most
/// unsent bytes (the one most behind; then the oldest) is dropped to make room, so clients that
/// connect and never read cannot lock the port. What clients send is read and thrown away, at
/// most `inputBudget` bytes per client per turn, so a client that floods input cannot hold the
/// loop. Every refusal and drop is a notice (said on stderr by `serve`).
///
/// ```swift
/// let server = try StreamServer(sockets: LinuxSockets(), host: "127.0.0.1", port: 10110)
/// server.service()                      // accept, flush, notice hang-ups
/// server.broadcast(Array("$HCHDM,123.4,M*2D\r\n".utf8))
/// ```
public final class StreamServer {
    struct Client {
        let fd: Int32
        var queue: ByteQueue
        /// The order of acceptance (lower: older).
        let sequence: Int
        let peer: String
    }

    let sockets: any SocketSystem
    let listener: Int32
    public let host: String
    /// The port listened on (the one asked for, or the one the system chose for port 0).
    public let port: UInt16
    let queueLimit: Int
    public let maximumClients: Int
    /// Bytes read (and discarded) from each client per turn, at most.
    public static let inputBudget = 4096
    /// Connections accepted per turn, at most (the rest wait in the kernel's backlog).
    public static let acceptsPerTurn = 16
    /// The default of `--max-clients`.
    public static let defaultMaximumClients = 64
    /// The clients and their queues. Not checked for exclusivity at run time (as `HeadingPipeline`'s
    /// stage; a broadcast made several checks): the server is not Sendable, and every access is
    /// over at once, never across a call out (`flush` reads the front for `send` and consumes after it).
    @exclusivity(unchecked) private(set) var clients: [Client] = []
    /// Messages a client could not take because its queue was full, all clients together.
    public private(set) var dropped = 0
    /// Connections accepted since start.
    public private(set) var accepted = 0
    /// Clients dropped to make room for a new one.
    public private(set) var evicted = 0
    private var notices: [String] = []

    public init(sockets: any SocketSystem, host: String, port: UInt16, queueLimit: Int = 32 * 1024,
                maximumClients: Int = StreamServer.defaultMaximumClients) throws(ServeError) {
        self.sockets = sockets
        self.host = host
        listener = try sockets.listen(host: host, port: port)
        self.port = port == 0 ? (sockets.localPort(listener) ?? 0) : port
        self.queueLimit = queueLimit
        self.maximumClients = max(1, maximumClients)
    }

    /// Clients connected now.
    public var clientCount: Int { clients.count }

    /// What happened to clients since the last call (drops to make room), for stderr.
    public func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    /// Accepts pending connections (making room when full), notices hang-ups, reads a little of
    /// what clients sent, and sends what each client's socket takes.
    public func service() {
        var acceptedNow = 0
        while acceptedNow < Self.acceptsPerTurn, let fd = sockets.accept(listener) {
            acceptedNow += 1
            if clients.count >= maximumClients { evictOne(for: sockets.peerName(fd)) }
            accepted += 1
            clients.append(Client(fd: fd, queue: ByteQueue(limit: queueLimit), sequence: accepted,
                                  peer: sockets.peerName(fd) ?? "client \(accepted)"))
        }
        var i = 0
        while i < clients.count {
            if sockets.drainInput(clients[i].fd, budget: Self.inputBudget), flush(i) {
                i += 1
            } else {
                sockets.close(clients[i].fd)
                clients.remove(at: i)
            }
        }
    }

    /// Drops the client with the most unsent bytes (then the oldest) to make room.
    private func evictOne(for newcomer: String?) {
        guard let victim = clients.indices.max(by: {
            let a = clients[$0], b = clients[$1]
            return a.queue.count != b.queue.count ? a.queue.count < b.queue.count : a.sequence > b.sequence
        }) else { return }
        let c = clients.remove(at: victim)
        sockets.close(c.fd)
        evicted += 1
        notices.append("\(host.isEmpty ? "*" : host):\(port) is full (\(maximumClients) clients, --max-clients): dropped \(c.peer) "
            + "(\(c.queue.count) bytes unsent) to make room for \(newcomer ?? "a new client")")
    }

    /// Queues the message for every client and sends what goes out at once.
    public func broadcast(_ message: [UInt8]) { broadcast(message[...]) }

    /// Queues the message for every client and sends what goes out at once.
    public func broadcast(_ message: ArraySlice<UInt8>) {
        var i = 0
        while i < clients.count {
            if !clients[i].queue.push(message) { dropped += 1 }
            if flush(i) {
                i += 1
            } else {
                sockets.close(clients[i].fd)
                clients.remove(at: i)
            }
        }
    }

    /// Bytes waiting in the clients' queues.
    public var queuedBytes: Int { clients.reduce(0) { $0 + $1.queue.count } }

    /// Sends what client `i`'s socket takes; false when the client is gone.
    private func flush(_ i: Int) -> Bool {
        while !clients[i].queue.isEmpty {
            switch sockets.send(clients[i].fd, clients[i].queue.front) {
            case .sent(let n):
                if n == 0 { return true }
                clients[i].queue.consume(n)
            case .wouldBlock: return true
            case .failed: return false
            }
        }
        return true
    }

    public func close() {
        for c in clients { sockets.close(c.fd) }
        clients.removeAll()
        sockets.close(listener)
    }
}

/// UDP datagrams to one address (unicast or broadcast), never waited for: a datagram the socket
/// cannot take now, or one refused because nobody listens, is counted and forgotten.
///
/// ```swift
/// let udp = try DatagramSender(sockets: LinuxSockets(), host: "192.168.1.255", port: 10110)
/// udp.send(Array("$HCHDM,123.4,M*2D\r\n".utf8))
/// ```
public final class DatagramSender {
    let sockets: any SocketSystem
    let fd: Int32
    public let host: String
    public let port: UInt16
    /// Datagrams not sent. The counts are not checked for exclusivity at run time (one an update):
    /// the sender is not Sendable, and each is counted at once.
    @exclusivity(unchecked) public private(set) var dropped = 0
    @exclusivity(unchecked) public private(set) var sent = 0

    public init(sockets: any SocketSystem, host: String, port: UInt16) throws(ServeError) {
        self.sockets = sockets
        self.host = host
        self.port = port
        fd = try sockets.datagram(host: host, port: port)
    }

    public func send(_ datagram: [UInt8]) { send(datagram[...]) }

    public func send(_ datagram: ArraySlice<UInt8>) {
        if case .sent(let n) = sockets.send(fd, datagram), n == datagram.count { sent += 1 } else { dropped += 1 }
    }

    public func close() { sockets.close(fd) }
}

/// Where a message stream goes: to TCP clients that connect to us, or as UDP datagrams.
public enum MessageTransport {
    case server(StreamServer)
    case datagrams(DatagramSender)

    func service() { if case .server(let s) = self { s.service() } }

    func takeNotices() -> [String] {
        if case .server(let s) = self { return s.takeNotices() }
        return []
    }

    var queuedBytes: Int {
        if case .server(let s) = self { return s.queuedBytes }
        return 0
    }

    var dropped: Int {
        switch self {
        case .server(let s): return s.dropped
        case .datagrams(let d): return d.dropped
        }
    }

    func close() {
        switch self {
        case .server(let s): s.close()
        case .datagrams(let d): d.close()
        }
    }
}
