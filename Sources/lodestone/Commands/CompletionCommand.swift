import Options
import Platform

/// `lodestone completion bash|zsh|fish`: the shell completion script, generated from the command
/// definitions (`lodestoneInterface`).
enum CompletionCommand: Command {
    static let spec = CommandSpec(
        name: "completion",
        abstract: "print the shell completion script for bash, zsh or fish",
        options: [],
        positionals: [CompletionShell.allCases.map(\.rawValue).joined(separator: "|")],
        discussion: """
        The Debian package and 'make install' install the scripts; to load one by hand:
          source <(lodestone completion bash)                  # in ~/.bashrc
          lodestone completion zsh > ~/.zfunc/_lodestone        # a folder in $fpath
          lodestone completion fish > ~/.config/fish/completions/lodestone.fish
        """)

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> ExitCode {
        let names = CompletionShell.allCases.map(\.rawValue)
        guard let name = arguments.positionals.first else {
            throw UsageError.missingArgument("the shell: " + names.joined(separator: ", "), command: spec.name)
        }
        guard let shell = CompletionShell(rawValue: name) else {
            throw UsageError.conflict("unknown shell '\(name)': expected " + names.joined(separator: ", ")
                + "\nsee 'lodestone completion --help'")
        }
        context.output.write(completionScript(for: lodestoneInterface, shell: shell))
        return .success
    }
}
