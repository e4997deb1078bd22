import Foundation
import Glibc
import Platform

/// A program a test starts in a process group of its own, with a clean signal mask and default
/// signal actions (`withCleanSpawnAttributes`), standard input and error on /dev/null and standard
/// output to a file (or /dev/null); only the standard streams are inherited. `kill()` ends the
/// whole group, so nothing it started outlives the test.
///
/// ```swift
/// let child = try SpawnedChild("/usr/bin/gpsfake", ["-1", "log.nmea"], outputPath: "/tmp/out.json")
/// defer { child.kill() }
/// ```
public final class SpawnedChild {
    public let pid: pid_t
    private var exitStatus: Int32?

    public init(_ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                outputPath: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        closeInheritedDescriptors(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let status = withCleanSpawnAttributes(processGroup: 0) { posix_spawn(&pid, executable, &actions, $0, argv, envp) }
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        self.pid = pid
    }

    deinit { kill() }

    /// True until the child has exited (reaps it when it has).
    public var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status; return false }
        return true
    }

    /// Kills the child's whole process group with SIGKILL and reaps the child.
    public func kill() {
        guard isRunning else { return }
        Glibc.kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exitStatus = status
    }
}
