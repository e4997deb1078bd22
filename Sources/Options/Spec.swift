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
    /// Free text (an address, an identifier) read as given; `default` when absent
    /// (`ParsedArguments.text(_:)`).
    case text(default: String)

    /// The default as the help says it ("30", "2d"), or nil without one.
    public var defaultText: String? {
        switch self {
        case .number(_, let d): return d.map { plain($0) }
        case .integer(_, let d): return d.map { String($0) }
        case .choice(let d): return d
        case .text(let d): return d
        }
    }

    /// The accepted range as the help says it ("0.1–60", "-90 to 90"), or nil when not a number.
    public var rangeText: String? {
        func span(_ low: String, _ high: String, negative: Bool) -> String { negative ? low + " to " + high : low + "–" + high }
        switch self {
        case .number(let r, _): return span(plain(r.lowerBound), plain(r.upperBound), negative: r.lowerBound < 0)
        case .integer(let r, _): return span(String(r.lowerBound), String(r.upperBound), negative: r.lowerBound < 0)
        case .choice, .text: return nil
        }
    }
}

/// One option a command accepts. Its help says what it is; what it accepts and what happens
/// without it are declared beside it (`facts`, `absent`), never typed into the help, and
/// `summary` says them: so a default or a range is written once, where the code reads it.
///
/// ```swift
/// Option("rate", value: "HZ", range: 1...50.0, default: 10, help: "samples per second")
/// // summary: "samples per second (1–50; default 10)"
/// Option("date", value: "YYYY-MM-DD", absent: "today, UTC", help: "the date")
/// // summary: "the date (default: today, UTC)"
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
    /// What happens without the option when that is a behaviour rather than a value ("the detected
    /// chip", "until Ctrl-C"): the help's "(default: …)".
    public var absent: String?

    public init(_ name: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false,
                choices: [String] = [], completion: ValueCompletion? = nil, absent: String? = nil, help: String) {
        self.absent = absent
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
                                                     choices: C.Type, default: C? = nil, absent: String? = nil,
                                                     help: String) where C.RawValue == String {
        self.init(name, short: short, value: value, choices: C.allCases.map(\.rawValue), absent: absent, help: help)
        facts = .choice(default: `default`?.rawValue)
    }

    /// An option with a number value, its range and default declared here.
    public init(_ name: String, short: Character? = nil, value: String, range: ClosedRange<Double>, default: Double? = nil,
                absent: String? = nil, help: String) {
        self.init(name, short: short, value: value, absent: absent, help: help)
        facts = .number(range: range, default: `default`)
    }

    /// An option with a whole-number value, its range and default declared here.
    public init(_ name: String, short: Character? = nil, value: String, range: ClosedRange<Int>, default: Int? = nil,
                absent: String? = nil, help: String) {
        self.init(name, short: short, value: value, absent: absent, help: help)
        facts = .integer(range: range, default: `default`)
    }

    /// An option with a text value (an address, an identifier) and its default declared here.
    public init(_ name: String, short: Character? = nil, value: String, choices: [String] = [], default: String,
                help: String) {
        self.init(name, short: short, value: value, choices: choices, help: help)
        facts = .text(default: `default`)
    }

    /// The help text with the declared range and default (or what happens without the option):
    /// what `--help`, the man page and the completions say.
    public var summary: String {
        var said: [String] = []
        if let range = facts?.rangeText { said.append(range) }
        if let d = facts?.defaultText {
            said.append("default " + d)
        } else if let absent {
            said.append("default: " + absent)
        }
        return said.isEmpty ? help : help + " (" + said.joined(separator: "; ") + ")"
    }

    public var isFlag: Bool { valueName == nil }

    /// How the option reads in a usage line when it may be left out: `[--name VALUE]`, `[--json]`,
    /// a typed choice's words as its value (`[--format text|csv]`), `...` after a repeatable one.
    public var usageWord: String {
        let word = "[" + bareUsage + "]"
        return repeatable ? word + "..." : word
    }

    /// The option as it is written: `--name VALUE`, `--json`, `--format text|csv`.
    public var bareUsage: String {
        var word = "--" + name
        if case .choice? = facts, !choices.isEmpty {
            word += " " + choices.joined(separator: "|")
        } else if let v = valueName {
            word += " " + v
        }
        return word
    }
}

