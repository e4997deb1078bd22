import Geodesy
import Sensors
import Platform
import Terminal

/// Why the dashboard stopped.
public enum DashboardEnd: Equatable, Sendable {
    /// The user pressed q (or Ctrl-D, or Ctrl-C with signals off).
    case quitKey
    /// SIGINT, SIGTERM or SIGHUP.
    case signal
    /// The terminal went away (write failed).
    case outputClosed
}

/// The full-screen dashboard as a consumer of the live loop: it enters the screen and the keyboard
/// mode at the start and restores both at the end (also after an error). At each turn (every 5 ms)
/// it reads keys and redraws at once after a key or a resize; at each update slot it draws the
/// current `DashboardState`, with the viewer's settings laid over it (language, units,
/// true/magnetic, help, colour), in one write. Frames go through a `BoundedOutput`: a terminal that
/// stops reading (a frozen SSH connection, ^S) loses frames, never holds the loop; each frame is a
/// whole redraw, so a lost one leaves nothing behind. Keys that change settings are applied here;
/// every key action is also passed to `onAction` with the settings it left.
///
/// ```swift
/// let dashboard = Dashboard(runtime: runtime, terminal: tty, settings: DashboardSettings(colorEnabled: true),
///                           state: { settings in view.state(settings: settings) })
/// try LiveLoop(live: live, runtime: runtime, inbox: inbox, rate: 20).run([dashboard])
/// ```
final class Dashboard: LiveConsumer {
    let terminal: any KeyboardTerminal
    let output: BoundedOutput
    let screen: Screen
    let state: (DashboardSettings) throws -> DashboardState
    let onAction: (KeyAction, DashboardSettings) -> Void
    private(set) var settings: DashboardSettings
    private(set) var end: DashboardEnd = .signal

    init(runtime: Runtime, terminal: any KeyboardTerminal, settings: DashboardSettings,
         onAction: @escaping (KeyAction, DashboardSettings) -> Void = { _, _ in },
         state: @escaping (DashboardSettings) throws -> DashboardState) {
        self.terminal = terminal
        let output = runtime.streamingOutput(limit: 512 * 1024)
        self.output = output
        screen = Screen(isTerminal: true, output: { output.write($0) })
        self.settings = settings
        self.onAction = onAction
        self.state = state
    }

    var turnInterval: Double { 0.005 }

    func start(_ loop: LiveLoop) throws {
        screen.enter()
        terminal.enableKeyInput()
        try draw()
    }

    func turn(_ loop: LiveLoop, now: Double) throws -> LiveStep {
        var redraw = loop.inbox.takeResize()
        for action in keyActions(for: terminal.readKeys()) {
            if action == .quit {
                end = .quitKey
                return .finish
            }
            settings.apply(action)
            onAction(action, settings)
            redraw = true
        }
        output.flush()
        if redraw { return try draw() }
        return output.failure == nil ? .proceed : closed()
    }

    func update(_ update: LiveUpdate, loop: LiveLoop) throws -> LiveStep { try draw() }

    func finish(_ end: LiveEnd?, loop: LiveLoop) throws {
        terminal.restoreInputMode()
        screen.leave()
        output.finish(waiting: 0.5)
    }

    @discardableResult
    private func draw() throws -> LiveStep {
        let shown = settings.applied(to: try state(settings))
        let size = terminal.size() ?? (columns: 80, rows: 24)
        let lines = renderDashboard(state: shown, columns: size.columns, rows: size.rows)
        return screen.draw(lines, columns: size.columns, rows: size.rows) ? .proceed : closed()
    }

    private func closed() -> LiveStep {
        end = .outputClosed
        return .finish
    }
}

/// `watch --once` on a terminal: one dashboard frame, printed in place of the prompt (no alternate
/// screen), once the first estimate is in and, with a GNSS source, the true heading
/// (`WatchSession.onceIsReady`).
final class OneFrame: LiveConsumer {
    let view: WatchView
    let settings: DashboardSettings
    let terminal: any KeyboardTerminal
    let runtime: Runtime
    let fixTimeout: Double

    init(live: LiveSession, settings: DashboardSettings, terminal: any KeyboardTerminal, runtime: Runtime,
         units: UnitSystem, fixTimeout: Double) {
        view = WatchView(live: live, units: units)
        self.settings = settings
        self.terminal = terminal
        self.runtime = runtime
        self.fixTimeout = fixTimeout
    }

    var turnInterval: Double { 0.02 }

    func turn(_ loop: LiveLoop, now: Double) throws -> LiveStep {
        guard let live = loop.live else { return .finish }
        let waited = now - loop.started
        if WatchSession.onceIsReady(live, waited: waited, timeout: fixTimeout, runtime: runtime) {
            let (columns, rows) = terminal.size() ?? (80, 24)
            let state = settings.applied(to: view.state(settings: settings))
            let lines = renderDashboard(state: state, columns: columns, rows: max(1, rows - 1))
            runtime.output.write(lines.joined(separator: "\n") + "\n")
            return .finish
        }
        if live.pipeline.estimate == nil && waited > WatchSession.onceTimeout {
            if let message = live.reader.statusMessage { runtime.say(message) }
            throw SensorError.dataNotReady(live.reader.magnetometer.info.chip, seconds: WatchSession.onceTimeout)
        }
        return .proceed
    }
}
