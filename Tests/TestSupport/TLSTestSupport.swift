import Foundation
import Glibc

// A TLS mosquitto for the `serve --mqtt mqtts://` tests: certificates made here by `openssl` (a CA,
// a server certificate for 127.0.0.1 and localhost, a client certificate, and a second CA that
// signed none of them), a password file made by `mosquitto_passwd`, and a broker with a TLS listener
// that refuses anonymous clients.

public let opensslPath: String? = findExecutable("openssl")
public let mosquittoPasswdPath: String? = findExecutable("mosquitto_passwd")
public let tlsToolsMissingMessage = "openssl, mosquitto, mosquitto_passwd or mosquitto_sub is not installed (Debian packages "
    + "openssl, mosquitto and mosquitto-clients); 'make test' installs them — skipping the tests against a TLS broker"
public var tlsToolsPresent: Bool { opensslPath != nil && mosquittoPath != nil && mosquittoPasswdPath != nil && mosquittoSubPath != nil }

/// Runs a tool to its end; throws with its output when it fails.
@discardableResult
public func runTool(_ executable: String, _ arguments: [String], in folder: URL? = nil) throws -> String {
    // In `folder`: through the shell's cd (posix_spawn has no portable working-folder action).
    let child = try folder.map { try PipedChild("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", $0.path, executable] + arguments) }
        ?? PipedChild(executable, arguments)
    let status = child.wait()
    let text = child.stdout + child.stderr
    guard status == 0 else {
        throw NSError(domain: "runTool", code: Int(status),
                      userInfo: [NSLocalizedDescriptionKey: "\(executable) \(arguments.joined(separator: " ")): \(text)"])
    }
    return text
}

/// A CA, a server certificate it signed for 127.0.0.1/localhost, a client certificate it signed, and
/// an unrelated CA, in a temporary folder (removed when released).
public final class TestCertificates {
    public let folder: URL
    public var caCertificate: String { folder.appendingPathComponent("ca.crt").path }
    public var otherCA: String { folder.appendingPathComponent("other-ca.crt").path }
    public var serverCertificate: String { folder.appendingPathComponent("server.crt").path }
    public var serverKey: String { folder.appendingPathComponent("server.key").path }
    public var clientCertificate: String { folder.appendingPathComponent("client.crt").path }
    public var clientKey: String { folder.appendingPathComponent("client.key").path }

    public init() throws {
        folder = try makeTemporaryFolder("lodestone-tls")
        let openssl = opensslPath ?? "/usr/bin/openssl"
        // EC keys: quick to make, as a real fleet's would be.
        func key(_ name: String) throws {
            try runTool(openssl, ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", name], in: folder)
        }
        func ca(_ name: String, _ subject: String) throws {
            try key("\(name).key")
            try runTool(openssl, ["req", "-x509", "-new", "-key", "\(name).key", "-sha256", "-days", "2", "-subj", subject,
                                  "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                                  "-out", "\(name).crt"], in: folder)
        }
        func signed(_ name: String, _ subject: String, extensions: String) throws {
            try key("\(name).key")
            try runTool(openssl, ["req", "-new", "-key", "\(name).key", "-subj", subject, "-out", "\(name).csr"], in: folder)
            try extensions.write(to: folder.appendingPathComponent("\(name).ext"), atomically: true, encoding: .utf8)
            try runTool(openssl, ["x509", "-req", "-in", "\(name).csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                                  "-days", "2", "-sha256", "-extfile", "\(name).ext", "-out", "\(name).crt"], in: folder)
        }
        try ca("ca", "/CN=Lodestone test fleet CA")
        try ca("other-ca", "/CN=Some other CA")
        try signed("server", "/CN=127.0.0.1", extensions: "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
        try signed("client", "/CN=boat1", extensions: "extendedKeyUsage=clientAuth\n")
        // The broker may run as another user (mosquitto drops root): let it read its files.
        chmod(folder.path, 0o755)
        for name in ["server.key", "client.key", "ca.key", "other-ca.key"] { chmod(folder.appendingPathComponent(name).path, 0o644) }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}

/// mosquitto with a TLS listener on 127.0.0.1:port: anonymous clients refused, the users of
/// `users` (user → password) in a password file made by mosquitto_passwd; with
/// `requireClientCertificate`, a client must also show a certificate the CA signed.
public final class TLSMosquittoBroker {
    public let port: UInt16
    public let folder: URL
    let process: BackgroundProcess

    public init(port: UInt16, certificates: TestCertificates, users: [String: String],
                requireClientCertificate: Bool = false) throws {
        self.port = port
        folder = try makeTemporaryFolder("lodestone-mosquitto-tls")
        chmod(folder.path, 0o755)
        let passwords = folder.appendingPathComponent("passwords")
        var first = true
        for (user, password) in users.sorted(by: { $0.key < $1.key }) {
            try runTool(mosquittoPasswdPath ?? "/usr/bin/mosquitto_passwd",
                        (first ? ["-c"] : []) + ["-b", passwords.path, user, password])
            first = false
        }
        chmod(passwords.path, 0o644)
        let config = folder.appendingPathComponent("mosquitto.conf")
        try """
        \(getuid() == 0 ? "user root" : "")
        per_listener_settings false
        allow_anonymous false
        password_file \(passwords.path)
        persistence false
        log_dest stderr
        log_type error
        log_type warning
        log_type notice
        listener \(port) 127.0.0.1
        cafile \(certificates.caCertificate)
        certfile \(certificates.serverCertificate)
        keyfile \(certificates.serverKey)
        require_certificate \(requireClientCertificate)

        """.write(to: config, atomically: true, encoding: .utf8)
        process = try BackgroundProcess(executable: mosquittoPath ?? "/usr/sbin/mosquitto", ["-c", config.path])
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: folder)
    }

    public func waitUntilListening(timeout: Double = 15) -> Bool {
        pollUntil(timeout) { acceptsConnections(port) || !process.isRunning } && process.isRunning
    }

    public func kill() { process.stop(timeout: 0, signal: SIGKILL) }

    public var log: String { process.stderr }
}

/// `mosquitto_sub -v` over TLS, as `user`.
public func tlsSubscriber(port: UInt16, topic: String, certificates: TestCertificates, user: String, password: String,
                          extra: [String] = []) throws -> BackgroundProcess {
    try BackgroundProcess(executable: mosquittoSubPath ?? "/usr/bin/mosquitto_sub",
                          ["-h", "127.0.0.1", "-p", String(port), "--cafile", certificates.caCertificate,
                           "-u", user, "-P", password, "-t", topic, "-v"] + extra)
}
