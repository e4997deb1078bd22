/// The whole command line described once: the program, its commands (the same `CommandSpec`s the
/// parser and `--help` use) and the man page's extra sections. The overview (`lodestone --help`), the
/// man page and the shell completions are all generated from it, so none can miss a command or option.
///
/// ```swift
/// let interface = ProgramInterface(name: "lodestone", version: "0.1.0", summary: "a compass",
///                                  commands: [watchSpec, logSpec])
/// print(manPage(for: interface, date: "2026-12-01"))
/// print(completionScript(for: interface, shell: .bash))
/// ```
public struct ProgramInterface: Sendable {
    /// The program's name as typed ("lodestone").
    public var name: String
    public var version: String
    /// One line: what the program is.
    public var summary: String
    /// The man page's DESCRIPTION paragraphs (blank lines separate paragraphs; indented lines are
    /// examples, kept as they are).
    public var description: String
    /// Every command, in the order the overview lists them.
    public var commands: [CommandSpec]
    /// Lines after the command list in the overview (how to get more help, exit codes).
    public var overviewNotes: [String]
    /// Further man page sections (EXIT STATUS, FILES, ENVIRONMENT, SEE ALSO, …), in order.
    public var sections: [ManSection]

    public init(name: String, version: String, summary: String, description: String = "",
                commands: [CommandSpec], overviewNotes: [String] = [], sections: [ManSection] = []) {
        self.name = name
        self.version = version
        self.summary = summary
        self.description = description
        self.commands = commands
        self.overviewNotes = overviewNotes
        self.sections = sections
    }

    /// The options every invocation accepts before a command.
    public static let topLevelOptions: [Option] = [
        Option("help", short: "h", help: "show the list of commands (with a command: its options)"),
        Option("version", short: "V", help: "print the version, the git commit and the build date"),
    ]

    /// The built-in `help COMMAND` word, which the completions offer with the command names.
    public static let helpCommand = "help"
}

/// One extra man page section: a title ("FILES") and text in the same form as
/// `ProgramInterface.description`.
public struct ManSection: Sendable {
    public var title: String
    public var text: String

    public init(_ title: String, _ text: String) {
        self.title = title
        self.text = text
    }
}

/// The overview `PROGRAM --help` prints: the summary, the usage, every command with its abstract,
/// then the notes.
public func overviewText(for interface: ProgramInterface) -> String {
    var lines = [
        "\(interface.name) \(interface.version): \(interface.summary)",
        "",
        "usage: \(interface.name) COMMAND [options]",
        "",
        "commands:",
    ]
    let width = (interface.commands.map(\.name.count).max() ?? 8) + 4
    for command in interface.commands {
        lines.append("  " + command.name + String(repeating: " ", count: width - command.name.count) + command.abstract)
    }
    if !interface.overviewNotes.isEmpty {
        lines.append("")
        lines += interface.overviewNotes
    }
    return lines.joined(separator: "\n") + "\n"
}

/// How a shell completes an option's value or a positional argument.
public enum ValueCompletion: Sendable, Equatable {
    /// Nothing to offer (a number, a name the user knows).
    case none
    /// File names.
    case files
    /// One of these words.
    case words([String])
    /// The lines the program itself prints when run with these arguments (saved place names:
    /// `["places", "list", "--names"]`), read when the user presses Tab.
    case programOutput([String])
}

extension Option {
    /// Flags complete nothing; values complete the declared choices, file names for `FILE`-like value
    /// names (FILE, FILE.csv, PROFILE, PATH, DIR), else nothing.
    public var valueCompletion: ValueCompletion {
        guard let valueName else { return .none }
        if let completion { return completion }
        if !choices.isEmpty { return .words(choices.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }) }
        return namesFiles(valueName) ? .files : .none
    }
}

extension CommandSpec {
    /// How the command's positional arguments complete: file names when one is FILE-like, the words
    /// of a name written as lower-case alternatives ("bash|zsh|fish"), else nothing.
    public var positionalCompletion: ValueCompletion {
        if let first = positionalCompletions.first { return first }
        for name in positionals {
            if namesFiles(name) { return .files }
            let words = name.split(separator: "|").map(String.init)
            if !words.isEmpty, words.allSatisfy({ w in !w.isEmpty && w.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } }) {
                return .words(words)
            }
        }
        return .none
    }
}

extension CommandSpec {
    /// How each positional argument completes, in order (the last one for any further ones):
    /// the declared `positionalCompletions`, else `positionalCompletion` for all.
    public var completionsByPosition: [ValueCompletion] {
        positionalCompletions.isEmpty ? [positionalCompletion] : positionalCompletions
    }
}

private func namesFiles(_ valueName: String) -> Bool {
    let upper = valueName.uppercased()
    return ["FILE", "PROFILE", "PATH", "DIR"].contains { upper.contains($0) }
}
