import Glibc
import CMosquitto
import Outputs
import Platform
import Synchronization

/// Publishes to an MQTT broker through libmosquitto, on the session's own thread: publishing writes
/// what the socket takes at once (non-blocking) and `service` runs libmosquitto's loop without
/// waiting (the rest of the queue, the broker's answers, keep-alive pings). While the broker is away
/// it reconnects by itself (every 1 s, backing off to 8 s), so serve reaches a broker that starts
/// later or comes back. Topics under the prefix:
/// `PREFIX/heading` (each update, JSON), `PREFIX/fix` (each new fix), `PREFIX/event` (started,
/// stopping, sensor status), `PREFIX/region` (each region event, JSON, with `--region`),
/// `PREFIX/region/NAME`, retained: "inside" or "outside" (the name with `/`, `+`, `#` made `_`),
/// and `PREFIX/status`, retained: "online" while connected, "offline" at a clean stop and as the
/// last will when the connection dies. QoS 0 except the retained topics (QoS 1). Events and region
/// events said while the broker is away (at most 16) are sent once it answers. At
/// most `queueLimit` messages wait for the socket; beyond that, and while disconnected, updates are
/// dropped and counted.
///
/// ```swift
/// let sink = try MQTTSink(MQTTEndpoint.parse("mqtt://127.0.0.1:1883/boat"), runtime: runtime)
/// sink.publish(report, fix: nil)         // → boat/heading
/// ```
public final class MQTTSink: ServeSink {
    /// What libmosquitto's callbacks record (they run inside `mosquitto_loop`, on this thread).
    final class Shared: Sendable {
        struct State {
            var connected = false
            var everConnected = false
            var written = 0
            var notes: [String] = []
            /// The last connect refusal said, so a broker that keeps refusing is said once.
            var lastRefusal: UInt8?
            /// OpenSSL's errors, from libmosquitto's log, since the last service.
            var tlsErrors: [String] = []
            /// Connections the peer ended before it answered the login (no CONNACK).
            var droppedBeforeAnswer = 0
        }
        let state = Mutex(State())
        let statusTopic: String
        init(statusTopic: String) { self.statusTopic = statusTopic }
    }

    let endpoint: MQTTEndpoint
    let runtime: Runtime
    let shared: Shared
    let handle: OpaquePointer
    let queueLimit: Int
    public let label: String
    public private(set) var dropped = 0
    private var published = 0
    private let startedAt: Double
    private var warnedUnreachable = false
    /// A TLS failure already said (so a broker whose certificate never verifies is said once).
    private var saidTLSFailure: String?
    /// Said that the peer (plain TCP) drops the connection before answering the login.
    private var saidDroppedLogin = false
    /// The first connection's TLS handshake failed inside `mosquitto_connect_async`.
    private var connectFailedTLS = false
    /// Connection attempts that failed below TLS and MQTT (refused, unreachable: MOSQ_ERR_ERRNO).
    private var networkFailures = 0
    private var nextRetry: Double
    private var retryDelay = 1.0
    /// Events said before the connection was up (at most 16), sent once it is.
    private var pendingEvents: [(topic: String, payload: String, retained: Bool)] = []
    private var closed = false
    /// When the whole libmosquitto loop runs next (`readInterval`).
    private var nextRead = -Double.infinity
    /// `PREFIX/heading`, made once.
    private let headingTopic: String
    /// Each heading's JSON, copied into this buffer (reused). This, `packet` and `unsentFrom` are
    /// not checked for exclusivity at run time (as `HeadingPipeline`'s stage; they were half of an
    /// update's checks here): private, the sink is not Sendable, and no access spans a call that
    /// could reach the sink (the JSON's `appendJSON`, the packet's writer, `send(2)`).
    @exclusivity(unchecked) private var payload: [UInt8] = []
    /// For `publish(_:fix:)`, reused.
    private let single = HeadingMessage()
    /// True when heading updates may be written straight to the broker's socket (`publish`): plain
    /// TCP only (over TLS the bytes must go through OpenSSL, so through libmosquitto).
    private let writesDirectly: Bool
    /// `PREFIX/heading`'s bytes, for the packets written directly.
    private let headingTopicBytes: [UInt8]
    /// The last PUBLISH packet written directly, reused; the bytes from `unsentFrom` on are not yet
    /// taken by the socket, and nothing else goes to the broker before them.
    @exclusivity(unchecked) private var packet: [UInt8] = []
    @exclusivity(unchecked) private var unsentFrom = 0
    /// Heading updates written directly so far (the rest went through libmosquitto); not checked for
    /// exclusivity at run time, as `payload` (counted at once).
    @exclusivity(unchecked) public private(set) var directlyWritten = 0
    /// Since when a packet written directly has waited for the socket (nil while nothing waits).
    private var stalledSince: Double?
    /// How long a broker may take nothing before its connection is given up and made again: what
    /// libmosquitto's keep-alive allows (1.5 × the 30 s keep-alive), which the direct writes would
    /// otherwise hold off (libmosquitto is not called while a packet waits).
    public static let stallLimit = 45.0
    /// True while the broker has accepted the connection.
    var isConnected: Bool { shared.state.withLock { $0.connected } }

