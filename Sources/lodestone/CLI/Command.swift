import Options
import Platform

/// A subcommand: its interface (`spec`) and what it does with parsed arguments.
protocol Command {
    static var spec: CommandSpec { get }
    /// Runs the command. Errors that reach the user conform to `UserFacingError` or are `UsageError`.
    static func run(_ arguments: ParsedArguments) throws -> ExitCode
}

/// The program's version, printed by `lodestone --version`.
let lodestoneVersion = "0.1.0"
