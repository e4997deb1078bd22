import Glibc
import Platform

/// Where an MQTT connection's secrets come from, besides the URL: the password from a file
/// (`--mqtt-password-file`, its first line) or the `LODESTONE_MQTT_PASSWORD` variable, so it need
/// not sit in the command line, where `ps` shows it to every user, or in a world-readable
/// configuration; and the TLS files (`--mqtt-ca`, `--mqtt-cert`, `--mqtt-key`) for `mqtts://`.
///
/// ```swift
/// let options = MQTTOptions(passwordFile: "/etc/lodestone/mqtt-password", caFile: "/etc/lodestone/ca.crt")
/// let endpoint = try options.resolve(MQTTEndpoint.parse("mqtts://boat1@broker.example:8883/fleet/boat1"), runtime: runtime)
/// ```
public struct MQTTOptions: Sendable, Equatable {
    public var passwordFile: String?
    public var caFile: String?
    public var certificateFile: String?
    public var keyFile: String?

    /// The variable a password may come from when neither the URL nor a file gives one.
    public static let passwordVariable = "LODESTONE_MQTT_PASSWORD"

    public init(passwordFile: String? = nil, caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil) {
        self.passwordFile = passwordFile
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }

    /// True when any TLS file is given (they need an `mqtts://` URL).
    public var hasTLSFiles: Bool { caFile != nil || certificateFile != nil || keyFile != nil }

    /// The endpoint with its password and TLS files filled in; the files are checked now, so a
    /// mistake is said at start with what to do, not as a TLS failure later.
    /// Errors: two passwords, or a password without a user (`InvalidRequest`, 64); a file that cannot
    /// be read (`ServeError.unreadable`, 74) or is not what it should be (`ServeError.badFile`, 65).
    public func resolve(_ endpoint: MQTTEndpoint, runtime: Runtime) throws -> MQTTEndpoint {
        var e = endpoint
        if let path = passwordFile {
            guard e.password == nil else {
                throw InvalidRequest("\(endpoint) has a password in the URL and --mqtt-password-file gives another: give one of them")
            }
            guard e.user != nil else {
                throw InvalidRequest("--mqtt-password-file needs a user name in the URL: mqtt://USER@HOST/PREFIX (\(endpoint))")
            }
            e.password = try Self.readPassword(path, runtime: runtime)
        } else if e.password == nil, e.user != nil, let value = runtime.environment.value(Self.passwordVariable), !value.isEmpty {
            e.password = value
        } else if e.password != nil {
            runtime.say("the MQTT password is in the command line, where 'ps' shows it to every user; "
                + "give it with --mqtt-password-file FILE or \(Self.passwordVariable) instead")
        }
        if e.tls != nil {
            for path in [caFile, certificateFile, keyFile].compactMap({ $0 }) { try Self.checkPEM(path) }
            e.tls = MQTTTLS(caFile: caFile, certificateFile: certificateFile, keyFile: keyFile)
        }
        return e
    }

    /// The most of a password file or a TLS file that is read: a password is a line, a PEM chain a
    /// few kilobytes (`/dev/zero` given by mistake read a gigabyte before).
    static let passwordFileLimit = 64 * 1024
    static let pemFileLimit = 1 << 20

    /// The first line of the file, without its line end. Says when other users may read it.
    static func readPassword(_ path: String, runtime: Runtime) throws(ServeError) -> String {
        let text: String
        do {
            text = try Files.readText(path, limit: passwordFileLimit)
        } catch {
            throw .unreadable("the MQTT password file", error)
        }
        // The first line, ended by LF, CR LF (one Character in Swift) or CR.
        let password = text.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !password.isEmpty else {
            throw .badFile("the MQTT password file \(sanitize(path)) is empty: write the password on its first line")
        }
        var info = stat()
        if stat(path, &info) == 0 && info.st_mode & 0o004 != 0 {
            runtime.say("the MQTT password file \(sanitize(path)) is readable by every user; "
                + "make it private: chmod 0640 \(sanitize(path)) (group lodestone for the service)")
        }
        return password
    }

    /// A TLS file must be readable and hold PEM ("-----BEGIN …").
    static func checkPEM(_ path: String) throws(ServeError) {
        let text: String
        do {
            text = try Files.readText(path, limit: pemFileLimit)
        } catch {
            throw .unreadable("a TLS file for MQTT", error)
        }
        guard text.contains("-----BEGIN ") else {
            throw .badFile("\(sanitize(path)) is not a PEM file (no '-----BEGIN' line): give the CA, certificate or key in PEM form")
        }
    }
}
