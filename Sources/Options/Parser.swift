import Platform

/// Parses a subcommand's arguments against its `CommandSpec`.
///
/// Accepts `--name value`, `--name=value`, `-n value`, flags, and `--` to end options.
/// `--help`/`-h` are always accepted and reported in `helpRequested`.
///
/// ```swift
/// let spec = CommandSpec(name: "watch", abstract: "…", options: [Option("rate", value: "HZ", help: "…")])
/// let args = try parseArguments(["--rate", "20"], spec: spec)
/// let rate = try args.double("rate", in: 1...1000) ?? 50
/// ```
public func parseArguments(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments(command: spec.name)
    result.declared = Set(spec.options.map(\.name))
    var index = 0
    var optionsEnded = false

    func take(_ option: Option, inlineValue: String?, spelled: String) throws(UsageError) {
        if option.isFlag {
            if inlineValue != nil { throw .unexpectedValue(option: option.name) }
            if result.flags.contains(option.name) && !option.repeatable { throw .duplicateOption(option.name) }
            result.flags.insert(option.name)
            return
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else {
            index += 1
            guard index < arguments.count else {
                throw .missingValue(option: option.name, valueName: option.valueName ?? "VALUE")
            }
            value = arguments[index]
        }
        if result.values[option.name] != nil && !option.repeatable { throw .duplicateOption(option.name) }
        result.values[option.name, default: []].append(value)
    }

    while index < arguments.count {
        let arg = arguments[index]
        if optionsEnded || arg == "-" || !arg.hasPrefix("-") || isNegativeNumber(arg) {
            result.positionals.append(arg)
        } else if arg == "--" {
            optionsEnded = true
        } else if arg == "--help" || arg == "-h" {
            result.helpRequested = true
        } else if arg.hasPrefix("--") {
            let body = arg.dropFirst(2)
            let name: String
            var inline: String?
            if let eq = body.firstIndex(of: "=") {
                name = String(body[..<eq])
                inline = String(body[body.index(after: eq)...])
            } else {
                name = String(body)
            }
            guard let option = spec.option(named: name) else {
                throw .unknownOption(arg, command: spec.name,
                                     suggestion: closestMatch(to: name, in: spec.options.map(\.name)))
            }
            try take(option, inlineValue: inline, spelled: arg)
        } else {
            let letters = Array(arg.dropFirst())
            guard letters.count == 1, let option = spec.option(short: letters[0]) else {
                throw .unknownOption(arg, command: spec.name, suggestion: nil)
            }
            try take(option, inlineValue: nil, spelled: arg)
        }
        index += 1
    }
    if result.positionals.count > spec.positionals.count && !result.helpRequested {
        throw .unexpectedArgument(result.positionals[spec.positionals.count], command: spec.name)
    }
    if !result.helpRequested {
        for group in spec.usageGroups { try result.check(group, command: spec.name) }
    }
    return result
}

extension ParsedArguments {
    /// Throws when more than one of the group's alternatives is given, or none of a required group.
    func check(_ group: OptionAlternatives, command: String) throws(UsageError) {
        func present(_ option: Option) -> Bool { flags.contains(option.name) || values[option.name] != nil }
        // Each alternative given, by the first of its options given.
        let given = group.alternatives.compactMap { $0.first(where: present) }
        if given.count > 1 && group.exclusive {
            throw .conflict("options " + given.map { "--" + $0.name }.joined(separator: " and ")
                + " cannot be used together\nsee 'lodestone \(command) --help'")
        }
        if group.required && given.isEmpty {
            let words = group.alternatives.map { $0.map(\.bareUsage).joined(separator: " ") }
            let what = words.count == 1 ? words[0]
                : (group.exclusive ? "one of " : "at least one of ") + words.joined(separator: " or ")
            throw .missingArgument(what + (group.example.map { "\ne.g. " + $0 } ?? ""), command: command)
        }
    }
}

/// "-33.8" or a list of numbers starting with a negative one ("-33.86,151.2", a position).
private func isNegativeNumber(_ s: String) -> Bool {
    guard s.count > 1, s.hasPrefix("-") else { return false }
    return s.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { Double($0.trimmingSpaces) != nil }
}
