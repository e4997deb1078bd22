import Foundation
import Glibc
import Platform
import Testing
@testable import Session

/// Hook processes on a manual clock: each started hook is a group that lives until the test ends
/// it (or it gets a signal), recorded with the signals it got.
final class FakeHookProcesses: HookProcesses {
    struct Hook { var command: String; var environment: [(String, String)]; var signals: [Int32] = []; var ended = false }
    var hooks: [pid_t: Hook] = [:]
    var order: [pid_t] = []
    var next: pid_t = 1000
    var peakRunning = 0
    /// Ends on SIGTERM (false: a hook that ignores it and needs SIGKILL).
    var obeysTerm = true
    let clock: ManualClock
    init(clock: ManualClock) { self.clock = clock }

    var running: Int { hooks.values.filter { !$0.ended }.count }
    func start(_ command: String, environment: [(String, String)]) -> pid_t? {
        next += 1
        hooks[next] = Hook(command: command, environment: environment)
        order.append(next)
        peakRunning = max(peakRunning, running)
        return next
    }
    func reap(_ pid: pid_t) -> Bool { hooks[pid]?.ended ?? true }
    func groupAlive(_ group: pid_t) -> Bool { !(hooks[group]?.ended ?? true) }
    func signal(group: pid_t, _ signal: Int32) {
        hooks[group]?.signals.append(signal)
        if signal == SIGKILL || (signal == SIGTERM && obeysTerm) { hooks[group]?.ended = true }
    }
    func pause(seconds: Double) { clock.advance(by: seconds) }
    func end(_ pid: pid_t) { hooks[pid]?.ended = true }
}

@Suite("region hooks: bounded, coalesced, timed out, ended at exit")
struct HookRunnerTests {
    @Test func atMostJobsRunAndARegionsWaitingEventIsReplacedByItsNewest() {
        let clock = ManualClock(0)
        let fake = FakeHookProcesses(clock: clock)
        var said: [String] = []
        let hooks = HookRunner(limits: .init(jobs: 4), processes: fake, time: clock, say: { said.append($0) })
        // 1,000 events of region "edge" (a flapping fix) and one of "home", 5 ms apart.
        for i in 0..<1000 {
            hooks.run("hook", key: "edge", environment: [("LODESTONE_EVENT", i % 2 == 0 ? "enter" : "exit"), ("N", "\(i)")])
            if i == 500 { hooks.run("hook", key: "home", environment: [("LODESTONE_EVENT", "enter"), ("N", "home")]) }
            clock.advance(by: 0.005)
            hooks.poll()
        }
        #expect(fake.peakRunning == 4)
        #expect(fake.order.count == 4)
        #expect(hooks.waitingCount == 2, "one waiting event per region")
        #expect(hooks.coalesced == 1000 - 4 - 1, "every edge event after the first waiting one replaced it")
        #expect(said.count == 1 && said[0].contains("--hook-jobs 4"), "\(said)")
        // Slots free up: the waiting events run in the order their regions first waited, with
        // the latest state of each.
        for pid in fake.order { fake.end(pid) }
        hooks.poll()
        let started = fake.order.suffix(2).map { fake.hooks[$0]!.environment.first { $0.0 == "N" }!.1 }
        #expect(started == ["999", "home"])
        #expect(fake.hooks[fake.order[4]]!.environment.first!.1 == "exit", "the latest state wins")
    }

    @Test func aHookPastItsTimeoutGetsTermThenKillTwoSecondsLaterToItsGroup() {
        let clock = ManualClock(0)
        let fake = FakeHookProcesses(clock: clock)
        fake.obeysTerm = false
        var said: [String] = []
        let hooks = HookRunner(limits: .init(jobs: 4, timeout: 2), processes: fake, time: clock, say: { said.append($0) })
        hooks.run("sleep 1000", key: "home", environment: [])
        let pid = fake.order[0]
        for _ in 0..<7 { clock.advance(by: 0.25); hooks.poll() }       // 1.75 s
        #expect(fake.hooks[pid]!.signals == [])
        clock.advance(by: 0.25); hooks.poll()                           // 2.0 s
        #expect(fake.hooks[pid]!.signals == [SIGTERM])
        for _ in 0..<7 { clock.advance(by: 0.25); hooks.poll() }       // 3.75 s
        #expect(fake.hooks[pid]!.signals == [SIGTERM])
        clock.advance(by: 0.25); hooks.poll()                           // 4.0 s
        #expect(fake.hooks[pid]!.signals == [SIGTERM, SIGKILL])
        hooks.poll()
        #expect(hooks.runningCount == 0)
        #expect(said.contains { $0.contains("--hook-timeout 2 s") })
    }

    @Test func everyHookStillRunningAtExitIsEndedAndTheCountsAreSaid() {
        let clock = ManualClock(0)
        let fake = FakeHookProcesses(clock: clock)
        fake.obeysTerm = false
        var said: [String] = []
        let hooks = HookRunner(limits: .init(jobs: 2), processes: fake, time: clock, say: { said.append($0) })
        for key in ["a", "b", "c", "c", "d"] { hooks.run("sleep 30", key: key, environment: []) }
        hooks.finish()
        #expect(fake.running == 0)
        #expect(fake.order.count == 2)
        #expect(fake.order.allSatisfy { fake.hooks[$0]!.signals == [SIGTERM, SIGKILL] })
        #expect(clock.now() < 1, "ending hooks at exit stays well inside a second")
        let last = said.last ?? ""
        #expect(last.contains("1 region event coalesced") && last.contains("2 waiting hooks not run at exit"), "\(said)")
    }
}

