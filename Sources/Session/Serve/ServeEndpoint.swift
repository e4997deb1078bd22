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
    /// A serial port (NMEA 0183 only), raw 8N1 at `baud`.
    case serial(path: String, baud: Int)

    /// The baud rates a serial port may be set to; 4800 is NMEA 0183's own (IEC 61162-1), 38400 its
    /// high-speed variant.
    public static let serialBauds = [serialBaud, 9600, 19200, 38400, 57600, 115200]
    /// A serial port's baud rate when `?baud=` does not say.
    public static let serialBaud = 4800
    /// The TCP/UDP ports when a URL does not say: NMEA 0183 over IP (10110, IANA) and Signal K's (8375).
    public static let nmeaPort: UInt16 = 10110
    public static let signalKPort: UInt16 = 8375

    /// Parses `serial:PATH[?baud=N]` or a bare `/dev/…` path (4800 baud).
    public static func parseSerial(_ text: String) throws(InvalidRequest) -> ServeEndpoint? {
        let expected = "serial:/dev/PATH?baud=N (N one of " + serialBauds.map(String.init).joined(separator: ", ")
            + "; \(serialBaud) when left out), e.g. serial:/dev/ttyUSB0?baud=\(serialBaud)"
        var rest: Substring
        if text.lowercased().hasPrefix("serial:") {
            rest = text.dropFirst(7)
            if rest.hasPrefix("//") { rest = rest.dropFirst(2) }
        } else if text.hasPrefix("/dev/") {
            rest = Substring(text)
        } else {
            return nil
        }
        var baud = serialBaud
        if let q = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: q)...]
            rest = rest[..<q]
            guard query.lowercased().hasPrefix("baud="), let value = Int(query.dropFirst(5)), serialBauds.contains(value) else {
                throw InvalidRequest("'\(argumentExcerpt(text))' has no valid baud rate: \(expected)")
            }
            baud = value
        }
        guard rest.hasPrefix("/"), rest.count > 1 else { throw InvalidRequest("'\(argumentExcerpt(text))' names no device: \(expected)") }
        return .serial(path: String(rest), baud: baud)
    }

    /// Parses `tcp://[HOST]:PORT`, `tcp://HOST` (default port) or `udp://HOST:PORT`; the error is what
    /// was expected.
    public static func parse(_ text: String, defaultPort: UInt16) throws(InvalidRequest) -> ServeEndpoint {
        let expected = "tcp://[HOST]:PORT or udp://HOST:PORT, e.g. tcp://:\(defaultPort) or udp://127.0.0.1:\(defaultPort)"
        if let serial = try parseSerial(text) { return serial }
        let lower = text.lowercased()
        let isTCP = lower.hasPrefix("tcp://")
        guard isTCP || lower.hasPrefix("udp://") else { throw InvalidRequest("'\(argumentExcerpt(text))' is not \(expected)") }
        let (host, port) = try hostAndPort(String(text.dropFirst(6)), defaultPort: defaultPort, expected: expected)
        if isTCP { return .tcp(host: host, port: port) }
        guard !host.isEmpty else { throw InvalidRequest("'\(argumentExcerpt(text))' names no host to send to: \(expected)") }
        return .udp(host: host, port: port)
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): return "tcp://\(host.isEmpty ? "0.0.0.0" : sanitize(host)):\(port)"
        case .udp(let host, let port): return "udp://\(sanitize(host)):\(port)"
        case .serial(let path, let baud): return "serial:\(sanitize(path))?baud=\(baud)"
        }
    }

    static func hostAndPort(_ rest: String, defaultPort: UInt16, expected: String) throws(InvalidRequest) -> (String, UInt16) {
        guard !rest.contains("/"), !rest.contains("@") else { throw InvalidRequest("'\(argumentExcerpt(rest))' is not \(expected)") }
        guard let colon = rest.lastIndex(of: ":") else { return (rest, defaultPort) }
        let host = String(rest[..<colon])
        guard let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else {
            throw InvalidRequest("'\(argumentExcerpt(rest))' has no valid port (1–65535): \(expected)")
        }
        return (host, port)
    }
}

