import CPosix
import Glibc

/// Accepts a connection on `listener` with close-on-exec set atomically (and non-blocking when asked),
/// so a command spawned meanwhile (a region's `--on-enter`) never inherits the socket and keeps it
/// open after Lodestone closes it. Returns nil when there is nothing to accept or accept fails.
///
/// ```swift
/// while let client = acceptClosingOnExec(listener, nonblocking: true) { clients.append(client) }
/// ```
public func acceptClosingOnExec(_ listener: Int32, nonblocking: Bool) -> Int32? {
    let fd = lodestone_accept_cloexec(listener, nonblocking ? 1 : 0)
    return fd >= 0 ? fd : nil
}

/// Makes a posix_spawn child close every descriptor from 3 up before it runs: a spawned command
/// inherits its standard streams only, never a socket or file of its parent's (which would keep a
/// connection open, or a port bound, after the parent closed its own copy).
public func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
    _ = lodestone_spawn_close_from(&actions, 3)
}
