import Glibc

/// Runs `body` with posix_spawn attributes that start the child clean: an empty signal mask and
/// every signal at its default action (`POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF`). A long-
/// running command blocks SIGINT, SIGTERM, SIGHUP and SIGWINCH to collect them with `sigtimedwait`
/// and ignores SIGPIPE; without this a child would inherit that mask and those dispositions and
/// could then never be stopped with SIGTERM. Every spawn, in the product and in the tests, goes
/// through here. With `processGroup` 0 the child leads a new process group of its own (so the whole
/// group can be signalled); another value joins that group; nil keeps the parent's.
///
/// ```swift
/// let status = withCleanSpawnAttributes { attributes in
///     posix_spawn(&pid, "/bin/sh", &actions, attributes, argv, envp)
/// }
/// ```
public func withCleanSpawnAttributes<R>(processGroup: pid_t? = nil,
                                        _ body: (UnsafePointer<posix_spawnattr_t>) throws -> R) rethrows -> R {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    // Every signal that can have a handler or be ignored goes back to its default action.
    var all = sigset_t()
    sigfillset(&all)
    sigdelset(&all, SIGKILL)
    sigdelset(&all, SIGSTOP)
    posix_spawnattr_setsigdefault(&attributes, &all)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
    if let processGroup {
        posix_spawnattr_setpgroup(&attributes, processGroup)
        flags |= Int32(POSIX_SPAWN_SETPGROUP)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    return try withUnsafePointer(to: &attributes) { try body($0) }
}

/// Runs the user's own command line (`/bin/sh -c COMMAND`) without waiting for it, with extra
/// environment variables. Data from outside never becomes part of the command line: it travels in
/// the environment only. Returns the child's process id, or nil when it cannot be started.
/// The command inherits standard input, output and error only, and starts with an empty signal
/// mask and default signal actions (`withCleanSpawnAttributes`). Reap finished children with
/// `reapChildren()`.
///
/// ```swift
/// spawnShellCommand("notify-send \"$LODESTONE_REGION\"", environment: [("LODESTONE_REGION", "home")])
/// ```
///
/// With `asHook` (a region's `--on-enter`/`--on-exit`), the command also runs in its own process
/// group (so it and everything it starts can be ended together), with every signal at its default
/// action and none blocked (`yes | head` ends quietly), its standard output on our standard error
/// (never in the data stream) and its standard input from /dev/null.
public func spawnShellCommand(_ command: String, environment extra: [(String, String)], asHook: Bool = false) -> pid_t? {
    var names = Set(extra.map(\.0))
    var entries: [String] = extra.map { $0.0 + "=" + $0.1 }
    var cursor = environ
    while let entry = cursor.pointee {
        let text = String(cString: entry)
        let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
        if !names.contains(name) { entries.append(text); names.insert(name) }
        cursor += 1
    }
    let arguments = ["/bin/sh", "-c", command]
    var pid: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = entries.map { strdup($0) } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    closeInheritedDescriptors(&actions)
    if asHook {
        posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    }
    let status = withCleanSpawnAttributes(processGroup: asHook ? 0 : nil) { posix_spawn(&pid, "/bin/sh", &actions, $0, argv, envp) }
    return status == 0 ? pid : nil
}

/// Collects every finished child (non-blocking), so spawned commands leave no zombies.
public func reapChildren() {
    var status: Int32 = 0
    while waitpid(-1, &status, WNOHANG) > 0 {}
}