/// An MQTT broker and the topic prefix: `mqtt://[USER[:PASSWORD]@]HOST[:PORT]/PREFIX`, or
/// `mqtts://…` for TLS (default port 8883). The user and password are percent-decoded
/// (`p%40ss` is `p@ss`); a password is better given by `--mqtt-password-file` or
/// `LODESTONE_MQTT_PASSWORD` than in the URL, where `ps` shows it to every user.
public struct MQTTEndpoint: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16
    /// Topics are PREFIX/heading, PREFIX/fix, PREFIX/event and PREFIX/status.
    public var prefix: String
    public var user: String?
    public var password: String?
    /// TLS (`mqtts://`), with these files; nil: plain TCP.
    public var tls: MQTTTLS?
    /// The broker's port when the URL does not say: MQTT's (1883), over TLS 8883 (IANA).
    public static let plainPort: UInt16 = 1883
    public static let tlsPort: UInt16 = 8883

    public init(host: String, port: UInt16? = nil, prefix: String = "lodestone", user: String? = nil, password: String? = nil,
                tls: MQTTTLS? = nil) {
        self.host = host
        self.port = port ?? (tls == nil ? Self.plainPort : Self.tlsPort)
        self.prefix = prefix
        self.user = user
        self.password = password
        self.tls = tls
    }

    public static func parse(_ text: String) throws(InvalidRequest) -> MQTTEndpoint {
        let expected = "mqtt://[USER[:PASSWORD]@]HOST[:PORT]/PREFIX or mqtts://… (TLS), e.g. mqtt://127.0.0.1:1883/lodestone"
        let lower = text.lowercased()
        let secure = lower.hasPrefix("mqtts://")
        guard secure || lower.hasPrefix("mqtt://") else { throw InvalidRequest("'\(argumentExcerpt(hidingPassword(text)))' is not \(expected)") }
        var rest = String(text.dropFirst(secure ? 8 : 7))
        var prefix = "lodestone"
        if let slash = rest.firstIndex(of: "/") {
            prefix = String(rest[rest.index(after: slash)...])
            rest = String(rest[..<slash])
            while prefix.hasSuffix("/") { prefix.removeLast() }
            guard !prefix.isEmpty, !prefix.contains("#"), !prefix.contains("+") else {
                throw InvalidRequest("'\(argumentExcerpt(hidingPassword(text)))' needs a topic prefix without wildcards (# +): \(expected)")
            }
        }
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = String(rest[rest.index(after: at)...])
            let rawUser: Substring
            if let colon = credentials.firstIndex(of: ":") {
                rawUser = credentials[..<colon]
                password = try percentDecoded(credentials[credentials.index(after: colon)...], what: "password")
            } else {
                rawUser = credentials
            }
            user = try percentDecoded(rawUser, what: "user name")
            guard user?.isEmpty == false else { throw InvalidRequest("'\(argumentExcerpt(MQTTEndpoint.hidingPassword(text)))' has an empty user name: \(expected)") }
        }
        let (host, port) = try ServeEndpoint.hostAndPort(rest, defaultPort: secure ? tlsPort : plainPort, expected: expected)
        guard !host.isEmpty else { throw InvalidRequest("'\(argumentExcerpt(hidingPassword(text)))' names no broker host: \(expected)") }
        return MQTTEndpoint(host: host, port: port, prefix: prefix, user: user, password: password, tls: secure ? MQTTTLS() : nil)
    }

    /// `%XX` sequences decoded as UTF-8 bytes (RFC 3986); a malformed one, or one that decodes to a
    /// control character or invalid UTF-8, is refused.
    static func percentDecoded(_ text: Substring, what: String) throws(InvalidRequest) -> String {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let utf8 = text.utf8
        while i < utf8.endIndex {
            let b = utf8[i]
            if b == UInt8(ascii: "%") {
                let h = utf8.index(after: i)
                guard h < utf8.endIndex, utf8.index(after: h) < utf8.endIndex,
                      let hi = hexValue(utf8[h]), let lo = hexValue(utf8[utf8.index(after: h)]) else {
                    throw InvalidRequest("the \(what) in the MQTT URL has a '%' not followed by two hex digits "
                        + "(write a literal % as %25)")
                }
                bytes.append(hi << 4 | lo)
                i = utf8.index(h, offsetBy: 2)
            } else {
                bytes.append(b)
                i = utf8.index(after: i)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self), sanitize(decoded) == decoded else {
            throw InvalidRequest("the \(what) in the MQTT URL decodes to invalid UTF-8 or a control character")
        }
        return decoded
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The URL text with a password replaced by ***, for messages.
    public static func hidingPassword(_ text: String) -> String {
        guard let colonSlash = text.firstIndex(of: ":"), text[colonSlash...].hasPrefix("://"),
              let at = text.lastIndex(of: "@") else { return text }
        let start = text.index(colonSlash, offsetBy: 3)
        guard at > start else { return text }
        let credentials = text[start..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }

    /// The URL without the password.
    public var description: String {
        sanitize((tls == nil ? "mqtt://" : "mqtts://") + (user.map { $0 + (password == nil ? "" : ":***") + "@" } ?? "")
                 + "\(host):\(port)/\(prefix)")
    }
}

/// The files of an `mqtts://` connection: the CA that signed the broker's certificate (nil: the
/// system's CAs in /etc/ssl/certs), and a client certificate and key when the broker asks for one.
public struct MQTTTLS: Sendable, Equatable {
    public var caFile: String?
    public var certificateFile: String?
    public var keyFile: String?

    public init(caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }

    /// Where the system keeps its trusted CAs (Debian's ca-certificates).
    public static let systemCAFolder = "/etc/ssl/certs"
}
