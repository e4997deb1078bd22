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
}
