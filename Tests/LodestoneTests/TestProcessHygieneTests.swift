import Foundation
import Glibc
import Testing
import TestSupport

/// What the tests start must not outlive them: tmux servers on private sockets once ran for hours
/// after `make test`, every signal blocked (a mask inherited through the spawn from a test
/// thread), so SIGTERM could not end them.
@Suite("test processes: clean signals, none left behind", .serialized)
struct TestProcessHygieneTests {
    /// SigBlk and SigIgn of a process, from /proc.
    func masks(_ pid: pid_t) -> (blocked: UInt64, ignored: UInt64)? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func mask(_ key: String) -> UInt64? {
            status.split(separator: "\n").first { $0.hasPrefix(key) }
                .flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
        }
        guard let b = mask("SigBlk:"), let i = mask("SigIgn:") else { return nil }
        return (b, i)
    }

    @Test("a test's tmux server starts with no signal blocked or ignored, ends on SIGTERM, and kill() leaves nothing",
          .enabled(if: TmuxServer.isAvailable, "tmux is not installed (make test installs it)"))
    func tmuxServerHygiene() throws {
        // A test thread with SIGTERM blocked, as the live commands' signal watcher leaves it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        let tmux = TmuxServer(executable: try #require(TmuxServer.executablePath), name: "lodestone-hygiene")
        defer { tmux.kill() }
        #expect(try tmux.run(["new-session", "-d", "-s", "h", "-x", "40", "-y", "10", "sleep 3600.0613"]).status == 0)
        let server = try #require(processes(withCommandLineContaining: tmux.socket).first, "the tmux server")
        let serverMasks = try #require(masks(server))
        #expect(serverMasks.blocked & 0x7FFF_FFFF == 0, "SigBlk \(String(serverMasks.blocked, radix: 16))")
        #expect(serverMasks.ignored & (1 << (UInt64(SIGTERM) - 1)) == 0, "SigIgn \(String(serverMasks.ignored, radix: 16))")
        // SIGTERM ends it (and the session's process with it).
        kill(server, SIGTERM)
        var gone = false
        for _ in 0..<50 where !gone {
            gone = processes(withCommandLineContaining: tmux.socket).isEmpty
            if !gone { usleep(100_000) }
        }
        #expect(gone, "the tmux server outlived SIGTERM")
        // And kill() on a running one leaves neither server nor session behind.
        let again = TmuxServer(executable: try #require(TmuxServer.executablePath), name: "lodestone-hygiene")
        defer { again.kill() }
        #expect(try again.run(["new-session", "-d", "-s", "h", "-x", "40", "-y", "10", "sleep 3600.0614"]).status == 0)
        #expect(!processes(withCommandLineContaining: again.socket).isEmpty)
        again.kill()
        var none = false
        for _ in 0..<50 where !none {
            none = processes(withCommandLineContaining: again.socket).isEmpty && processes(withCommandLineContaining: "sleep 3600.061").isEmpty
            if !none { usleep(100_000) }
        }
        #expect(none, "tmux kill-server left a process")
    }

    /// SigBlk and SigIgn as a child printed them from its own /proc/self/status.
    func printedMasks(_ text: String) -> (blocked: UInt64, ignored: UInt64)? {
        func mask(_ key: String) -> UInt64? {
            text.split(separator: "\n").first { $0.hasPrefix(key) }
                .flatMap { UInt64($0.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "", radix: 16) }
        }
        guard let b = mask("SigBlk:"), let i = mask("SigIgn:") else { return nil }
        return (b, i)
    }

    /// Every way a test starts a program (runProgram and so runLodestone, BackgroundProcess,
    /// SpawnedChild, runTool) starts it with no signal blocked and none ignored, even from a thread
    /// that blocks SIGTERM and SIGINT and a process that ignores SIGPIPE, as a live command run in
    /// process leaves them.
    @Test("every test spawn helper starts its child with an empty signal mask and default actions")
    func spawnHelpersStartChildrenClean() throws {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let script = "grep -E '^(SigBlk|SigIgn)' /proc/self/status"
        func check(_ what: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            guard let m = printedMasks(text) else {
                Issue.record("\(what): no masks in \(text.debugDescription)", sourceLocation: sourceLocation)
                return
            }
            // Signals 1–31 (32 and 33 are the C library's own, never a program's).
            #expect(m.blocked & 0x7FFF_FFFF == 0, "\(what): SigBlk \(String(m.blocked, radix: 16))", sourceLocation: sourceLocation)
            #expect(m.ignored & 0x7FFF_FFFF == 0, "\(what): SigIgn \(String(m.ignored, radix: 16))", sourceLocation: sourceLocation)
        }
        check("runProgram", try runProgram("/bin/sh", ["-c", script]).stdout)
        let background = try BackgroundProcess(executable: "/bin/sh", ["-c", script])
        #expect(pollUntil(10) { !background.isRunning })
        background.stop(timeout: 10)
        check("BackgroundProcess", background.stdout)
        check("runTool", try runTool("/bin/sh", ["-c", script]))
        let folder = try makeTemporaryFolder("hygiene-spawned")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("masks").path
        let child = try SpawnedChild("/bin/sh", ["-c", script], outputPath: output)
        #expect(pollUntil(10) { !child.isRunning })
        check("SpawnedChild", (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }
}