    public init(_ endpoint: MQTTEndpoint, runtime: Runtime, queueLimit: Int = 1000) throws(ServeError) {
        self.endpoint = endpoint
        self.runtime = runtime
        self.queueLimit = queueLimit
        label = "MQTT to " + endpoint.description
        headingTopic = endpoint.prefix + "/heading"
        headingTopicBytes = Array(headingTopic.utf8)
        writesDirectly = endpoint.tls == nil
        startedAt = runtime.time.monotonic()
        nextRetry = startedAt + 1
        shared = Shared(statusTopic: endpoint.prefix + "/status")
        mosquitto_lib_init()
        guard let h = mosquitto_new(nil, true, Unmanaged.passUnretained(shared).toOpaque()) else {
            mosquitto_lib_cleanup()
            throw .mqtt("cannot create an MQTT client (out of memory?)")
        }
        handle = h
        if let user = endpoint.user { mosquitto_username_pw_set(h, user, endpoint.password) }
        if let tls = endpoint.tls {
            // The key's passphrase callback answers "none": an encrypted key fails to load (said as a
            // TLS error) instead of OpenSSL asking on a terminal a service does not have.
            let rc = mosquitto_tls_set(h, tls.caFile, tls.caFile == nil ? MQTTTLS.systemCAFolder : nil,
                                       tls.certificateFile, tls.keyFile, { _, _, _, _ in 0 })
            // Verify the broker's certificate and its host name (SSL_VERIFY_PEER = 1).
            let rc2 = rc == MOSQ_ERR_SUCCESS.rawValue ? mosquitto_tls_opts_set(h, 1, nil, nil) : rc
            if rc2 != MOSQ_ERR_SUCCESS.rawValue {
                closed = true   // a class whose init throws still runs deinit: destroy once
                mosquitto_destroy(h)
                mosquitto_lib_cleanup()
                throw .mqtt("cannot set up TLS for \(endpoint) with "
                    + [tls.caFile.map { "CA \(sanitize($0))" }, tls.certificateFile.map { "certificate \(sanitize($0))" },
                       tls.keyFile.map { "key \(sanitize($0))" }].compactMap { $0 }.joined(separator: ", ")
                    + ": \(String(cString: mosquitto_strerror(rc2))); check that the files exist and are readable by this user")
            }
        }
        mosquitto_log_callback_set(h) { _, obj, level, text in
            guard let obj, let text, level & Int32(MOSQ_LOG_ERR) != 0 else { return }
            let line = String(cString: text)
            guard line.contains("OpenSSL") || line.contains("TLS") || line.contains("certificate") else { return }
            Unmanaged<Shared>.fromOpaque(obj).takeUnretainedValue().state.withLock {
                if $0.tlsErrors.count < 8 { $0.tlsErrors.append(line) }
            }
        }
        let offline = Array("offline".utf8)
        mosquitto_will_set(h, shared.statusTopic, Int32(offline.count), offline, 1, true)
        mosquitto_reconnect_delay_set(h, 1, 30, true)
        mosquitto_connect_callback_set(h) { mosq, obj, rc in
            guard let obj else { return }
            let shared = Unmanaged<Shared>.fromOpaque(obj).takeUnretainedValue()
            if rc == 0 {
                let online = Array("online".utf8)
                mosquitto_publish(mosq, nil, shared.statusTopic, Int32(online.count), online, 1, true)
            }
            shared.state.withLock {
                $0.connected = rc == 0
                if rc == 0 {
                    $0.notes.append($0.everConnected ? "reconnected to the MQTT broker" : "connected to the MQTT broker")
                    $0.everConnected = true
                    $0.lastRefusal = nil
                } else if $0.lastRefusal != UInt8(truncatingIfNeeded: rc) {
                    $0.lastRefusal = UInt8(truncatingIfNeeded: rc)
                    $0.notes.append(MQTTSink.refusal(rc))
                }
            }
        }
        mosquitto_disconnect_callback_set(h) { _, obj, rc in
            guard let obj else { return }
            let shared = Unmanaged<Shared>.fromOpaque(obj).takeUnretainedValue()
            shared.state.withLock {
                if $0.connected && rc != 0 { $0.notes.append("lost the MQTT broker; reconnecting (updates are dropped until then)") }
                if !$0.connected && rc != 0 { $0.droppedBeforeAnswer += 1 }
                $0.connected = false
            }
        }
        mosquitto_publish_callback_set(h) { _, obj, _ in
            guard let obj else { return }
            Unmanaged<Shared>.fromOpaque(obj).takeUnretainedValue().state.withLock { $0.written += 1 }
        }
        errno = 0
        let rc = mosquitto_connect_async(h, endpoint.host, Int32(endpoint.port), 30)
        let connectErrno = errno
        // ERRNO (refused, unreachable) and TLS (a handshake that failed at once) are retried, and said
        // by service; anything else is a set-up mistake.
        if rc != MOSQ_ERR_SUCCESS.rawValue && rc != MOSQ_ERR_ERRNO.rawValue && rc != MOSQ_ERR_TLS.rawValue {
            closed = true   // a class whose init throws still runs deinit: destroy once
            mosquitto_destroy(h)
            mosquitto_lib_cleanup()
            if rc == MOSQ_ERR_EAI.rawValue {
                throw .mqtt("cannot resolve the MQTT broker's host '\(sanitize(endpoint.host))'; check the name, or use its IP address")
            }
            throw .mqtt("cannot connect to the MQTT broker at \(endpoint): \(String(cString: mosquitto_strerror(rc)))")
        }
        connectFailedTLS = rc == MOSQ_ERR_TLS.rawValue || (endpoint.tls != nil && Self.isReset(connectErrno))
        if !connectFailedTLS && (rc == MOSQ_ERR_ERRNO.rawValue || Self.isNetworkErrno(connectErrno)) { networkFailures += 1 }
    }