/// Options that stand together in a command's usage line, and are checked together when the
/// command line is parsed: one option the command needs (`--output FILE`), or alternatives of which
/// at most one may be given (`[--record FILE | --from-file FILE]`), exactly one when required
/// (`(--inverse | --direct)`). An alternative is one option or a few given together
/// (`(--lat DEG --lon DEG | --csv)`). A group that is not exclusive takes any number of them, at
/// least one when required (`(--nmea URL | --json FILE)...`).
///
/// ```swift
/// CommandSpec(name: "geod", abstract: "…", options: [inverse, direct, json],
///             usageGroups: [.oneOf([inverse, direct], required: true)])
/// ```
public struct OptionAlternatives: Sendable {
    public var alternatives: [[Option]]
    /// One alternative must be given.
    public var required: Bool
    /// At most one alternative may be given (false: any number).
    public var exclusive: Bool
    /// A command line that gives the group, said when a required group is missing.
    public var example: String?

    public init(_ alternatives: [[Option]], required: Bool = false, exclusive: Bool = true, example: String? = nil) {
        self.alternatives = alternatives
        self.required = required
        self.exclusive = exclusive
        self.example = example
    }

    /// One option the command cannot run without.
    public static func required(_ option: Option) -> OptionAlternatives { .init([[option]], required: true) }

    /// Single options of which at most one (exactly one when `required`) may be given.
    public static func oneOf(_ options: [Option], required: Bool = false) -> OptionAlternatives {
        .init(options.map { [$0] }, required: required)
    }

    /// Options of which at least one must be given, any number of them together.
    public static func anyOf(_ options: [Option], example: String? = nil) -> OptionAlternatives {
        .init(options.map { [$0] }, required: true, exclusive: false, example: example)
    }

    /// Every option of the group.
    public var options: [Option] { alternatives.flatMap { $0 } }

    /// The group in a usage line: `--output FILE`, `(--inverse | --direct)`, `[--date D | --year Y]`.
    public var usageWord: String {
        let body = alternatives.map { $0.map(\.bareUsage).joined(separator: " ") }.joined(separator: " | ")
        let more = exclusive ? "" : "..."
        if required { return alternatives.count == 1 && exclusive ? body : "(" + body + ")" + more }
        return "[" + body + "]" + more
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
    /// The options it needs and the alternatives among them: shown so in the usage line and checked
    /// when its command line is parsed.
    public var usageGroups: [OptionAlternatives]

    public init(name: String, abstract: String, options: [Option],
                positionals: [String] = [], positionalCompletions: [ValueCompletion] = [],
                usageGroups: [OptionAlternatives] = [], discussion: String = "") {
        self.usageGroups = usageGroups
        self.positionalCompletions = positionalCompletions
        self.name = name
        self.abstract = abstract
        self.options = options
        self.positionals = positionals
        self.discussion = discussion
    }

    /// The usage after the command name, generated from the positionals and every declared option
    /// (`[--rate HZ]`, `[--format text|csv|json]`, `[--region SPEC]...`; a required one without
    /// brackets, alternatives as one group where the first of them is declared: `(--a X | --b Y)`),
    /// wrapped before `width` columns with continuation lines indented under the first: what
    /// `--help` and the man page show.
    public var usage: String {
        var words = positionals
        var shown: Set<String> = []
        for option in options where !shown.contains(option.name) {
            if let group = usageGroups.first(where: { $0.options.contains { $0.name == option.name } }) {
                words.append(group.usageWord)
                shown.formUnion(group.options.map(\.name))
            } else {
                words.append(option.usageWord)
            }
        }
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
