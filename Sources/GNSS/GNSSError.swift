import Platform

/// What went wrong talking to gpsd, with what to do about it.
///
/// ```swift
/// let e = GNSSError.cannotConnect(GpsdAddress.default)
/// print(e.message)   // "cannot reach gpsd at 127.0.0.1:2947: is it running? …"
/// ```
public enum GNSSError: UserFacingError, Equatable, Sendable {
    /// The TCP connection to gpsd was refused or failed.
    case cannotConnect(GpsdAddress)
    /// gpsd's host name could not be resolved (a typo, no DNS yet).
    case cannotResolve(GpsdAddress)
    /// gpsd accepted the connection but the watch request could not be sent.
    case watchFailed(GpsdAddress)
    /// The connection to gpsd closed or failed while streaming.
    case connectionLost(GpsdAddress)
    /// The peer accepted the connection and closed it before sending anything.
    case closedAtOnce(GpsdAddress)
    /// The peer sent a line longer than any gpsd report (libgps cannot read past it).
    case lineTooLong(GpsdAddress)
    /// The peer accepted the connection but did not greet as gpsd does: it sent nothing
    /// (`silent`), or a first line that is not gpsd's JSON.
    case notGpsd(GpsdAddress, silent: Bool)
    /// A line from gpsd that is not JSON (the start of the line, the parser's complaint).
    case malformedReport(String, String)
    /// gpsd answered with an ERROR message.
    case gpsdError(String)
    /// A `--gpsd` value that is not HOST, HOST:PORT or [IPv6]:PORT.
    case invalidAddress(String)

    public var message: String {
        switch self {
        case .cannotConnect(let a):
            return "cannot reach gpsd at \(a): is it running? 'sudo systemctl start gpsd' "
                + "(and 'sudo systemctl enable gpsd' to start it at boot); check --gpsd HOST:PORT, "
                + "or use --simulate to try Lodestone without a receiver"
        case .cannotResolve(let a):
            return "cannot resolve gpsd's host '\(sanitize(a.host))': check the name in --gpsd HOST:PORT, or give its IP "
                + "address, e.g. 127.0.0.1:2947"
        case .watchFailed(let a):
            return "gpsd at \(a) accepted the connection but not the watch request; "
                + "check that it is gpsd (not another service) on that port, and its log ('journalctl -u gpsd')"
        case .connectionLost(let a):
            return "lost the connection to gpsd at \(a): it stopped or restarted; "
                + "retrying (check 'systemctl status gpsd')"
        case .closedAtOnce(let a):
            return "\(a) accepted the connection and closed it without sending anything: that is not how gpsd "
                + "answers; check --gpsd HOST:PORT (gpsd listens on 2947) and gpsd's log ('journalctl -u gpsd'); retrying"
        case .lineTooLong(let a):
            return "\(a) sent a line longer than any gpsd report, which cannot be read; reconnecting "
                + "(check that the port is gpsd's, and gpsd's log: 'journalctl -u gpsd')"
        case .notGpsd(let a, let silent):
            return "\(a) accepted the connection but "
                + (silent ? "said nothing, where gpsd greets each client at once" : "answered with something other than gpsd's JSON")
                + ": it is not gpsd; check --gpsd HOST:PORT (gpsd listens on 2947) and that gpsd runs ('systemctl status gpsd'); retrying"
        case .malformedReport(let line, let why):
            return "gpsd sent a line that is not JSON (\(why)): \(line); is that port really gpsd?"
        case .gpsdError(let text):
            return "gpsd reported an error: \(text)"
        case .invalidAddress(let text):
            return "invalid gpsd address '\(argumentExcerpt(text))': expected HOST, HOST:PORT or [IPv6]:PORT, "
                + "e.g. 127.0.0.1:2947"
        }
    }

    /// gpsd could not be reached at all (refused, its name did not resolve, or what answers on the
    /// port is not gpsd), as against lost.
    public var isUnreachable: Bool {
        switch self {
        case .cannotConnect, .cannotResolve, .notGpsd: return true
        default: return false
        }
    }

    public var exitCode: ExitCode {
        switch self {
        case .cannotConnect, .cannotResolve, .watchFailed, .connectionLost, .closedAtOnce, .lineTooLong, .notGpsd, .gpsdError:
            return .unavailable
        case .malformedReport: return .dataError
        case .invalidAddress: return .usage
        }
    }
}

/// Where gpsd listens: a host name or address, and a TCP port.
///
/// ```swift
/// let a = try GpsdAddress(parsing: "192.168.1.20:2947")
/// let b = GpsdAddress.default      // 127.0.0.1:2947
/// ```
public struct GpsdAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// gpsd's registered port.
    public static let defaultPort = 2947
    /// The local daemon: 127.0.0.1:2947.
    public static let `default` = GpsdAddress(host: "127.0.0.1", port: defaultPort)

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses "HOST", "HOST:PORT", "[IPv6]" or "[IPv6]:PORT"; a bare IPv6 address is accepted too.
    public init(parsing text: String) throws(GNSSError) {
        let trimmed = String(text.filter { $0 != " " })
        guard !trimmed.isEmpty else { throw .invalidAddress(text) }
        var host = trimmed
        var portText: Substring?
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { throw .invalidAddress(text) }
            host = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
            let rest = trimmed[trimmed.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { throw .invalidAddress(text) }
                portText = rest.dropFirst()
            }
        } else if trimmed.filter({ $0 == ":" }).count == 1, let colon = trimmed.firstIndex(of: ":") {
            host = String(trimmed[..<colon])
            portText = trimmed[trimmed.index(after: colon)...]
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-_:%".contains($0)) })
        else { throw .invalidAddress(text) }
        var port = GpsdAddress.defaultPort
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else { throw .invalidAddress(text) }
            port = p
        }
        self.init(host: host, port: port)
    }

    /// "host:port", with brackets around an IPv6 address.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