    deinit { close() }

    public func publish(_ report: HeadingReport, fix: FixReport?) {
        single.reset(report, fix: fix)
        publish(single)
    }

    /// The heading (the update's JSON, as the JSON lines carry it: the current fix under "fix"),
    /// copied into a buffer the sink keeps, to a topic made once. Over plain
    /// TCP, while libmosquitto has nothing waiting to go out, the update is written to the broker's
    /// socket as a QoS 0 PUBLISH packet of our own (`MQTTPublishPacket`), one `send`; otherwise it
    /// goes through `mosquitto_publish`, which queues it in order behind what waits. Why: each
    /// `mosquitto_publish` also wrote a byte to the library's internal wake-up socket pair (to rouse
    /// a network thread this sink does not use), a second system call per update that cost about
    /// a tenth of the whole sink. A packet the socket takes only in part is finished before anything
    /// else goes to the broker (`flushDirect`); while it waits, updates are dropped and counted.
    public func publish(_ message: HeadingMessage) {
        payload.removeAll(keepingCapacity: true)
        message.appendJSON(to: &payload)
        guard writesDirectly, shared.state.withLock({ $0.connected }) else {
            send(topic: headingTopic, payload)
            return
        }
        guard flushDirect() else { dropped += 1; return }
        let fd = mosquitto_socket(handle)
        guard fd >= 0, !mosquitto_want_write(handle) else {
            send(topic: headingTopic, payload)
            return
        }
        packet.removeAll(keepingCapacity: true)
        unsentFrom = 0
        guard MQTTPublishPacket.append(topic: headingTopicBytes, payload: payload, to: &packet) else { dropped += 1; return }
        directlyWritten += 1
        _ = flushDirect()
    }

