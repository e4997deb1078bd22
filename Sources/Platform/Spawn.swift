import Glibc

/// Runs the user's own command line (`/bin/sh -c COMMAND`) without waiting for it, with extra
/// environment variables. Data from outside never becomes part of the command line: it travels in
/// the environment only. Returns the child's process id, or nil when it cannot be started.
/// The command inherits standard input, output and error only. Reap finished children with
/// `reapChildren()`.
///
/// ```swift
/// spawnShellCommand("notify-send \"$LODESTONE_REGION\"", environment: [("LODESTONE_REGION", "home")])
/// ```
public func spawnShellCommand(_ command: String, environment extra: [(String, String)]) -> pid_t? {
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
    let status = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
    return status == 0 ? pid : nil
}

/// Collects every finished child (non-blocking), so spawned commands leave no zombies.
public func reapChildren() {
    var status: Int32 = 0
    while waitpid(-1, &status, WNOHANG) > 0 {}
}
