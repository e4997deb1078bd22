/// A TCP server that hands every message to each connected client: any number of clients (up to
/// `maximumClients`), each with its own bounded queue, nothing ever waited for. A client that stops
/// reading loses messages (counted), never stalls the others; one that hangs up is forgotten.
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
    }

    let sockets: any SocketSystem
    let listener: Int32
    public let host: String
    /// The port listened on (the one asked for, or the one the system chose for port 0).
    public let port: UInt16
    let queueLimit: Int
    public let maximumClients: Int
    private(set) var clients: [Client] = []
    /// Messages a client could not take because its queue was full, all clients together.
    public private(set) var dropped = 0
    /// Connections accepted since start.
    public private(set) var accepted = 0

    public init(sockets: any SocketSystem, host: String, port: UInt16, queueLimit: Int = 32 * 1024,
                maximumClients: Int = 32) throws(ServeError) {
        self.sockets = sockets
        self.host = host
        listener = try sockets.listen(host: host, port: port)
        self.port = port == 0 ? (sockets.localPort(listener) ?? 0) : port
        self.queueLimit = queueLimit
        self.maximumClients = maximumClients
    }

    /// Clients connected now.
    public var clientCount: Int { clients.count }

    /// Accepts pending connections, notices hang-ups and sends what each client's socket takes.
    public func service() {
        while let fd = sockets.accept(listener) {
            guard clients.count < maximumClients else { sockets.close(fd); continue }
            clients.append(Client(fd: fd, queue: ByteQueue(limit: queueLimit)))
            accepted += 1
        }
        var i = 0
        while i < clients.count {
            if sockets.drainInput(clients[i].fd), flush(&clients[i]) {
                i += 1
            } else {
                sockets.close(clients[i].fd)
                clients.remove(at: i)
            }
        }
    }

    /// Queues the message for every client and sends what goes out at once.
    public func broadcast(_ message: [UInt8]) {
        var i = 0
        while i < clients.count {
            if !clients[i].queue.push(message) { dropped += 1 }
            if flush(&clients[i]) {
                i += 1
            } else {
                sockets.close(clients[i].fd)
                clients.remove(at: i)
            }
        }
    }

    /// Bytes waiting in the clients' queues.
    public var queuedBytes: Int { clients.reduce(0) { $0 + $1.queue.count } }

    /// False when the client is gone.
    private func flush(_ client: inout Client) -> Bool {
        while !client.queue.isEmpty {
            switch sockets.send(client.fd, client.queue.front) {
            case .sent(let n): client.queue.consume(n)
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
    /// Datagrams not sent.
    public private(set) var dropped = 0
    public private(set) var sent = 0

    public init(sockets: any SocketSystem, host: String, port: UInt16) throws(ServeError) {
        self.sockets = sockets
        self.host = host
        self.port = port
        fd = try sockets.datagram(host: host, port: port)
    }

    public func send(_ datagram: [UInt8]) {
        if case .sent(let n) = sockets.send(fd, datagram[...]), n == datagram.count { sent += 1 } else { dropped += 1 }
    }

    public func close() { sockets.close(fd) }
}

/// Where a message stream goes: to TCP clients that connect to us, or as UDP datagrams.
public enum MessageTransport {
    case server(StreamServer)
    case datagrams(DatagramSender)

    /// Sends one message (TCP: queued per client; UDP: one datagram).
    func deliver(_ message: [UInt8]) {
        switch self {
        case .server(let s): s.broadcast(message)
        case .datagrams(let d): d.send(message)
        }
    }

    func service() { if case .server(let s) = self { s.service() } }

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
