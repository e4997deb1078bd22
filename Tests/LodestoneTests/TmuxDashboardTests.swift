import Foundation
import Testing
import TestSupport

/// The dashboard in a real terminal: `lodestone watch --simulate` in a detached tmux session on a
/// private socket, read back with capture-pane, resized, and quit with q.
@Suite("watch dashboard in tmux", .serialized)
struct TmuxDashboardTests {
    static let tmuxPath: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// One tmux server of our own (`-L`), so no other session is ever touched.
    final class TmuxServer {
        let executable: String
        let socket = "lodestone-dashboard-test-\(getpid())"

        init(executable: String) { self.executable = executable }

        /// Runs one tmux command and returns its exit status and output. Spawned directly and reaped
        /// with waitpid: the server that new-session starts inherits the spawner's descriptors, so
        /// anything that waits for a pipe or socket to close (as Foundation's Process does) would hang.
        @discardableResult
        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let outputPath = NSTemporaryDirectory() + "\(socket)-\(UUID().uuidString).out"
            defer { unlink(outputPath) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            let argv = ([executable, "-L", socket, "-u", "-f", "/dev/null"] + arguments).map { strdup($0) }
            defer { argv.forEach { free($0) } }
            var pid = pid_t()
            let spawned = posix_spawn(&pid, executable, &actions, nil, argv + [nil], environ)
            guard spawned == 0 else { throw CocoaError(.executableLoad) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            let exited = status & 0x7F == 0
            return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output)
        }

        func capture() throws -> String { try run(["capture-pane", "-p", "-t", "dash"]).output }

