import Platform

/// What an option's value is, its range and its default, declared once with the option: the help
/// text, the man page and the completions say the default from it, and `ParsedArguments.number`,
/// `.integer` and `.choice(_:as:)` check the range and apply the default from it.
public enum ValueFacts: Sendable, Equatable {
    /// A finite number within `range`; `default` when absent (nil: no value).
    case number(range: ClosedRange<Double>, default: Double?)
    /// A whole number within `range`; `default` when absent.
    case integer(range: ClosedRange<Int>, default: Int?)
    /// One of the option's `choices` (typed: `ParsedArguments.choice(_:as:)`); `default` when absent.
    case choice(default: String?)

    /// "default 30", or nil without a default.
    public var defaultText: String? {
        switch self {
        case .number(_, let d): return d.map { plain($0) }
        case .integer(_, let d): return d.map { String($0) }
        case .choice(let d): return d
        }
    }
}

/// One option a command accepts.
///
/// ```swift
/// Option("rate", value: "HZ", help: "samples per second (default 50)")
/// Option("json", help: "print JSON instead of text")       // a flag
/// ```
public struct Option: Sendable {
    /// Long name without dashes ("rate" for `--rate`).
    public var name: String
    /// Optional one-letter short form ("o" for `-o`).
    public var short: Character?
    /// Name of the value in help ("HZ"), or nil for a flag.
    public var valueName: String?
    public var help: String
    /// May be given more than once (values accumulate).
    public var repeatable: Bool
    /// The words the value can be (empty: any value): the shell completions offer them, and
    /// `ParsedArguments.choice(_:)` accepts only them. Options with their own parsing (a sensor name,
    /// an orientation) list their accepted names here for the completions.
    public var choices: [String]
    /// How a shell completes the value when neither the choices nor a FILE-like value name say
    /// (a saved place's name).
    public var completion: ValueCompletion?
    /// The value's type, range and default, when declared.
    public var facts: ValueFacts?

    public init(_ name: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false,
                choices: [String] = [], completion: ValueCompletion? = nil, help: String) {
        self.completion = completion
        self.name = name
        self.short = short
        self.valueName = value
        self.help = help
        self.repeatable = repeatable
        self.choices = choices
    }

    /// An option whose value is one of an enumeration's cases (their raw values are the words), with
    /// its default: `Option("format", value: "FORMAT", choices: Format.self, default: .text, help: …)`.
    public init<C: CaseIterable & RawRepresentable>(_ name: String, short: Character? = nil, value: String,
                                                     choices: C.Type, default: C? = nil, help: String) where C.RawValue == String {
        self.init(name, short: short, value: value, choices: C.allCases.map(\.rawValue), help: help)
        facts = .choice(default: `default`?.rawValue)
    }

    /// An option with a number value, its range and default declared here.
    public init(_ name: String, short: Character? = nil, value: String, range: ClosedRange<Double>, default: Double? = nil,
                help: String) {
        self.init(name, short: short, value: value, help: help)
        facts = .number(range: range, default: `default`)
    }

    /// An option with a whole-number value, its range and default declared here.
    public init(_ name: String, short: Character? = nil, value: String, range: ClosedRange<Int>, default: Int? = nil,
                help: String) {
        self.init(name, short: short, value: value, help: help)
        facts = .integer(range: range, default: `default`)
    }

    /// The help text with the declared default: what `--help`, the man page and the completions say.
    public var summary: String {
        guard let d = facts?.defaultText else { return help }
        return help + " (default " + d + ")"
    }

    public var isFlag: Bool { valueName == nil }

    /// How the option reads in a usage line: `[--name VALUE]`, `[--json]`, a typed choice's words
    /// as its value (`[--format text|csv]`), `...` after a repeatable one.
    public var usageWord: String {
        var word = "[--" + name
        if case .choice? = facts, !choices.isEmpty {
            word += " " + choices.joined(separator: "|")
        } else if let v = valueName {
            word += " " + v
        }
        word += "]"
        return repeatable ? word + "..." : word
    }
}

/// A subcommand's interface: its name, what it does, and its options.
public struct CommandSpec: Sendable {
    public var name: String
    /// One line for the command list.
    public var abstract: String
    public var options: [Option]
    /// Names for positional arguments in help; empty means none are accepted.
    public var positionals: [String]
    /// Extra paragraphs for `--help`: examples, notes.
    public var discussion: String
    /// How each positional argument completes, in order (empty: from the positionals' names).
    public var positionalCompletions: [ValueCompletion]

    public init(name: String, abstract: String, options: [Option],
                positionals: [String] = [], positionalCompletions: [ValueCompletion] = [], discussion: String = "") {
        self.positionalCompletions = positionalCompletions
        self.name = name
        self.abstract = abstract
        self.options = options
        self.positionals = positionals
        self.discussion = discussion
    }

    /// The usage after the command name, generated from the positionals and every declared option
    /// (`[--rate HZ]`, `[--format text|csv|json]`, `[--region SPEC]...`), wrapped before `width`
    /// columns with continuation lines indented under the first: what `--help` and the man page show.
    public var usage: String {
        let words = positionals + options.map(\.usageWord)
        var lines: [String] = []
        var line = ""
        for word in words {
            if !line.isEmpty && line.count + 1 + word.count > CommandSpec.usageWidth {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n       ")
    }

    /// Columns a usage line's options fill before the next line.
    static let usageWidth = 88

    func option(named name: String) -> Option? { options.first { $0.name == name } }
    func option(short: Character) -> Option? { options.first { $0.short == short } }
}
