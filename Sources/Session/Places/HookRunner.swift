import Glibc
import Platform

/// The processes a `HookRunner` starts and ends: the system's (`SystemHookProcesses`), or a
/// test's, which records them on a manual clock.
public protocol HookProcesses: AnyObject {
    /// Starts `/bin/sh -c COMMAND` in its own process group (whose id is the returned pid), with
    /// default signal dispositions, its output on our standard error; nil when it cannot start.
    func start(_ command: String, environment: [(String, String)]) -> pid_t?
    /// True once the process has ended (reaped without waiting).
    func reap(_ pid: pid_t) -> Bool
    /// True while any process of the group is left (a hook's own background children).
    func groupAlive(_ group: pid_t) -> Bool
    /// Sends `signal` to every process of the group.
    func signal(group: pid_t, _ signal: Int32)
    /// Waits a little (only at exit, while hooks are being ended).
    func pause(seconds: Double)
}

/// Real hook processes (`spawnHookCommand`, `waitpid(WNOHANG)`, `kill(-group)`).
public final class SystemHookProcesses: HookProcesses {
    public init() {}
    public func start(_ command: String, environment: [(String, String)]) -> pid_t? {
        spawnShellCommand(command, environment: environment, asHook: true)
    }
    public func reap(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        return r == pid || (r < 0 && errno == ECHILD)
    }
    public func groupAlive(_ group: pid_t) -> Bool { kill(-group, 0) == 0 }
    public func signal(group: pid_t, _ signal: Int32) { _ = kill(-group, signal) }
    public func pause(seconds: Double) { Clock.sleep(seconds: seconds) }
}

/// Runs the `--on-enter`/`--on-exit` commands of region events, bounded, so a flapping fix or a
/// hostile gpsd cannot fill the machine with processes and no hook can stall the loop:
///
/// - at most `jobs` hooks run at once; events beyond wait, coalesced per region (a later event of
///   a region replaces the one waiting: the latest state wins), and the number coalesced is said
///   on stderr;
/// - a hook still running after `timeout` seconds gets SIGTERM, and SIGKILL `killGrace` seconds
///   later, to its whole process group (each hook has its own);
/// - `poll()` (on every tick of the loop) reaps finished hooks without waiting and starts waiting
///   ones; `finish()` ends every hook still running when Lodestone exits (SIGTERM, then SIGKILL
///   after `exitGrace` seconds, well within the second a stop signal allows).
///
/// ```swift
/// let hooks = HookRunner(time: runtime.time, say: runtime.say)
/// hooks.run("notify-send entered", key: "home", environment: [("LODESTONE_REGION", "home")])
/// hooks.poll()          // each tick
/// hooks.finish()        // at exit
/// ```
public final class HookRunner {
    public struct Limits: Sendable, Equatable {
        public var jobs: Int
        public var timeout: Double
        public var killGrace: Double
        public var exitGrace: Double

        public static let defaultJobs = 4
        public static let defaultTimeout = 30.0

        public init(jobs: Int = Limits.defaultJobs, timeout: Double = Limits.defaultTimeout, killGrace: Double = 2,
                    exitGrace: Double = 0.3) {
            self.jobs = max(1, jobs)
            self.timeout = timeout
            self.killGrace = killGrace
            self.exitGrace = exitGrace
        }
    }

    private struct Running {
        var group: pid_t
        var key: String
        var started: Double
        var leaderEnded = false
        var terminated: Double?
        var killed = false
    }

    private struct Waiting {
        var key: String
        var command: String
        var environment: [(String, String)]
    }

    public let limits: Limits
    private let processes: any HookProcesses
    private let time: any TimeSource
    private let say: (String) -> Void
    private var running: [Running] = []
    private var waiting: [Waiting] = []
    /// Events whose hook was replaced, while waiting, by a later event of the same region.
    public private(set) var coalesced = 0
    /// Hooks stopped by the timeout.
    public private(set) var timedOut = 0
    /// Hooks that could not be started.
    public private(set) var failedToStart = 0
    private var saidCoalescing = false

    public init(limits: Limits = Limits(), processes: any HookProcesses = SystemHookProcesses(), time: any TimeSource,
                say: @escaping (String) -> Void) {
        self.limits = limits
        self.processes = processes
        self.time = time
        self.say = say
    }

