import Options
import Platform
import Session

/// A subcommand: its interface (`spec`) and what it does with parsed arguments.
protocol Command {
    static var spec: CommandSpec { get }
    /// Runs the command in `context` (the process, or a test's world). Errors that reach the user
    /// conform to `UserFacingError` or are `UsageError`.
    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode
}

/// Where a command runs: the process (its clocks, signals, standard streams, terminal and
/// environment), or a test's world (a manual clock, scripted signals, captured text), so the whole
/// command line, from the parser to the exit status, runs in process in a test. The dispatcher
/// writes its own texts (help, version, usage errors, failures) to `output` and `errors`; a
/// command asks for the `Runtime` its session takes.
///
/// ```swift
/// let status = Dispatcher.run(["declination", "--lat", "52", "--lon", "0"], in: .process())
/// ```
struct CommandContext {
    /// Standard output: help, version, completion scripts (and, in the process, every command's).
    let output: any TextOutput
    /// Standard error: usage errors and the messages of failures.
    let errors: any TextOutput
    /// The environment the command reads (places file, config folder, units).
    let environment: EnvironmentValues
    private let makeRuntime: (_ command: String, _ signals: Bool) -> Runtime

    init(output: any TextOutput, errors: any TextOutput, environment: EnvironmentValues,
         runtime: @escaping (_ command: String, _ signals: Bool) -> Runtime) {
        self.output = output
        self.errors = errors
        self.environment = environment
        makeRuntime = runtime
    }

    /// The process's own: `Runtime.system` writing to this context's standard output, so a failed
    /// write is seen by the dispatcher at the end.
    static func process() -> CommandContext {
        let output = StandardOutput()
        return CommandContext(output: output, errors: StandardError(), environment: .process) { command, signals in
            StandardOutput.$current.withValue(output) { Runtime.system(command: command, signals: signals) }
        }
    }

    /// The runtime for `command`'s session; with `signals` (a long-running command) SIGINT and
    /// SIGTERM arrive as events instead of ending the process (see `Runtime.system`).
    func runtime(_ command: String, signals: Bool = true) -> Runtime { makeRuntime(command, signals) }

    /// Writes one message to standard error, adding a line end.
    func error(_ text: String) {
        errors.write(text.hasSuffix("\n") ? text : text + "\n")
    }
}

/// The program's version, printed by `lodestone --version`.
let lodestoneVersion = "0.1.0"
