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
        pid = try spawnInGroup(executable, arguments, environment: environment, actions: &actions)
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

/// Starts `executable` with `actions`, leading a process group of its own, with a clean signal mask
/// and default signal actions (`withCleanSpawnAttributes`); its process id.
func spawnInGroup(_ executable: String, _ arguments: [String], environment: [String: String],
                  actions: inout posix_spawn_file_actions_t) throws -> pid_t {
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid = pid_t()
    let status = withCleanSpawnAttributes(processGroup: 0) { posix_spawn(&pid, executable, &actions, $0, argv, envp) }
    guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
    return pid
}

/// A program a test starts with its standard input, output and error on pipes of the test's own:
/// posix_spawn with a clean signal mask and default signal actions (`withCleanSpawnAttributes`; the
/// test process may block signals in a thread and ignore SIGPIPE, as a command run in process
/// does, and Foundation's Process would hand the ignored ones on), in a process group of its own,
/// only the standard streams inherited. Its output is collected as it comes, on two threads.
///
/// ```swift
/// let child = try PipedChild("/bin/sh", ["-c", "echo hi"], stdin: nil)
/// let status = child.wait()          // 0
/// child.stdout                       // "hi\n"
/// ```
public final class PipedChild: @unchecked Sendable {
    public let pid: pid_t
    private let out = LockedData(), err = LockedData()
    private let readers = DispatchGroup()
    private let abandoned = LockedValue(false)
    private let lock = NSLock()
    private var status: Int32?

    /// `environment`: the child's whole environment. `stdin`: written to its standard input, which
    /// is then closed (nil: /dev/null).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                stdin: Data? = nil) throws {
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        // Close-on-exec at once (no other spawn of ours inherits them: each closes every descriptor from 3).
        func makePipe(_ ends: inout [Int32]) throws {
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        try makePipe(&outPipe)
        try makePipe(&errPipe)
        if stdin != nil { try makePipe(&inPipe) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if stdin != nil {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        closeInheritedDescriptors(&actions)
        defer {
            // Our copies of the child's ends (its own are in it now).
            Glibc.close(outPipe[1])
            Glibc.close(errPipe[1])
            if stdin != nil { Glibc.close(inPipe[0]) }
        }
        do {
            pid = try spawnInGroup(executable, arguments, environment: environment, actions: &actions)
        } catch {
            [outPipe[0], errPipe[0], inPipe[1]].filter { $0 >= 0 }.forEach { Glibc.close($0) }
            throw error
        }
        collect(outPipe[0], into: out)
        collect(errPipe[0], into: err)
        if let stdin {
            let fd = inPipe[1]
            Thread {
                let bytes = [UInt8](stdin)
                var offset = 0
                while offset < bytes.count {
                    let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    offset += n
                }
                Glibc.close(fd)
            }.start()
        }
    }

    deinit {
        if isRunning { Glibc.kill(-pid, SIGKILL) }
        _ = wait()
    }

    /// Reads `fd` until its end (or until the test gives up on it), then closes it.
    private func collect(_ fd: Int32, into data: LockedData) {
        readers.enter()
        let abandoned = abandoned, readers = readers
        Thread {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while !abandoned.get() {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 100) != 0 else { continue }
                let n = read(fd, &chunk, chunk.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                data.append(Data(chunk[0..<n]))
            }
            Glibc.close(fd)
            readers.leave()
        }.start()
    }

    public var stdout: String { String(decoding: out.value, as: UTF8.self) }
    public var stderr: String { String(decoding: err.value, as: UTF8.self) }

    /// True until the child has exited (reaps it when it has).
    public var isRunning: Bool {
        lock.lock(); defer { lock.unlock() }
        guard status == nil else { return false }
        var s: Int32 = 0
        if waitpid(pid, &s, WNOHANG) == pid { status = s; return false }
        return true
    }

    /// Waits for the child to end and for its output (a grandchild that keeps a stream open is
    /// waited for at most 5 s); its exit status, or the number of the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        lock.lock()
        if status == nil {
            var s: Int32 = 0
            while waitpid(pid, &s, 0) < 0 && errno == EINTR {}
            status = s
        }
        let raw = status ?? 0
        lock.unlock()
        if readers.wait(timeout: .now() + 5) == .timedOut {
            abandoned.set(true)
            readers.wait()
        }
        return wasSignalled ? raw & 0x7F : (raw >> 8) & 0xFF
    }

    /// True when a signal ended the child (once it has ended).
    public var wasSignalled: Bool {
        lock.lock(); defer { lock.unlock() }
        guard let raw = status else { return false }
        return raw & 0x7F != 0 && raw & 0x7F != 0x7F
    }
}

/// `lodestone` with `arguments` under a file-size limit of `blocks` × 512 bytes (`ulimit -f`): a
/// write past it fails with EFBIG, as on a disk that fills (lodestone ignores SIGXFSZ to see it).
public func lodestoneUnderFileSizeLimit(blocks: Int, _ arguments: [String]) throws -> PipedChild {
    try PipedChild("/bin/sh", ["-c", "ulimit -f \(blocks) && exec \"$0\" \"$@\"", lodestoneBinaryPath] + arguments)
}
