import Glibc
import Platform
import Session

/// Sockets in memory on a manual clock: listeners, clients that read (or stall until a given time,
/// with a small "kernel" buffer), clients that hang up, and UDP peers that keep every datagram.
final class FakeSockets: SocketSystem {
    final class Peer {
        /// Bytes the consumer has read.
        var received: [UInt8] = []
        /// Bytes sent but not yet read (the kernel's buffer).
        var buffered: [UInt8] = []
        let capacity: Int
        /// The consumer reads nothing before this time.
        var readsFrom: Double
        /// The consumer hangs up at this time.
        var hangsUpAt: Double
        var datagrams: [[UInt8]] = []
        /// Bytes the client has sent us and we have not read (a client that floods input).
        var pendingInput = 0
        /// The client connects at this time (it is not accepted before).
        var connectsAt = 0.0
        /// When the consumer first read something.
        var firstReceived: Double?

        init(capacity: Int, readsFrom: Double, hangsUpAt: Double) {
            self.capacity = capacity
            self.readsFrom = readsFrom
            self.hangsUpAt = hangsUpAt
        }

        var text: String { String(decoding: received, as: UTF8.self) }
    }

    let clock: ManualClock
    private var nextFD: Int32 = 100
    private var listeners: [Int32: UInt16] = [:]
    private var pending: [UInt16: [Peer]] = [:]
    private var peers: [Int32: Peer] = [:]
    /// UDP peers by port.
    private(set) var udp: [UInt16: Peer] = [:]
    var portsInUse: Set<UInt16> = []
    private(set) var closed: Set<Int32> = []

    init(clock: ManualClock) { self.clock = clock }

    /// A TCP consumer that will connect to `port` (at `connectsAt`).
    @discardableResult
    func connect(to port: UInt16, capacity: Int = 8192, readsFrom: Double = 0, hangsUpAt: Double = .infinity,
                 connectsAt: Double = 0) -> Peer {
        let p = Peer(capacity: capacity, readsFrom: readsFrom, hangsUpAt: hangsUpAt)
        p.connectsAt = connectsAt
        pending[port, default: []].append(p)
        return p
    }

    /// The most TCP clients accepted and not yet closed at any one time.
    private(set) var mostOpenAtOnce = 0

    func listen(host: String, port: UInt16) throws(ServeError) -> Int32 {
        guard !portsInUse.contains(port) else { throw .portInUse(host: host, port: port) }
        nextFD += 1
        listeners[nextFD] = port
        return nextFD
    }

    /// Calls of each kind (each a system call with the real sockets).
    private(set) var acceptCalls = 0
    private(set) var sendCalls: [Int32: Int] = [:]
    private(set) var drainCalls = 0

    func accept(_ listener: Int32) -> Int32? {
        acceptCalls += 1
        guard let port = listeners[listener], var queue = pending[port],
              let index = queue.firstIndex(where: { $0.connectsAt <= clock.now() }) else { return nil }
        let p = queue.remove(at: index)
        pending[port] = queue
        nextFD += 1
        peers[nextFD] = p
        let open = peers.filter { fd, peer in !closed.contains(fd) && !udp.values.contains { $0 === peer } }.count
        mostOpenAtOnce = max(mostOpenAtOnce, open)
        return nextFD
    }

    func datagram(host: String, port: UInt16) throws(ServeError) -> Int32 {
        nextFD += 1
        let p = Peer(capacity: .max, readsFrom: 0, hangsUpAt: .infinity)
        peers[nextFD] = p
        udp[port] = p
        return nextFD
    }

    func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> SendOutcome {
        sendCalls[fd, default: 0] += 1
        guard let p = peers[fd], !closed.contains(fd) else { return .failed(EBADF) }
        let now = clock.now()
        if now >= p.hangsUpAt { return .failed(EPIPE) }
        if udp.values.contains(where: { $0 === p }) {
            p.datagrams.append(Array(bytes))
            return .sent(bytes.count)
        }
        if now >= p.readsFrom {
            if !p.buffered.isEmpty && p.firstReceived == nil { p.firstReceived = now }
            p.received += p.buffered
            p.buffered.removeAll()
        }
        let room = p.capacity - p.buffered.count
        guard room > 0 else { return .wouldBlock }
        let n = min(room, bytes.count)
        p.buffered += bytes.prefix(n)
        if now >= p.readsFrom {
            if p.firstReceived == nil { p.firstReceived = now }
            p.received += p.buffered
            p.buffered.removeAll()
        }
        return .sent(n)
    }

    /// Bytes read from each client's input, and the most asked for in one call.
    private(set) var inputRead: [Int32: Int] = [:]
    private(set) var largestInputBudget = 0

    func drainInput(_ fd: Int32, budget: Int) -> Bool {
        drainCalls += 1
        guard let p = peers[fd] else { return false }
        largestInputBudget = max(largestInputBudget, budget)
        let n = min(budget, p.pendingInput)
        p.pendingInput -= n
        inputRead[fd, default: 0] += n
        return clock.now() < p.hangsUpAt
    }

    func peerName(_ fd: Int32) -> String? { "peer \(fd)" }

    func localPort(_ fd: Int32) -> UInt16? { listeners[fd] }

    func close(_ fd: Int32) { closed.insert(fd) }

    /// Every descriptor handed out has been closed.
    var allClosed: Bool { Set(listeners.keys).union(peers.keys).isSubset(of: closed) }
}