        /// Polls the pane until `condition` holds or `timeout` passes; returns the last capture.
        func waitFor(_ timeout: Double, _ condition: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            var screen = try capture()
            while !condition(screen) && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.1)
                screen = try capture()
            }
            return screen
        }

        func kill() {
            _ = try? run(["kill-session", "-t", "dash"])
            _ = try? run(["kill-server"])
        }
    }

    /// The first child of a process, from /proc (the children list, or else every process's parent).
    func childProcess(of parent: String) -> Int32? {
        if let list = try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8),
           let pid = list.split(separator: " ").compactMap({ Int32($0) }).first {
            return pid
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.range(of: ") ", options: .backwards) else { continue }
            let fields = stat[close.upperBound...].split(separator: " ")
            if fields.count > 1, String(fields[1]) == parent { return pid }
        }
        return nil
    }

    /// True when `letter` stands alone somewhere on the screen (as the rose's labels do).
    func hasLabel(_ letter: String, in screen: String) -> Bool {
        screen.range(of: "(^|[^A-Za-z])\(letter)([^A-Za-z]|$)", options: .regularExpression) != nil
    }

    func hasHeading(_ screen: String) -> Bool {
        screen.range(of: #"\d{1,3}\.\d°M"#, options: .regularExpression) != nil
    }

    @Test("--once on a terminal prints one dashboard frame and exits 0",
          .enabled(if: tmuxPath != nil, "tmux is not installed"))
    func onceInTmux() throws {
        let tmux = TmuxServer(executable: try #require(Self.tmuxPath))
        defer { tmux.kill() }
        let binary = lodestoneBinaryPath
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build lodestone first: \(binary)")
        let prompt = "lodestone-once$ "
        let started = try tmux.run(["new-session", "-d", "-s", "dash", "-x", "80", "-y", "24",
                                    "env PS1='\(prompt)' LANG=C.UTF-8 LC_ALL=C.UTF-8 sh"])
        try #require(started.status == 0, "tmux new-session: \(started.output)")
        _ = try tmux.waitFor(5) { $0.contains(prompt) }
        let quoted = "'" + binary.replacingOccurrences(of: "'", with: "'\\''") + "'"
        try tmux.run(["send-keys", "-t", "dash", "\(quoted) watch --simulate --once; echo EXIT=$?", "Enter"])
        // The typed command itself shows "EXIT=$?": wait for the shell's answer, a digit after "EXIT=".
        let screen = try tmux.waitFor(20) { $0.range(of: #"EXIT=\d"#, options: .regularExpression) != nil }
        #expect(screen.contains("EXIT=0"), "\(screen)")
        let quadrant = screen.range(of: #"[NS]\d{1,2}°[EW]|[NS]\d{1,2}°|\b[NESW]\b  "#, options: .regularExpression) != nil
        #expect(hasHeading(screen) || quadrant, "a heading (123.4°M, or its quadrant form N17°E):\n\(screen)")
        #expect(screen.contains("q quit"), "the frame's status line")
        #expect(["N", "E", "S", "W"].filter { hasLabel($0, in: screen) }.count >= 3, "the rose's letters:\n\(screen)")
    }

    @Test("rose and heading at 100×32, redraw at 60×22, q exits 0 and the prompt returns",
          .enabled(if: tmuxPath != nil, "tmux is not installed"))
    func dashboardInTmux() throws {
        let tmux = TmuxServer(executable: try #require(Self.tmuxPath))
        defer { tmux.kill() }
        let binary = lodestoneBinaryPath
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build lodestone first: \(binary)")
        let prompt = "lodestone-test$ "
        let started = try tmux.run(["new-session", "-d", "-s", "dash", "-x", "100", "-y", "32",
                                    "env PS1='\(prompt)' LANG=C.UTF-8 LC_ALL=C.UTF-8 sh"])
        try #require(started.status == 0, "tmux new-session: \(started.output)")
        _ = try tmux.waitFor(5) { $0.contains(prompt) }

        let quoted = "'" + binary.replacingOccurrences(of: "'", with: "'\\''") + "'"
        try tmux.run(["send-keys", "-t", "dash", "\(quoted) watch --simulate; echo EXIT=$?", "Enter"])
        var screen = try tmux.waitFor(15) { screen in
            screen.contains("q quit  t true/mag") && self.hasHeading(screen)
                && ["N", "E", "S", "W"].allSatisfy { self.hasLabel($0, in: screen) }
        }
        for letter in ["N", "E", "S", "W"] {
            #expect(hasLabel(letter, in: screen), "\(letter) on the rose at 100×32:\n\(screen)")
        }
        #expect(hasHeading(screen), "a heading like 123.4°M:\n\(screen)")
        #expect(screen.contains("QMC5883L (simulated)"))
        #expect(screen.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }, "braille ring")

        try tmux.run(["resize-window", "-t", "dash", "-x", "60", "-y", "22"])
        screen = try tmux.waitFor(5) { $0.contains("q quit t T/M u units") }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 60 }, "fits 60 columns:\n\(screen)")
        #expect(screen.contains("q quit t T/M u units"), "status line redrawn for 60 columns:\n\(screen)")
        #expect(!screen.contains("c calibrate"), "nothing left from the 100-column frame:\n\(screen)")
        #expect(hasHeading(screen))
        let roseOrTape = ["N", "E", "S", "W"].allSatisfy { hasLabel($0, in: screen) } || screen.contains("▼")
        #expect(roseOrTape, "rose letters or the tape after the resize:\n\(screen)")

        try tmux.run(["send-keys", "-t", "dash", "q"])
        screen = try tmux.waitFor(5) { screen in
            guard let exit = screen.range(of: #"EXIT=\d"#, options: .regularExpression) else { return false }
            return screen[exit.upperBound...].contains("lodestone-test$")
        }
        #expect(screen.contains("EXIT=0"), "exit status after q:\n\(screen)")
        let afterExit = screen.components(separatedBy: "EXIT=").last ?? ""
        #expect(afterExit.contains(prompt.trimmingCharacters(in: .whitespaces)), "prompt is back:\n\(screen)")
        #expect(!screen.contains("q quit"), "the normal screen is restored:\n\(screen)")
    }

    @Test("Ctrl-C and SIGTERM leave the dashboard cleanly with exit 0",
          .enabled(if: tmuxPath != nil, "tmux is not installed"))
    func signalsInTmux() throws {
        let tmux = TmuxServer(executable: try #require(Self.tmuxPath))
        defer { tmux.kill() }
        let binary = lodestoneBinaryPath
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build lodestone first: \(binary)")
        let prompt = "lodestone-test$ "
        try tmux.run(["new-session", "-d", "-s", "dash", "-x", "80", "-y", "24",
                      "env PS1='\(prompt)' LANG=C.UTF-8 LC_ALL=C.UTF-8 sh"])
        _ = try tmux.waitFor(5) { $0.contains(prompt) }
        let quoted = "'" + binary.replacingOccurrences(of: "'", with: "'\\''") + "'"
        try tmux.run(["send-keys", "-t", "dash", "\(quoted) watch --simulate; echo EXIT=$?", "Enter"])
        _ = try tmux.waitFor(15) { $0.contains("q quit") }
        try tmux.run(["send-keys", "-t", "dash", "C-c"])
        // The restored screen shows the typed "echo EXIT=$?" at once: wait for the shell's answer.
        var screen = try tmux.waitFor(5) { $0.range(of: #"EXIT=\d"#, options: .regularExpression) != nil }
        #expect(screen.contains("EXIT=0"), "after Ctrl-C:\n\(screen)")
        #expect(!screen.contains("q quit"))

        // SIGTERM from outside, to the process the pane's shell started (found by its parent's pid).
        try tmux.run(["send-keys", "-t", "dash", "clear; \(quoted) watch --simulate; echo TERM_EXIT=$?", "Enter"])
        _ = try tmux.waitFor(15) { $0.contains("q quit") }
        let shell = try tmux.run(["display-message", "-p", "-t", "dash", "#{pane_pid}"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(childProcess(of: shell), "no child process of the pane's shell \(shell)")
        kill(pid, SIGTERM)
        screen = try tmux.waitFor(5) { $0.range(of: #"TERM_EXIT=\d"#, options: .regularExpression) != nil }
        #expect(screen.contains("TERM_EXIT=0"), "after SIGTERM:\n\(screen)")
        #expect(!screen.contains("q quit"), "the normal screen is restored:\n\(screen)")
    }
}
