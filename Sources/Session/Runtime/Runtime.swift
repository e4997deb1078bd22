import Geodesy
import Glibc
import Platform

/// What a session needs from the world outside it, as values: time, control events (signals, resize),
/// standard output and standard error, the terminal (when there is one) and the environment. The
/// executable passes `Runtime.system(...)`; a test passes a manual clock, scripted events and buffers,
/// and drives a whole `watch` or `log` session without sleeping or spawning a process.
///
/// ```swift
/// let runtime = Runtime.system(command: "watch")
/// let status = try WatchSession.run(request, runtime: runtime)
/// ```
public struct Runtime {
    /// Monotonic and wall time.
    public var time: any TimeSource
    /// Signals and resizes; waiting on it is how a session lets time pass.
    public var events: any ControlEventSource
    /// Standard output: readings, reports, tables.
    public var output: any TextOutput
    /// Standard error: status, warnings and errors.
    public var diagnostics: any TextOutput
    /// The terminal on standard output, or nil when output is a pipe or a file.
    public var terminal: (any KeyboardTerminal)?
    /// True when standard input is a terminal a prompt can be answered on.
    public var interactiveInput: Bool
    /// The file descriptor prompts and batches read (standard input).
    public var input: Int32
    /// True when standard error is a terminal (progress lines that rewrite themselves go there).
    public var diagnosticsIsTerminal: Bool
    /// Environment variables (HOME, XDG_CONFIG_HOME, TERM, NO_COLOR, LANG…).
    public var environment: EnvironmentValues
    /// The command name used in messages: "lodestone watch: …".
    public var command: String
    /// Standard output as a channel written without waiting, for the live commands' streams (lines,
    /// JSON): nil writes through `output` (a test's captured text; a test may set a scripted
    /// consumer that stalls or fails instead).
    public var outputChannel: (any ByteChannel)?

    public init(time: any TimeSource, events: any ControlEventSource, output: any TextOutput,
                diagnostics: any TextOutput, terminal: (any KeyboardTerminal)? = nil, interactiveInput: Bool = false,
                input: Int32 = -1, diagnosticsIsTerminal: Bool = false,
                environment: EnvironmentValues = EnvironmentValues([:]), command: String) {
        self.time = time
        self.events = events
        self.output = output
        self.diagnostics = diagnostics
        self.terminal = terminal
        self.interactiveInput = interactiveInput
        self.input = input
        self.diagnosticsIsTerminal = diagnosticsIsTerminal
        self.environment = environment
        self.command = command
    }

    /// The real process: system clocks, stdout, stderr, the terminal when stdout is one, and the
    /// process environment. With `signals` (long-running commands), SIGINT, SIGTERM, SIGHUP and
    /// SIGWINCH are blocked from now on and collected as events; without, they keep their default
    /// actions (a one-shot command that reads stdin must still die on Ctrl-C).
    public static func system(command: String, signals: Bool = true) -> Runtime {
        let tty = TerminalDevice()
        let events: any ControlEventSource = signals ? SignalWatcher() : DefaultSignals()
        var runtime = Runtime(time: SystemTime(), events: events, output: StandardOutput.current ?? StandardOutput(),
                              diagnostics: StandardError(), terminal: tty.isOutputTerminal ? tty : nil,
                              interactiveInput: tty.isInputTerminal, input: STDIN_FILENO,
                              diagnosticsIsTerminal: isatty(STDERR_FILENO) == 1, environment: .process, command: command)
        if signals { runtime.outputChannel = DescriptorChannel(fd: STDOUT_FILENO, name: "standard output") }
        return runtime
    }

    /// Standard input as a path, for the readers of "-" (a recording, a profile): the descriptor
    /// `input` through /dev/fd, so a test's file given as `input` is what "-" reads.
    public var standardInputPath: String { "/dev/fd/\(input)" }

    /// Standard output for a stream of updates that must never hold the live loop: bounded, lossy
    /// when the reader stalls (counted), failing for good on EPIPE or a write error.
    public func streamingOutput(limit: Int = BoundedOutput.defaultLimit) -> BoundedOutput {
        BoundedOutput(outputChannel ?? TextOutputChannel(output), limit: limit)
    }

    /// Writes one line to standard error, prefixed with "lodestone COMMAND: ". Control characters
    /// are removed (`sanitize`): the paths and values in a notice may come from the environment.
    public func say(_ message: String) {
        let text = sanitize(message, keepingLineBreaks: true)
        diagnostics.write("lodestone \(command): " + (text.hasSuffix("\n") ? text : text + "\n"))
    }
}

/// The events of a process that leaves its signals at their default actions: none ever arrive, and
/// waiting sleeps.
final class DefaultSignals: ControlEventSource {
    func wait(seconds: Double) -> ControlEvents {
        Clock.sleep(seconds: seconds)
        return []
    }
}

extension EnvironmentValues {
    /// The units `GPSD_UNITS` asks for (metric, imperial or nautical, as gpsd's own clients read
    /// it); metric when it is unset or unknown.
    public var units: UnitSystem { value("GPSD_UNITS").flatMap(UnitSystem.init(gpsdUnits:)) ?? .metric }
}
