import Foundation
import Testing
import TestSupport

/// The calibration wizard on a real terminal: `lodestone calibrate --simulate` in a private tmux
/// server (100×32), left to finish by itself, answered with y, then `watch` picks up the profile.
@Suite("lodestone calibrate in tmux (end to end)")
struct CalibrateWizardTmuxTests {
    /// Runs tmux on the private server `socket` with extra environment and returns its output.
    /// Spawned directly and reaped with waitpid, output through a file: the server that
    /// new-session starts inherits the spawner's descriptors, so waiting for a pipe to close (or
    /// Foundation's Process) could hang.
    @discardableResult
    func tmux(_ socket: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let executable = try #require(tmuxPath)
        let outputPath = NSTemporaryDirectory() + "\(socket)-\(UUID().uuidString).out"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable, "-L", socket, "-u", "-f", "/dev/null"] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let envp = env.map { strdup("\($0.key)=\($0.value)") }
        defer { envp.forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, executable, &actions, nil, argv + [nil], envp + [nil]) == 0 else {
            throw CocoaError(.executableLoad)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    var tmuxPath: String? {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }


    /// Polls the pane until `done` says so or `timeout` passes; returns every screen seen.
    func watchPane(_ socket: String, timeout: Double, until done: (String) -> Bool) throws -> [String] {
        var screens: [String] = []
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            let screen = try tmux(socket, ["capture-pane", "-p", "-t", "wizard"])
            screens.append(screen)
            if done(screen) { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        return screens
    }

    @Test("finishes by itself, shows the map and metrics, saves on y, and watch uses the profile")
    func wizardUnderTmux() throws {
        try #require(tmuxPath != nil, "tmux is needed for this test (make test installs it)")
        let folder = try makeTemporaryFolder("calibrate-tmux")
        let socket = "lodestone-test-\(getpid())-\(UUID().uuidString.prefix(6))"
        defer {
            // kill-session first: kill-server alone can leave the server running while the pane's
            // process lives.
            _ = try? tmux(socket, ["kill-session", "-t", "wizard"])
            _ = try? tmux(socket, ["kill-server"])
            try? FileManager.default.removeItem(at: folder)
        }
        let environment = ["XDG_CONFIG_HOME": folder.path, "LANG": "C.UTF-8", "TERM": "xterm-256color"]
        let command = "'\(lodestoneBinaryPath)' calibrate --simulate --sim-speed 4; echo LODESTONE-EXIT=$?; sleep 60"
        try tmux(socket, ["new-session", "-d", "-s", "wizard", "-x", "100", "-y", "32",
                          "-e", "XDG_CONFIG_HOME=\(folder.path)", "-e", "LANG=C.UTF-8", command],
                 environment: environment)

        let screens = try watchPane(socket, timeout: 120) { $0.contains("Save to") }
        let live = screens.first { $0.contains("progress") && $0.contains("upper: field out of the top") }
        #expect(live != nil, "the live screen with the coverage map never appeared")
        if let live {
            #expect(live.contains("Hold the board away from metal"))
            #expect(live.contains("lower: field out of the bottom (+z)"))
            #expect(live.contains("samples") && live.contains("coverage") && live.contains("gaps"))
            #expect(live.contains("spread of |B|") && live.contains("residual") && live.contains("wobble"))
            #expect(live.contains("q or Esc: cancel"))
            #expect(live.contains("·") || live.contains("▓"))
        }
        let last = try #require(screens.last)
        #expect(last.contains("Save to ") && last.contains("calibration.json? [Y/n]"), "no save prompt:\n\(last)")
        #expect(last.contains("every check passed"), "\(last)")
        #expect(last.contains("spread of |B|") && last.contains("→"), "before/after missing:\n\(last)")
        #expect(last.contains("upper: field out of the top"), "the final map is shown:\n\(last)")

        try tmux(socket, ["send-keys", "-t", "wizard", "y", "Enter"])
        let afterSave = try watchPane(socket, timeout: 20) { $0.contains("Align heading") }
        #expect(afterSave.last?.contains("saved the profile") == true, "\(afterSave.last ?? "")")
        try tmux(socket, ["send-keys", "-t", "wizard", "n", "Enter"])
        let ended = try watchPane(socket, timeout: 20) { $0.contains("LODESTONE-EXIT=") }
        #expect(ended.last?.contains("LODESTONE-EXIT=0") == true, "\(ended.last ?? "")")
        // The terminal was restored: the normal screen shows the command's output, cursor visible.

        let file = folder.appendingPathComponent("lodestone/calibration.json")
        let data = try Data(contentsOf: file)
        let saved = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let profiles = try #require(saved["profiles"] as? [[String: Any]])
        #expect((profiles.first?["sensor"] as? [String: Any])?["chip"] as? String == "simulated-qmc5883l")
        #expect(profiles.first?["matrix"] is [[Double]])

        let watch = try runLodestone(["watch", "--simulate", "--once"], timeout: 20,
                                     environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(watch.status == 0, "\(watch.stderr)")
        #expect(watch.stderr.contains("calibration: ") && watch.stderr.contains("lodestone/calibration.json"),
                "watch does not name the profile: \(watch.stderr)")
        #expect(watch.stderr.contains("simulated-qmc5883l"), "\(watch.stderr)")
    }

    @Test("q, Esc and Ctrl-C cancel without saving and restore the terminal", arguments: ["q", "Escape", "C-c"])
    func cancelRestoresTheTerminal(key: String) throws {
        try #require(tmuxPath != nil, "tmux is needed for this test (make test installs it)")
        let folder = try makeTemporaryFolder("calibrate-tmux-cancel")
        let socket = "lodestone-test-\(getpid())-\(UUID().uuidString.prefix(6))"
        defer {
            // kill-session first: kill-server alone can leave the server running while the pane's
            // process lives.
            _ = try? tmux(socket, ["kill-session", "-t", "wizard"])
            _ = try? tmux(socket, ["kill-server"])
            try? FileManager.default.removeItem(at: folder)
        }
        let command = "'\(lodestoneBinaryPath)' calibrate --simulate; echo LODESTONE-EXIT=$?; sleep 60"
        try tmux(socket, ["new-session", "-d", "-s", "wizard", "-x", "80", "-y", "24",
                          "-e", "XDG_CONFIG_HOME=\(folder.path)", "-e", "LANG=C.UTF-8", command],
                 environment: ["XDG_CONFIG_HOME": folder.path, "LANG": "C.UTF-8"])
        let live = try watchPane(socket, timeout: 30) { $0.contains("progress") }
        #expect(live.last?.contains("progress") == true, "the live screen never appeared")
        #expect(try tmux(socket, ["display-message", "-p", "-t", "wizard", "#{alternate_on} #{cursor_flag}"])
                    .hasPrefix("1 0"), "the live screen uses the alternate screen with the cursor hidden")
        try tmux(socket, ["send-keys", "-t", "wizard", key])
        let ended = try watchPane(socket, timeout: 20) { $0.contains("LODESTONE-EXIT=") }
        let screen = ended.last ?? ""
        #expect(screen.contains("calibration cancelled; nothing was saved"), "\(screen)")
        #expect(screen.contains("LODESTONE-EXIT=0"), "\(screen)")
        let modes = try tmux(socket, ["display-message", "-p", "-t", "wizard", "#{alternate_on} #{cursor_flag}"])
        #expect(modes.hasPrefix("0 1"), "alternate screen left and cursor shown again: \(modes)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("lodestone/calibration.json").path))
    }
}