    /// Sends what the socket takes of the packet written directly; true when none of it is left.
    /// A socket that fails for good (the broker went away) drops the rest, and libmosquitto's next
    /// read (at the next turn) finds the connection lost.
    private func flushDirect() -> Bool {
        guard unsentFrom < packet.count else { return true }
        let fd = mosquitto_socket(handle)
        while fd >= 0, unsentFrom < packet.count {
            let n = packet.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + unsentFrom, $0.count - unsentFrom, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if n > 0 { unsentFrom += n; continue }
            let e = errno
            if n < 0 && e == EINTR { continue }
            if n < 0 && (e == EAGAIN || e == EWOULDBLOCK) { return false }
            break
        }
        if unsentFrom < packet.count {
            // The connection failed: what is left of the packet goes with it.
            dropped += 1
            nextRead = -.infinity
        }
        packet.removeAll(keepingCapacity: true)
        unsentFrom = 0
        return true
    }

    /// A broker that took nothing for `stallLimit`: as libmosquitto's keep-alive would, the connection
    /// is given up (said) and made again at once; the half-sent packet goes with it (the broker
    /// publishes the last will, "offline", and "online" follows when it answers again).
    private func abandonStalledConnection(now: Double) {
        dropUnsent()
        stalledSince = nil
        shared.state.withLock {
            if $0.connected { $0.notes.append("the MQTT broker took nothing for \(Int(Self.stallLimit)) s; reconnecting (updates are dropped until then)") }
            $0.connected = false
        }
        for note in shared.state.withLock({ s -> [String] in defer { s.notes.removeAll() }; return s.notes }) {
            runtime.say(note + " (" + endpoint.description + ")")
        }
        // Closes the stalled socket and connects anew (no DISCONNECT: it would follow half a packet).
        _ = mosquitto_reconnect_async(handle)
        nextRetry = now + retryDelay
    }

    /// Forgets a packet written directly and left half sent (the connection it was on is gone).
    private func dropUnsent() {
        if unsentFrom < packet.count { dropped += 1 }
        packet.removeAll(keepingCapacity: true)
        unsentFrom = 0
    }

    public func publish(fix: FixReport) { send("fix", ReportJSON.fix(fix).serialized()) }

    public func publish(event: String, message: String, wall: Double) {
        sendOrKeep("event", ReportJSON.event(event, message: message, wall: wall).serialized())
    }

    public func publish(region: RegionReport) {
        sendOrKeep("region", ReportJSON.region(region).serialized())
        if let state = region.state { sendOrKeep("region/" + Self.topicLevel(region.region), state, retained: true) }
    }

    /// A name made one topic level: `/` (a level separator), `+` and `#` (wildcards) and control
    /// characters become `_`; an empty name is "_".
    static func topicLevel(_ name: String) -> String {
        let level = String(String.UnicodeScalarView(name.unicodeScalars.map {
            "/+#".unicodeScalars.contains($0) || $0.properties.generalCategory == .control ? "_" : $0
        }))
        return level.isEmpty ? "_" : level
    }

    /// Sends now when connected, else keeps it (at most 16) for when the broker answers.
    private func sendOrKeep(_ topic: String, _ payload: String, retained: Bool = false) {
        if shared.state.withLock({ $0.connected }) {
            send(topic, payload, retained: retained)
        } else if pendingEvents.count < 16 {
            pendingEvents.append((topic, payload, retained))
        } else {
            dropped += 1
        }
    }

    /// errno values of a connection the broker made and then ended: over TLS, a handshake it refused
    /// (TLS 1.3 tells a client without the certificate it wants only after the client's side of
    /// the handshake is done, so the client's first write meets a reset), or one OpenSSL failed
    /// (libmosquitto sets EPROTO; OpenSSL's own words do not always reach the log callback).
    static func isReset(_ e: Int32) -> Bool { e == ECONNRESET || e == EPIPE || e == EPROTO }

    /// errno values that mean the broker cannot be reached at all.
    static func isNetworkErrno(_ e: Int32) -> Bool {
        [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT, EHOSTDOWN].contains(e)
    }

    /// What a refused connection (CONNACK return code) means, and what to do.
    static func refusal(_ rc: Int32) -> String {
        switch rc {
        case 4:
            return "the MQTT broker refused the login: bad user name or password; check the user in the URL and the "
                + "password (--mqtt-password-file FILE or LODESTONE_MQTT_PASSWORD)"
        case 5:
            // mosquitto answers 5 to a wrong password too.
            return "the MQTT broker refused the login: not authorised (a wrong user name or password, none given where the broker "
                + "needs one, or a user it does not let in); check the user in the URL (mqtts://USER@HOST/PREFIX) and the password "
                + "(--mqtt-password-file FILE or LODESTONE_MQTT_PASSWORD)"
        default:
            return "the MQTT broker refused the connection: \(String(cString: mosquitto_connack_string(rc)))"
        }
    }

