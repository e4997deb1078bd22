import Platform

/// A command line that cannot be run as given. Exit status 64.
public enum UsageError: Error, Equatable, Sendable {
    case unknownOption(String, command: String, suggestion: String?)
    case missingValue(option: String, valueName: String)
    case unexpectedValue(option: String)
    case duplicateOption(String)
    case unexpectedArgument(String, command: String)
    case missingArgument(String, command: String)
    case invalidValue(option: String, value: String, expected: String)
    /// A value whose parser said what is wrong with it in a whole sentence (`reason`).
    case rejectedValue(option: String, value: String, reason: String)
    case conflict(String)
    case unknownCommand(String, suggestion: String?)

    /// What went wrong and what to do, for the user. The user's own words are quoted through
    /// `argumentExcerpt` (cut, control characters left out).
    public var message: String {
        func quoted(_ text: String) -> String { argumentExcerpt(text) }
        switch self {
        case .unknownOption(let o, let command, let suggestion):
            return "unknown option '\(quoted(o))' for '\(command)'"
                + (suggestion.map { "; did you mean '--\($0)'?" } ?? "")
                + "\nsee 'lodestone \(command) --help'"
        case .missingValue(let o, let v): return "option '--\(o)' needs a value: --\(o) \(v)"
        case .unexpectedValue(let o): return "option '--\(o)' is a flag and takes no value"
        case .duplicateOption(let o): return "option '--\(o)' was given more than once"
        case .unexpectedArgument(let a, let command):
            return "unexpected argument '\(quoted(a))' for '\(command)'\nsee 'lodestone \(command) --help'"
        case .missingArgument(let a, let command):
            return "missing \(a)\nsee 'lodestone \(command) --help'"
        case .invalidValue(let o, let v, let expected):
            return "invalid value '\(quoted(v))' for --\(o): expected \(expected)"
        case .rejectedValue(let o, let v, let reason):
            return "invalid value '\(quoted(v))' for --\(o): \(reason)"
        case .conflict(let text): return text
        case .unknownCommand(let c, let suggestion):
            return "unknown command '\(quoted(c))'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                + "\nsee 'lodestone --help' for the list of commands"
        }
    }
}
