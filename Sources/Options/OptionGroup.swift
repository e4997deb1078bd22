/// A set of options that belong together (the sensor's, the GNSS source's, the log file's): it
/// declares them once, reads them into a typed value, and checks their conflicts once. Commands add
/// `Group.options` to their spec and build the group from the parsed arguments.
///
/// ```swift
/// struct RateOptions: OptionGroup {
///     static let rate = Option("rate", value: "HZ", range: 1...50.0, default: 10, help: "updates per second")
///     static var options: [Option] { [rate] }
///     var rate: Double
///     init(_ arguments: ParsedArguments) throws(UsageError) {
///         rate = try arguments.numberValue(Self.rate)
///     }
/// }
/// ```
public protocol OptionGroup {
    /// The options this group declares, in help order.
    static var options: [Option] { get }
    /// Reads and checks the group's options.
    init(_ arguments: ParsedArguments) throws(UsageError)
}

/// Typed access by the declared `Option` itself, so a name cannot be misspelled: reading an option the
/// command's spec does not declare is a programming error (asserted in debug builds).
extension ParsedArguments {
    private func checked(_ option: Option) -> String {
        assert(declared.isEmpty || declared.contains(option.name),
               "'lodestone \(command)' reads --\(option.name), which its spec does not declare")
        return option.name
    }

    /// True when the flag was given.
    public func flag(_ option: Option) -> Bool { flag(checked(option)) }

    /// True when the option was given at all (flag or value).
    public func isPresent(_ option: Option) -> Bool {
        let name = checked(option)
        return flags.contains(name) || values[name] != nil
    }

    /// The option's (last) value as text, or nil when absent.
    public func string(_ option: Option) -> String? { string(checked(option)) }

    /// Every value of a repeatable option.
    public func strings(_ option: Option) -> [String] { strings(checked(option)) }

    /// The option as a finite number, optionally within a range.
    public func double(_ option: Option, in range: ClosedRange<Double>? = nil) throws(UsageError) -> Double? {
        try double(checked(option), in: range)
    }

    /// The option as a whole number (decimal or 0x hex), optionally within a range.
    public func int(_ option: Option, in range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        try int(checked(option), in: range)
    }

    /// The option as one of a fixed set of words.
    public func choice(_ option: Option, from choices: [String]) throws(UsageError) -> String? {
        try choice(checked(option), from: choices)
    }

    /// The option as one of the words it declares (`Option.choices`).
    public func choice(_ option: Option) throws(UsageError) -> String? {
        assert(!option.choices.isEmpty, "--\(option.name) declares no choices")
        return try choice(checked(option), from: option.choices)
    }

    /// A number option by its declared facts: within its range, its default when absent.
    public func number(_ option: Option) throws(UsageError) -> Double? {
        guard case .number(let range, let fallback)? = option.facts else {
            assertionFailure("--\(option.name) declares no number range"); return try double(option)
        }
        return try double(option, in: range) ?? fallback
    }

    /// A whole-number option by its declared facts: within its range, its default when absent.
    public func integer(_ option: Option) throws(UsageError) -> Int? {
        guard case .integer(let range, let fallback)? = option.facts else {
            assertionFailure("--\(option.name) declares no integer range"); return try int(option)
        }
        return try int(option, in: range) ?? fallback
    }

    /// A choice option as its enumeration's case (its declared default when absent).
    public func choice<C: CaseIterable & RawRepresentable>(_ option: Option, as type: C.Type) throws(UsageError) -> C?
        where C.RawValue == String {
        let text = try choice(option) ?? option.facts?.defaultText
        return text.flatMap(C.init(rawValue:))
    }

    /// A choice option that declares a default, as its enumeration's case: the value given or the default.
    public func chosen<C: CaseIterable & RawRepresentable>(_ option: Option, as type: C.Type) throws(UsageError) -> C
        where C.RawValue == String {
        assert(option.facts?.defaultText != nil, "--\(option.name) declares no default")
        return try choice(option, as: type) ?? C.allCases.first!
    }

    /// A number option that declares a default: the value given or the default.
    public func numberValue(_ option: Option) throws(UsageError) -> Double {
        guard case .number(let range, let fallback?)? = option.facts else {
            preconditionFailure("--\(option.name) declares no default")
        }
        return try double(option, in: range) ?? fallback
    }

    /// A whole-number option that declares a default: the value given or the default.
    public func integerValue(_ option: Option) throws(UsageError) -> Int {
        guard case .integer(let range, let fallback?)? = option.facts else {
            preconditionFailure("--\(option.name) declares no default")
        }
        return try int(option, in: range) ?? fallback
    }

    /// A text option that declares a default (`ValueFacts.text`): the value given or the default.
    public func text(_ option: Option) -> String {
        guard case .text(let fallback)? = option.facts else {
            preconditionFailure("--\(option.name) declares no text default")
        }
        return string(option) ?? fallback
    }

    /// Throws when more than one of the group's alternatives is given (or none of a required one).
    public func require(_ group: OptionAlternatives) throws(UsageError) {
        for option in group.options { _ = checked(option) }
        try check(group, command: command)
    }

    /// Two comma-separated numbers, e.g. `--location -33.87,151.21`.
    public func pair(_ option: Option, expected: String) throws(UsageError) -> (Double, Double)? {
        try pair(checked(option), expected: expected)
    }

    /// Throws when `option` is present together with any of `others`, naming the pair.
    public func reject(_ others: [Option], with option: Option, because reason: String) throws(UsageError) {
        guard isPresent(option) else { return }
        for other in others where isPresent(other) {
            throw .conflict("--\(other.name) cannot be used with --\(option.name) (\(reason))")
        }
    }
}