    /// What a failed TLS handshake means, from OpenSSL's words.
    func tlsFailure(_ errors: [String]) -> String {
        let detail = errors.first.map { sanitize($0) } ?? "the TLS handshake failed"
        let joined = errors.joined(separator: " ").lowercased()
        if joined.contains("certificate required") || joined.contains("peer did not return a certificate") {
            return "the MQTT broker wants a TLS client certificate (\(detail)); give it with --mqtt-cert FILE and --mqtt-key FILE"
        }
        if joined.contains("certificate verify failed") || joined.contains("verify") {
            let ca = endpoint.tls?.caFile.map { "the CA in \(sanitize($0))" } ?? "the system's CAs (\(MQTTTLS.systemCAFolder))"
            return "the MQTT broker's certificate does not verify against \(ca), or does not name the host '\(sanitize(endpoint.host))' "
                + "(\(detail)); give the CA that signed it with --mqtt-ca FILE and connect by a name the certificate holds"
        }
        return "the TLS connection to the MQTT broker failed (\(detail)); check that the port is the broker's TLS listener, "
            + "and the --mqtt-ca, --mqtt-cert and --mqtt-key files"
    }

    /// How often a connected sink with nothing queued runs libmosquitto's whole loop (a `select`
    /// and a read: the broker's answers, which for QoS 0 updates are only its pings'), seconds.
    /// Between, only the keep-alive bookkeeping runs (`mosquitto_loop_misc`, no system call unless
    /// a ping is due): at every turn the whole loop cost two system calls for nothing.
    public static let readInterval = 1.0

    /// Says on stderr what the network thread noticed; warns once when the broker never answered.
    public func service(now: Double) {
        // A packet written directly and not yet taken whole goes first; while it waits, libmosquitto
        // (which could write a ping or a queued message between its bytes) is left alone.
        if shared.state.withLock({ $0.connected }) {
            guard flushDirect() else {
                let since = stalledSince ?? now
                stalledSince = since
                if now - since >= Self.stallLimit { abandonStalledConnection(now: now) }
                return
            }
            stalledSince = nil
        } else {
            dropUnsent()
            stalledSince = nil
        }
        if now < nextRead, shared.state.withLock({ $0.connected }), !mosquitto_want_write(handle) {
            mosquitto_loop_misc(handle)
            return
        }
        nextRead = now + Self.readInterval
        // Reads the broker's answers, writes what is queued, sends pings; never waits (timeout 0).
        errno = 0
        let rc = mosquitto_loop(handle, 0, 1)
        let loopErrno = errno
        // Only a failure below the connection counts as unreachable: a reset after the connection
        // was made (the broker ending a TLS handshake it refused) is not.
        let reset = rc == MOSQ_ERR_ERRNO.rawValue && Self.isReset(loopErrno)
        if rc == MOSQ_ERR_ERRNO.rawValue && !reset { networkFailures += 1 }
        let (notes, everConnected, tlsErrors) = shared.state.withLock { s -> ([String], Bool, [String]) in
            defer { s.notes.removeAll(); s.tlsErrors.removeAll() }
            return (s.notes, s.everConnected, s.tlsErrors)
        }
        for note in notes { runtime.say(note + " (" + endpoint.description + ")") }
        // Over TLS, a connection the broker drops before it ever answered is the handshake refused
        // (a client certificate missing or not trusted, TLS 1.3 says so only after its handshake),
        // even when OpenSSL's words did not reach us.
        let refusedLogin = shared.state.withLock { $0.lastRefusal != nil }
        let droppedInHandshake = !everConnected && !refusedLogin && networkFailures == 0
            && (rc == MOSQ_ERR_CONN_LOST.rawValue || reset)
        if endpoint.tls != nil && (rc == MOSQ_ERR_TLS.rawValue || !tlsErrors.isEmpty || connectFailedTLS || droppedInHandshake) {
            connectFailedTLS = false
            let text = tlsFailure(tlsErrors)
            if text != saidTLSFailure {
                saidTLSFailure = text
                runtime.say(text + " (" + endpoint.description + "); retrying by itself")
            }
        }
        // Over plain TCP, a peer that takes the connection and ends it before answering the login,
        // with no refusal below it, is no MQTT broker on that port (a TLS listener, another service).
        let droppedLogin = shared.state.withLock { $0.droppedBeforeAnswer > 0 }
        if endpoint.tls == nil && droppedLogin && !everConnected && !refusedLogin && networkFailures == 0 && !saidDroppedLogin {
            saidDroppedLogin = true
            runtime.say("\(endpoint) accepted the connection and closed it before answering the MQTT login: "
                + "is that port a TLS listener (then use mqtts://HOST:PORT/PREFIX), or not an MQTT broker? "
                + "Check the URL's port (1883 plain, 8883 TLS); retrying by itself, updates are dropped until it answers")
        }
        let connected = shared.state.withLock { $0.connected }
        if connected {
            retryDelay = 1
            for e in pendingEvents { send(e.topic, e.payload, retained: e.retained) }
            pendingEvents.removeAll()
        } else if now >= nextRetry {
            errno = 0
            // Over TLS libmosquitto answers success even when the connection was refused; errno tells.
            let retry = mosquitto_reconnect_async(handle)
            let retryErrno = errno
            if endpoint.tls != nil && Self.isReset(retryErrno) {
                connectFailedTLS = true   // said at the next turn, as a TLS failure
            } else if retry == MOSQ_ERR_ERRNO.rawValue || Self.isNetworkErrno(retryErrno) {
                networkFailures += 1
            }
            nextRetry = now + retryDelay
            retryDelay = min(8, retryDelay * 2)
        }
        let refused = shared.state.withLock { $0.lastRefusal != nil }
        // Unreachable: a connection refused or failed below TLS, and no TLS or login failure said; or
        // nothing at all for 15 s (a connection that never completes).
        let waited = now - startedAt
        if !everConnected && !warnedUnreachable && saidTLSFailure == nil && !refused && !saidDroppedLogin
            && ((networkFailures > 0 && waited > 3) || waited > 15) {
            warnedUnreachable = true
            runtime.say("cannot reach the MQTT broker at \(endpoint) (is it running, and is the host and port right?); "
                + "retrying by itself, updates are dropped until it answers")
        }
    }

