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

/// Runs the full-screen dashboard on `terminal` until q, Ctrl-C or SIGTERM, then restores the
/// screen and the keyboard mode (also when `sample` or `state` throws).
///
/// Each turn it reads keys, calls `sample` (read sensors, feed filters; about every 5 ms) and, once
/// per frame, asks `state` for the current `DashboardState`, lays the viewer's settings over it
/// (language, units, true/magnetic, help, colour) and draws it in one write to `runtime.output`. A
/// resize redraws at once. Keys that change settings are applied here; every key action, including
/// `.calibrate` and `.resetTrack`, is also passed to `onAction` with the settings it left. Time passes only in `inbox.wait`.
///
/// ```swift
/// let end = try runDashboard(runtime: runtime, inbox: inbox, terminal: tty,
///                            settings: DashboardSettings(colorEnabled: true),
///                            sample: { live.pump() },
///                            state: { settings in view.state(settings: settings) })
/// ```
@discardableResult
public func runDashboard(
    runtime: Runtime,
    inbox: ControlInbox,
    terminal: any KeyboardTerminal,
    frameRate: Double = 20,
    settings initial: DashboardSettings,
    sample: () throws -> Void = {},
    onAction: (KeyAction, DashboardSettings) -> Void = { _, _ in },
    state: (DashboardSettings) throws -> DashboardState
) throws -> DashboardEnd {
    let rate = frameRate.isFinite ? min(30, max(10, frameRate)) : 20
    let period = 1 / rate
    let time = runtime.time
    var settings = initial
    let output = runtime.output
    let screen = Screen(isTerminal: true, output: { output.write($0) })
    screen.enter()
    terminal.enableKeyInput()
    defer {
        terminal.restoreInputMode()
        screen.leave()
    }
    var nextFrame = time.monotonic()
    var redraw = true
    while true {
        inbox.poll()
        if inbox.stopRequested { return .signal }
        if inbox.takeResize() { redraw = true }
        for action in keyActions(for: terminal.readKeys()) {
            if action == .quit { return .quitKey }
            settings.apply(action)
            onAction(action, settings)
            redraw = true
        }
        try sample()
        let now = time.monotonic()
        if redraw || now >= nextFrame {
            // Drift-free pacing that does not try to catch up after a stall.
            nextFrame = now - nextFrame > period ? now + period : nextFrame + period
            redraw = false
            let shown = settings.applied(to: try state(settings))
            let size = terminal.size() ?? (columns: 80, rows: 24)
            let lines = renderDashboard(state: shown, columns: size.columns, rows: size.rows)
            guard screen.draw(lines, columns: size.columns, rows: size.rows) else { return .outputClosed }
        }
        inbox.wait(seconds: min(0.005, max(0, nextFrame - time.monotonic())))
    }
}
