import Foundation
import Platform

/// A tmux server of a test's own (`-L` private socket), for driving a real terminal: start a
/// session, type with send-keys, read the screen with capture-pane.
///
/// ```swift
/// let tmux = TmuxServer(executable: try #require(TmuxServer.executablePath))
/// defer { tmux.kill() }
/// try tmux.run(["new-session", "-d", "-s", "dash", "-x", "80", "-y", "24", "sh"])
/// let screen = try tmux.waitFor(5, target: "dash") { $0.contains("$ ") }
/// ```
public final class TmuxServer {
    /// The tmux binary, or nil when tmux is not installed (make test installs it).
    public static let executablePath: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    public static var isAvailable: Bool { executablePath != nil }

    public let executable: String
    public let socket: String
    /// Extra environment for the tmux client (and so for a server it starts).
    public var environment: [String: String]

    public init(executable: String, name: String = "lodestone-test", environment: [String: String] = [:]) {
        self.executable = executable
        socket = "\(name)-\(getpid())-\(UUID().uuidString.prefix(6))"
        self.environment = environment
    }

    /// Runs one tmux command and returns its exit status and output. Spawned directly and reaped
    /// with waitpid, output through a file: the server that new-session starts inherits the
    /// spawner's descriptors, so anything that waits for a pipe to close (as Foundation's Process
    /// does) would hang.
    @discardableResult
    public func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let outputPath = NSTemporaryDirectory() + "\(socket)-\(UUID().uuidString).out"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        closeInheritedDescriptors(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable, "-L", socket, "-u", "-f", "/dev/null"] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let envp = env.map { strdup("\($0.key)=\($0.value)") }
        defer { envp.forEach { free($0) } }
        var pid = pid_t()
        // A clean signal mask and default actions: the server outlives this call and must die on SIGTERM
        // (test threads block signals, and a spawned child would inherit that).
        guard withCleanSpawnAttributes({ posix_spawn(&pid, executable, &actions, $0, argv + [nil], envp + [nil]) }) == 0 else {
            throw CocoaError(.executableLoad)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output)
    }

    /// The visible screen of `target`.
    public func capture(_ target: String) throws -> String { try run(["capture-pane", "-p", "-t", target]).output }

    /// Polls the pane until `condition` holds or `timeout` passes; returns the last capture.
    public func waitFor(_ timeout: Double, target: String, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = try capture(target)
        while !condition(screen) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            screen = try capture(target)
        }
        return screen
    }

    /// Every screen seen while polling until `done` or `timeout`.
    public func screens(_ timeout: Double, target: String, until done: (String) -> Bool) throws -> [String] {
        var screens: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let screen = try capture(target)
            screens.append(screen)
            if done(screen) { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        return screens
    }

    /// Ends the server and everything in it (once: later calls do nothing).
    public func kill() {
        guard !killed else { return }
        killed = true
        _ = try? run(["kill-server"])
    }

    private var killed = false

    /// A server whose test forgot its `defer { tmux.kill() }`, or threw before reaching it, ends too.
    deinit { kill() }
}

/// A path quoted for a POSIX shell.
public func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
