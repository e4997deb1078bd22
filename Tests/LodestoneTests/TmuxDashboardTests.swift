import Foundation
import Testing
import TestSupport

/// The dashboard in a real terminal: `lodestone watch --simulate` in a detached tmux session on a
/// private socket, read back with capture-pane, resized, and quit with q.
@Suite("watch dashboard in tmux", .serialized)
struct TmuxDashboardTests {
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
          .enabled(if: TmuxServer.isAvailable, "tmux is not installed (make test installs it)"))
    func onceInTmux() throws {
        let tmux = TmuxServer(executable: try #require(TmuxServer.executablePath), name: "lodestone-dashboard")
        defer { tmux.kill() }
        let binary = lodestoneBinaryPath
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build lodestone first: \(binary)")
        let prompt = "lodestone-once$ "
        let started = try tmux.run(["new-session", "-d", "-s", "dash", "-x", "80", "-y", "24",
                                    "env PS1='\(prompt)' LANG=C.UTF-8 LC_ALL=C.UTF-8 sh"])
        try #require(started.status == 0, "tmux new-session: \(started.output)")
        _ = try tmux.waitFor(5, target: "dash") { $0.contains(prompt) }
        let quoted = shellQuoted(binary)
        try tmux.run(["send-keys", "-t", "dash", "\(quoted) watch --simulate --once; echo EXIT=$?", "Enter"])
        // The typed command itself shows "EXIT=$?": wait for the shell's answer, a digit after "EXIT=".
        let screen = try tmux.waitFor(20, target: "dash") { $0.range(of: #"EXIT=\d"#, options: .regularExpression) != nil }
        #expect(screen.contains("EXIT=0"), "\(screen)")
        // The heading itself, with digits: 123.4°M, or its quadrant form N17°E when the frame's top
        // lines have scrolled off the 24-row pane. The rose's own letters never match either.
        let quadrant = screen.range(of: #"\b[NS]\d{1,2}°[EW]\b"#, options: .regularExpression) != nil
        #expect(hasHeading(screen) || quadrant, "a heading (123.4°M, or N17°E):\n\(screen)")
        #expect(screen.contains("q quit"), "the frame's status line")
        #expect(["N", "E", "S", "W"].filter { hasLabel($0, in: screen) }.count >= 3, "the rose's letters:\n\(screen)")
    }

    @Test("rose and heading at 100×32, redraw at 60×22, q exits 0 and the prompt returns",
          .enabled(if: TmuxServer.isAvailable, "tmux is not installed (make test installs it)"))
    func dashboardInTmux() throws {
        let tmux = TmuxServer(executable: try #require(TmuxServer.executablePath), name: "lodestone-dashboard")
        defer { tmux.kill() }
        let binary = lodestoneBinaryPath
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build lodestone first: \(binary)")
        let prompt = "lodestone-test$ "
        let started = try tmux.run(["new-session", "-d", "-s", "dash", "-x", "100", "-y", "32",
                                    "env PS1='\(prompt)' LANG=C.UTF-8 LC_ALL=C.UTF-8 sh"])
        try #require(started.status == 0, "tmux new-session: \(started.output)")
        _ = try tmux.waitFor(5, target: "dash") { $0.contains(prompt) }

        let quoted = shellQuoted(binary)
        try tmux.run(["send-keys", "-t", "dash", "\(quoted) watch --simulate; echo EXIT=$?", "Enter"])
        var screen = try tmux.waitFor(15, target: "dash") { screen in
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
        screen = try tmux.waitFor(5, target: "dash") { $0.contains("q quit t T/M u units") }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 60 }, "fits 60 columns:\n\(screen)")
        #expect(screen.contains("q quit t T/M u units"), "status line redrawn for 60 columns:\n\(screen)")
        #expect(!screen.contains("c calibrate"), "nothing left from the 100-column frame:\n\(screen)")
        #expect(hasHeading(screen))
        let roseOrTape = ["N", "E", "S", "W"].allSatisfy { hasLabel($0, in: screen) } || screen.contains("▼")
        #expect(roseOrTape, "rose letters or the tape after the resize:\n\(screen)")

        try tmux.run(["send-keys", "-t", "dash", "q"])
        screen = try tmux.waitFor(5, target: "dash") { screen in
            guard let exit = screen.range(of: #"EXIT=\d"#, options: .regularExpression) else { return false }
            return screen[exit.upperBound...].contains("lodestone-test$")
        }
        #expect(screen.contains("EXIT=0"), "exit status after q:\n\(screen)")
        let afterExit = screen.components(separatedBy: "EXIT=").last ?? ""
        #expect(afterExit.contains(prompt.trimmingCharacters(in: .whitespaces)), "prompt is back:\n\(screen)")
        #expect(!screen.contains("q quit"), "the normal screen is restored:\n\(screen)")
    }

    @Test("Ctrl-C and SIGTERM leave the dashboard cleanly with exit 0",
          .enabled(if: TmuxServer.isAvailable, "tmux is not installed (make test installs it)"))
    func signalsInTmux() throws {
        let tmux = TmuxServer(executable: try #require(TmuxServer.executablePath), name: "lodestone-dashboard")
        defer { tmux.kill() }
        let binary = lodestoneBinaryPath
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build lodestone first: \(binary)")
        let prompt = "lodestone-test$ "
        try tmux.run(["new-session", "-d", "-s", "dash", "-x", "80", "-y", "24",
                      "env PS1='\(prompt)' LANG=C.UTF-8 LC_ALL=C.UTF-8 sh"])
        _ = try tmux.waitFor(5, target: "dash") { $0.contains(prompt) }
        let quoted = shellQuoted(binary)
        try tmux.run(["send-keys", "-t", "dash", "\(quoted) watch --simulate; echo EXIT=$?", "Enter"])
        _ = try tmux.waitFor(15, target: "dash") { $0.contains("q quit") }
        try tmux.run(["send-keys", "-t", "dash", "C-c"])
        // The restored screen shows the typed "echo EXIT=$?" at once: wait for the shell's answer.
        var screen = try tmux.waitFor(5, target: "dash") { $0.range(of: #"EXIT=\d"#, options: .regularExpression) != nil }
        #expect(screen.contains("EXIT=0"), "after Ctrl-C:\n\(screen)")
        #expect(!screen.contains("q quit"))

        // SIGTERM from outside, to the process the pane's shell started (found by its parent's pid).
        try tmux.run(["send-keys", "-t", "dash", "clear; \(quoted) watch --simulate; echo TERM_EXIT=$?", "Enter"])
        _ = try tmux.waitFor(15, target: "dash") { $0.contains("q quit") }
        let shell = try tmux.run(["display-message", "-p", "-t", "dash", "#{pane_pid}"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(childProcess(of: shell), "no child process of the pane's shell \(shell)")
        kill(pid, SIGTERM)
        screen = try tmux.waitFor(5, target: "dash") { $0.range(of: #"TERM_EXIT=\d"#, options: .regularExpression) != nil }
        #expect(screen.contains("TERM_EXIT=0"), "after SIGTERM:\n\(screen)")
        #expect(!screen.contains("q quit"), "the normal screen is restored:\n\(screen)")
    }
}