    /// How many hooks are running (their process groups not yet gone).
    public var runningCount: Int { running.count }
    /// How many events wait for a free slot (at most one per region).
    public var waitingCount: Int { waiting.count }

    /// Asks for `command` to run for an event of region `key`: now when a slot is free, else it
    /// waits, replacing any event of the same region already waiting.
    public func run(_ command: String, key: String, environment: [(String, String)]) {
        poll()
        if running.count < limits.jobs && waiting.isEmpty {
            start(Waiting(key: key, command: command, environment: environment))
            return
        }
        let event = Waiting(key: key, command: command, environment: environment)
        if let i = waiting.firstIndex(where: { $0.key == key }) {
            waiting[i] = event
            coalesced += 1
            if !saidCoalescing {
                saidCoalescing = true
                say("\(limits.jobs) region hooks are running (--hook-jobs \(limits.jobs)): later events wait, "
                    + "and a region's waiting event is replaced by its newer one (the count is given at the end)")
            }
        } else {
            waiting.append(event)
        }
    }

    /// Reaps finished hooks (never waiting), applies the timeout, and starts waiting hooks.
    public func poll() {
        let now = time.monotonic()
        var i = 0
        while i < running.count {
            if !running[i].leaderEnded && processes.reap(running[i].group) { running[i].leaderEnded = true }
            // Gone when the shell has ended and nothing of its group is left; a group that got
            // SIGKILL counts as gone too (what is left of it are zombies for init to collect).
            if running[i].leaderEnded && (running[i].killed || !processes.groupAlive(running[i].group)) {
                running.remove(at: i)
                continue
            }
            if let terminated = running[i].terminated {
                if now - terminated >= limits.killGrace && !running[i].killed {
                    processes.signal(group: running[i].group, SIGKILL)
                    running[i].killed = true
                }
            } else if now - running[i].started >= limits.timeout {
                processes.signal(group: running[i].group, SIGTERM)
                running[i].terminated = now
                timedOut += 1
                say("the hook for \(running[i].key) ran longer than --hook-timeout \(plain(limits.timeout)) s: stopped")
            }
            i += 1
        }
        while running.count < limits.jobs, !waiting.isEmpty {
            start(waiting.removeFirst())
        }
    }

    /// Ends every hook still running (SIGTERM to each group, SIGKILL to what is left after
    /// `exitGrace`), drops the waiting ones, and says what was coalesced, stopped or not run.
    public func finish() {
        poll()
        let dropped = waiting.count
        waiting.removeAll()
        if !running.isEmpty {
            for r in running { processes.signal(group: r.group, SIGTERM) }
            let steps = max(1, Int((limits.exitGrace / 0.02).rounded(.up)))
            for _ in 0..<steps {
                reapEnded()
                if running.isEmpty { break }
                processes.pause(seconds: 0.02)
            }
            for i in running.indices {
                processes.signal(group: running[i].group, SIGKILL)
                running[i].killed = true
            }
            for _ in 0..<50 {
                reapEnded()
                if running.isEmpty { break }
                processes.pause(seconds: 0.02)
            }
        }
        var notes: [String] = []
        if coalesced > 0 { notes.append("\(coalesced) region event\(coalesced == 1 ? "" : "s") coalesced (a newer event of the region replaced \(coalesced == 1 ? "it" : "them"))") }
        if dropped > 0 { notes.append("\(dropped) waiting hook\(dropped == 1 ? "" : "s") not run at exit") }
        if timedOut > 0 { notes.append("\(timedOut) stopped by --hook-timeout") }
        if failedToStart > 0 { notes.append("\(failedToStart) could not be started") }
        if !notes.isEmpty { say("hooks: " + notes.joined(separator: "; ")) }
    }

    private func reapEnded() {
        for i in running.indices where !running[i].leaderEnded && processes.reap(running[i].group) {
            running[i].leaderEnded = true
        }
        running.removeAll { $0.leaderEnded && ($0.killed || !processes.groupAlive($0.group)) }
    }

    private func start(_ event: Waiting) {
        guard let pid = processes.start(event.command, environment: event.environment) else {
            failedToStart += 1
            if failedToStart == 1 { say("cannot start the hook for \(event.key) (/bin/sh): \(Errno.current)") }
            return
        }
        running.append(Running(group: pid, key: event.key, started: time.monotonic()))
    }
}