    /// The broker never answered in the whole run, for a reason already said: refused login, a
    /// TLS handshake that failed, a peer that drops the login, or no broker there. (A run too short
    /// to have said anything yet is not counted.)
    public var unreached: String? {
        let (everConnected, refused) = shared.state.withLock { ($0.everConnected, $0.lastRefusal != nil) }
        guard !everConnected else { return nil }
        let why: String
        // Worded apart from what was said during the run (each said once).
        if refused { why = "its login was turned down" }
        else if saidTLSFailure != nil { why = "the TLS handshake never succeeded" }
        else if saidDroppedLogin { why = "the peer closed every connection before answering the login" }
        else if warnedUnreachable { why = "it could not be reached" }
        else { return nil }
        return "nothing was published to the MQTT broker at \(endpoint): \(why) for the whole run (see above)"
    }

    private func send(_ topic: String, _ payload: String, retained: Bool = false) {
        send(topic: endpoint.prefix + "/" + topic, Array(payload.utf8), retained: retained)
    }

    /// Publishes `bytes` to the whole topic `topic` (the prefix included), or counts it dropped.
    private func send(topic: String, _ bytes: [UInt8], retained: Bool = false) {
        let (connected, written) = shared.state.withLock { ($0.connected, $0.written) }
        guard connected, flushDirect(), published - written < queueLimit else { dropped += 1; return }
        let rc = mosquitto_publish(handle, nil, topic, Int32(bytes.count), bytes, retained ? 1 : 0, retained)
        if rc == MOSQ_ERR_SUCCESS.rawValue { published += 1 } else { dropped += 1 }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        // A packet written directly and left half sent would garble what follows: then the connection
        // is only closed (the broker publishes the last will, "offline").
        let whole = flushDirect()
        let connected = shared.state.withLock { $0.connected } && whole
        if connected {
            let offline = Array("offline".utf8)
            mosquitto_publish(handle, nil, shared.statusTopic, Int32(offline.count), offline, 1, true)
        }
        if whole { mosquitto_disconnect(handle) }
        // Let the last messages and the DISCONNECT go out (at most 1 s).
        for _ in 0..<50 where connected && mosquitto_want_write(handle) {
            _ = mosquitto_loop(handle, 20, 1)
        }
        mosquitto_destroy(handle)
        mosquitto_lib_cleanup()
    }
}
