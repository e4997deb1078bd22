import Foundation
import Platform
import Glibc

/// What a run of `lodestone` under a memory limit ended with.
public struct LimitedRun {
    public var status: Int32
    public var stderr: String
}

/// Runs `lodestone` with `arguments` under a data-segment limit (`ulimit -d`, which covers the heap
/// and private mappings), standard input and output on /dev/null; stops it after `timeout` s. A
/// process that needs more memory than the limit fails to allocate and crashes (status ≥ 128).
///
/// A limit, not a measurement: a spawned child's getrusage peak starts from its parent's, since
/// posix_spawn shares the parent's memory until exec.
public func runLodestoneLimited(_ arguments: [String], dataLimitKiB: Int, timeout: Double = 60) throws -> LimitedRun {
    let folder = try makeTemporaryFolder("measured")
    defer { try? FileManager.default.removeItem(at: folder) }
    let errPath = folder.appendingPathComponent("stderr").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    closeInheritedDescriptors(&actions)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let script = "ulimit -d \(dataLimitKiB) && exec \"$0\" \"$@\""
    let argv = (["/bin/sh", "-c", script, lodestoneBinaryPath] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = withCleanSpawnAttributes { posix_spawn(&pid, "/bin/sh", &actions, $0, argv, environ) }
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    var status: Int32 = 0
    var usage = rusage()
    let start = Date()
    while true {
        let r = wait4(pid, &status, WNOHANG, &usage)
        if r == pid { break }
        if r < 0 && errno != EINTR { throw POSIXError(.ECHILD) }
        if Date().timeIntervalSince(start) > timeout { kill(pid, SIGKILL) }
        usleep(10_000)
    }
    // WIFEXITED / WEXITSTATUS, which Swift does not import.
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    return LimitedRun(status: exitStatus, stderr: stderr)
}
