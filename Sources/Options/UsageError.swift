/// A command line that cannot be run as given. Exit status 64.
public enum UsageError: Error, Equatable, Sendable {
    case unknownOption(String, command: String, suggestion: String?)
    case missingValue(option: String, valueName: String)
    case unexpectedValue(option: String)
    case duplicateOption(String)
    case unexpectedArgument(String, command: String)
    case missingArgument(String, command: String)
    case invalidValue(option: String, value: String, expected: String)
    case conflict(String)
    case unknownCommand(String, suggestion: String?)

    /// What went wrong and what to do, for the user.
    public var message: String {
        switch self {
        case .unknownOption(let o, let command, let suggestion):
            return "unknown option '\(o)' for '\(command)'"
                + (suggestion.map { "; did you mean '--\($0)'?" } ?? "")
                + "\nsee 'lodestone \(command) --help'"
        case .missingValue(let o, let v): return "option '--\(o)' needs a value: --\(o) \(v)"
        case .unexpectedValue(let o): return "option '--\(o)' is a flag and takes no value"
        case .duplicateOption(let o): return "option '--\(o)' was given more than once"
        case .unexpectedArgument(let a, let command):
            return "unexpected argument '\(a)' for '\(command)'\nsee 'lodestone \(command) --help'"
        case .missingArgument(let a, let command):
            return "missing \(a)\nsee 'lodestone \(command) --help'"
        case .invalidValue(let o, let v, let expected):
            return "invalid value '\(v)' for --\(o): expected \(expected)"
        case .conflict(let text): return text
        case .unknownCommand(let c, let suggestion):
            return "unknown command '\(c)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                + "\nsee 'lodestone --help' for the list of commands"
        }
    }
}

/// The closest candidate within a small edit distance, for "did you mean" hints.
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    var best: (String, Int)?
    for c in candidates {
        let d = editDistance(Array(word), Array(c))
        if d <= max(2, word.count / 3), best == nil || d < best!.1 { best = (c, d) }
    }
    return best?.0
}

func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
