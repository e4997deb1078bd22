import Foundation
import Testing
import TestSupport

/// The calibration wizard on a real terminal: `lodestone calibrate --simulate` in a private tmux
/// server (100×32), left to finish by itself, answered with y, then `watch` picks up the profile.
@Suite("lodestone calibrate in tmux (end to end)")
struct CalibrateWizardTmuxTests {
    /// Every screen of the wizard's pane until `done` or `timeout`.
    func watchPane(_ tmux: TmuxServer, timeout: Double, until done: (String) -> Bool) throws -> [String] {
        try tmux.screens(timeout, target: "wizard", until: done)
    }

    @Test("finishes by itself, shows the map and metrics, saves on y, and watch uses the profile",
          .enabled(if: TmuxServer.isAvailable, "tmux is not installed (make test installs it)"))
    func wizardUnderTmux() throws {
        let folder = try makeTemporaryFolder("calibrate-tmux")
        let tmux = TmuxServer(executable: try #require(TmuxServer.executablePath), name: "lodestone-wizard",
                              environment: ["XDG_CONFIG_HOME": folder.path, "LANG": "C.UTF-8", "TERM": "xterm-256color"])
        defer {
            // kill-session first: kill-server alone can leave the server running while the pane's
            // process lives.
            _ = try? tmux.run(["kill-session", "-t", "wizard"])
            tmux.kill()
            try? FileManager.default.removeItem(at: folder)
        }
        let command = "\(shellQuoted(lodestoneBinaryPath)) calibrate --simulate --sim-speed 4; echo LODESTONE-EXIT=$?; sleep 60"
        try tmux.run(["new-session", "-d", "-s", "wizard", "-x", "100", "-y", "32",
                      "-e", "XDG_CONFIG_HOME=\(folder.path)", "-e", "LANG=C.UTF-8", command])

        let screens = try watchPane(tmux, timeout: 120) { $0.contains("Save to") }
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

        try tmux.run(["send-keys", "-t", "wizard", "y", "Enter"])
        let afterSave = try watchPane(tmux, timeout: 20) { $0.contains("Align heading") }
        #expect(afterSave.last?.contains("saved the profile") == true, "\(afterSave.last ?? "")")
        try tmux.run(["send-keys", "-t", "wizard", "n", "Enter"])
        let ended = try watchPane(tmux, timeout: 20) { $0.contains("LODESTONE-EXIT=") }
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

    @Test("q, Esc and Ctrl-C cancel without saving and restore the terminal",
          .enabled(if: TmuxServer.isAvailable, "tmux is not installed (make test installs it)"),
          arguments: ["q", "Escape", "C-c"])
    func cancelRestoresTheTerminal(key: String) throws {
        let folder = try makeTemporaryFolder("calibrate-tmux-cancel")
        let tmux = TmuxServer(executable: try #require(TmuxServer.executablePath), name: "lodestone-wizard",
                              environment: ["XDG_CONFIG_HOME": folder.path, "LANG": "C.UTF-8"])
        defer {
            _ = try? tmux.run(["kill-session", "-t", "wizard"])
            tmux.kill()
            try? FileManager.default.removeItem(at: folder)
        }
        let command = "\(shellQuoted(lodestoneBinaryPath)) calibrate --simulate; echo LODESTONE-EXIT=$?; sleep 60"
        try tmux.run(["new-session", "-d", "-s", "wizard", "-x", "80", "-y", "24",
                      "-e", "XDG_CONFIG_HOME=\(folder.path)", "-e", "LANG=C.UTF-8", command])
        let live = try watchPane(tmux, timeout: 30) { $0.contains("progress") }
        #expect(live.last?.contains("progress") == true, "the live screen never appeared")
        #expect(try tmux.run(["display-message", "-p", "-t", "wizard", "#{alternate_on} #{cursor_flag}"]).output
                    .hasPrefix("1 0"), "the live screen uses the alternate screen with the cursor hidden")
        try tmux.run(["send-keys", "-t", "wizard", key])
        let ended = try watchPane(tmux, timeout: 20) { $0.contains("LODESTONE-EXIT=") }
        let screen = ended.last ?? ""
        #expect(screen.contains("calibration cancelled; nothing was saved"), "\(screen)")
        #expect(screen.contains("LODESTONE-EXIT=0"), "\(screen)")
        let modes = try tmux.run(["display-message", "-p", "-t", "wizard", "#{alternate_on} #{cursor_flag}"]).output
        #expect(modes.hasPrefix("0 1"), "alternate screen left and cursor shown again: \(modes)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("lodestone/calibration.json").path))
    }
}
