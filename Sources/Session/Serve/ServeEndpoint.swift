import Platform

/// Where one `serve` sink publishes, parsed from its URL option.
///
/// ```swift
/// try ServeEndpoint.parse("tcp://:10110", defaultPort: 10110)        // .tcp(host: "", port: 10110)
/// try ServeEndpoint.parse("udp://192.168.1.255:10110", defaultPort: 10110)
/// try MQTTEndpoint.parse("mqtt://user:secret@127.0.0.1:1883/boat")
/// ```
public enum ServeEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// A TCP server we run; host "" listens on every interface.
    case tcp(host: String, port: UInt16)
    /// UDP datagrams we send to host:port.
    case udp(host: String, port: UInt16)

    /// Parses `tcp://[HOST]:PORT`, `tcp://HOST` (default port) or `udp://HOST:PORT`; the error is what
    /// was expected.
    public static func parse(_ text: String, defaultPort: UInt16) throws(InvalidRequest) -> ServeEndpoint {
        let expected = "tcp://[HOST]:PORT or udp://HOST:PORT, e.g. tcp://:\(defaultPort) or udp://127.0.0.1:\(defaultPort)"
        let lower = text.lowercased()
        let isTCP = lower.hasPrefix("tcp://")
        guard isTCP || lower.hasPrefix("udp://") else { throw InvalidRequest("'\(sanitize(text))' is not \(expected)") }
        let (host, port) = try hostAndPort(String(text.dropFirst(6)), defaultPort: defaultPort, expected: expected)
        if isTCP { return .tcp(host: host, port: port) }
        guard !host.isEmpty else { throw InvalidRequest("'\(sanitize(text))' names no host to send to: \(expected)") }
        return .udp(host: host, port: port)
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): return "tcp://\(host.isEmpty ? "0.0.0.0" : sanitize(host)):\(port)"
        case .udp(let host, let port): return "udp://\(sanitize(host)):\(port)"
        }
    }

    static func hostAndPort(_ rest: String, defaultPort: UInt16, expected: String) throws(InvalidRequest) -> (String, UInt16) {
        guard !rest.contains("/"), !rest.contains("@") else { throw InvalidRequest("'\(sanitize(rest))' is not \(expected)") }
        guard let colon = rest.lastIndex(of: ":") else { return (rest, defaultPort) }
        let host = String(rest[..<colon])
        guard let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else {
            throw InvalidRequest("'\(sanitize(rest))' has no valid port (1–65535): \(expected)")
        }
        return (host, port)
    }
}

/// An MQTT broker and the topic prefix: `mqtt://[USER[:PASSWORD]@]HOST[:PORT]/PREFIX`.
public struct MQTTEndpoint: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16
    /// Topics are PREFIX/heading, PREFIX/fix, PREFIX/event and PREFIX/status.
    public var prefix: String
    public var user: String?
    public var password: String?

    public init(host: String, port: UInt16 = 1883, prefix: String = "lodestone", user: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.prefix = prefix
        self.user = user
        self.password = password
    }

    public static func parse(_ text: String) throws(InvalidRequest) -> MQTTEndpoint {
        let expected = "mqtt://[USER:PASSWORD@]HOST[:PORT]/PREFIX, e.g. mqtt://127.0.0.1:1883/lodestone"
        guard text.lowercased().hasPrefix("mqtt://") else { throw InvalidRequest("'\(sanitize(text))' is not \(expected)") }
        var rest = String(text.dropFirst(7))
        var prefix = "lodestone"
        if let slash = rest.firstIndex(of: "/") {
            prefix = String(rest[rest.index(after: slash)...])
            rest = String(rest[..<slash])
            while prefix.hasSuffix("/") { prefix.removeLast() }
            guard !prefix.isEmpty, !prefix.contains("#"), !prefix.contains("+") else {
                throw InvalidRequest("'\(sanitize(text))' needs a topic prefix without wildcards (# +): \(expected)")
            }
        }
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = String(rest[rest.index(after: at)...])
            if let colon = credentials.firstIndex(of: ":") {
                user = String(credentials[..<colon])
                password = String(credentials[credentials.index(after: colon)...])
            } else {
                user = String(credentials)
            }
        }
        let (host, port) = try ServeEndpoint.hostAndPort(rest, defaultPort: 1883, expected: expected)
        guard !host.isEmpty else { throw InvalidRequest("'\(sanitize(text))' names no broker host: \(expected)") }
        return MQTTEndpoint(host: host, port: port, prefix: prefix, user: user, password: password)
    }

    /// The URL without the password.
    public var description: String {
        sanitize("mqtt://" + (user.map { $0 + (password == nil ? "" : ":***") + "@" } ?? "") + "\(host):\(port)/\(prefix)")
    }
}
