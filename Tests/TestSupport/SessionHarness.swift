import Foundation
import Platform
import Session

/// A session's world for a test: a manual clock, scripted signals, captured stdout and stderr, a
/// private config folder (so no real profile is read or written), and optionally a fake terminal.
public final class SessionHarness {
    public let clock: ManualClock
    public let events: ScriptedEvents
    public let output = CapturedOutput()
    public let diagnostics = CapturedOutput()
    public let folder: URL
    public var terminal: FakeTerminal?

    public init(_ name: String = "session", deadline: Double = 600) throws {
        clock = ManualClock(0, wallAtZero: 1_795_000_000)   // 2026-11-18, inside WMM2025's validity
        events = ScriptedEvents(clock: clock, deadline: deadline)
        folder = try makeTemporaryFolder(name)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Adds a terminal of the given size: the session then runs the dashboard.
    public func attachTerminal(columns: Int = 100, rows: Int = 32) -> FakeTerminal {
        let t = FakeTerminal(columns: columns, rows: rows, clock: clock)
        terminal = t
        return t
    }

    public func runtime(_ command: String, environment extra: [String: String] = [:]) -> Runtime {
        var env = ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path + "/config", "LANG": "C.UTF-8", "TERM": "xterm"]
        for (k, v) in extra { env[k] = v }
        return Runtime(time: clock, events: events, output: output, diagnostics: diagnostics, terminal: terminal,
                       interactiveInput: false, environment: EnvironmentValues(env), command: command)
    }

    /// Holds the session's clock until a thread pauses on it: the gpsd client, once it was refused or
    /// its gpsd (a `ScriptedGpsd`) said everything and closed. Then the session runs on the manual
    /// clock with everything the client will ever deliver already in its mailbox.
    public func holdUntilGNSSPauses() {
        let clock = clock
        events.hold { !clock.waitingUntil.isEmpty }
    }

    public func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Writes `text` to a new file `name` in the folder; its path.
    public func file(_ name: String, _ text: String) throws -> String {
        let path = path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// "123.4° SE  true …" → 123.4.
public func headingValue(_ line: String) -> Double? {
    guard let degree = line.firstIndex(of: "°") else { return nil }
    return Double(line[..<degree])
}