/// Real hooks (`/bin/sh`), timed on the wall clock with generous bounds.
@Suite("region hooks as real processes", .serialized)
struct RealHookTests {
    /// Processes whose command line holds `marker` (an argument of `sleep` no one else uses).
    func count(_ marker: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.filter { name in
            guard name.allSatisfy(\.isNumber), let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else { return false }
            // A zombie has an empty command line and holds nothing.
            return String(decoding: data, as: UTF8.self).contains(marker)
        }.count
    }

    @Test func aRegionCrossed200TimesASecondWithA30SecondHookStaysWithinSixteenProcessesAndLeavesNone() {
        let marker = "30.0\(getpid() % 1000)25"
        let hooks = HookRunner(limits: .init(jobs: 4, timeout: 30), time: SystemTime(), say: { _ in })
        var peak = 0
        let start = Clock.monotonic()
        var n = 0
        var checks = 0
        while Clock.monotonic() - start < 3 {
            // 200 crossings a second, enter and exit in turn: as many events as the time asks for,
            // however slowly this loop turns on a busy machine.
            while Double(n) < (Clock.monotonic() - start) * 200 {
                hooks.run("sleep \(marker); echo never", key: "edge", environment: [("LODESTONE_EVENT", n % 2 == 0 ? "enter" : "exit")])
                n += 1
            }
            hooks.poll()
            checks += 1
            if checks % 4 == 0 { peak = max(peak, count(marker)) }
            usleep(5_000)
        }
        #expect(n >= 590)
        #expect(peak <= 16, "\(peak) hook processes at once")
        #expect(peak >= 1)
        let ended = Clock.monotonic()
        hooks.finish()
        var left = count(marker)
        while left > 0 && Clock.monotonic() - ended < 5 { usleep(50_000); left = count(marker) }
        #expect(left == 0, "\(left) hook processes left 5 s after exit")
        #expect(Clock.monotonic() - ended < 2)
    }

    @Test func aSleep1000HookWithATwoSecondTimeoutIsGoneWithinFourSeconds() {
        let marker = "1000.\(getpid() % 1000)7"
        let hooks = HookRunner(limits: .init(jobs: 4, timeout: 2), time: SystemTime(), say: { _ in })
        // `trap '' TERM`: a hook that ignores SIGTERM still goes, by SIGKILL to its group.
        hooks.run("trap '' TERM; sleep \(marker); true", key: "home", environment: [])
        let start = Clock.monotonic()
        usleep(200_000)
        #expect(count(marker) >= 1)
        while count(marker) > 0 && Clock.monotonic() - start < 6 {
            hooks.poll()
            usleep(50_000)
        }
        let gone = Clock.monotonic() - start
        #expect(count(marker) == 0)
        #expect(gone < 4.5 && gone > 1.9, "gone after \(gone) s")
        for _ in 0..<20 where hooks.runningCount > 0 { hooks.poll(); usleep(50_000) }
        #expect(hooks.runningCount == 0, "the slot is free again")
        #expect(hooks.timedOut == 1)
    }

    @Test func aHookHasDefaultSignalsItsOwnGroupAndWritesToStandardError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path
        // Our own SIGPIPE ignored (as Swift programs often have it): the hook must not inherit that.
        let old = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, old) }
        let command = #"""
        { yes | head -n 1 >/dev/null; } 2>"$OUT.pipe"
        grep -E '^(SigIgn|SigBlk)' /proc/self/status > "$OUT.sig"
        cut -d' ' -f5 /proc/$$/stat > "$OUT.pgid"
        ls -l /proc/$$/fd/1 /proc/$$/fd/2 | sed 's/.*-> //' > "$OUT.fds"
        """#
        let pid = try #require(spawnShellCommand(command, environment: [("OUT", out)], asHook: true))
        var status: Int32 = 0
        for _ in 0..<500 {
            if waitpid(pid, &status, WNOHANG) == pid { break }
            usleep(10_000)
        }
        #expect(try String(contentsOfFile: out + ".pipe", encoding: .utf8) == "", "yes | head printed an error")
        let sig = try String(contentsOfFile: out + ".sig", encoding: .utf8)
        // The masks of a command the hook runs (grep's own: what the hook hands on; the shell's own,
        // read while it waits for grep, shows dash blocking everything around its wait). The
        // standard signals (1–31: SIGPIPE, SIGINT, SIGTERM, …) neither ignored nor blocked; the C
        // library's own real-time signals (32, 33) are not the hook's business.
        func mask(_ name: String) -> UInt64? {
            sig.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
        }
        #expect(mask("SigIgn").map { $0 & 0x7FFF_FFFF } == 0, "\(sig)")
        #expect(mask("SigBlk").map { $0 & 0x7FFF_FFFF } == 0, "\(sig)")
        #expect(try String(contentsOfFile: out + ".pgid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "\(pid)")
        let fds = try String(contentsOfFile: out + ".fds", encoding: .utf8).split(separator: "\n")
        #expect(fds.count == 2 && fds[0] == fds[1], "standard output is standard error: \(fds)")
    }
}
