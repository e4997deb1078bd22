import Platform

/// The result of parsing: flags, option values and positionals, with typed, validated accessors.
public struct ParsedArguments: Sendable, Equatable {
    public var command: String
    public var flags: Set<String> = []
    public var values: [String: [String]] = [:]
    public var positionals: [String] = []
    public var helpRequested = false
    /// The names of the options the command's spec declares (empty when parsed without a spec).
    public var declared: Set<String> = []

    public init(command: String) { self.command = command }

    /// True when the flag was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The option's (last) value as text, or nil when absent.
    public func string(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option.
    public func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// The option as a finite number, optionally within a range.
    public func double(_ name: String, in range: ClosedRange<Double>? = nil) throws(UsageError) -> Double? {
        guard let text = string(name) else { return nil }
        guard let v = Double(text), v.isFinite else {
            throw .invalidValue(option: name, value: text, expected: range.map { "a number from \(plain($0.lowerBound)) to \(plain($0.upperBound))" } ?? "a number")
        }
        if let range, !range.contains(v) {
            throw .invalidValue(option: name, value: text, expected: "a number from \(plain(range.lowerBound)) to \(plain(range.upperBound))")
        }
        return v
    }

    /// The option as a whole number (decimal or 0x hex), optionally within a range.
    public func int(_ name: String, in range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        guard let text = string(name) else { return nil }
        let parsed: Int? = text.lowercased().hasPrefix("0x") ? Int(text.dropFirst(2), radix: 16) : Int(text)
        let expected = range.map { "a whole number from \($0.lowerBound) to \($0.upperBound)" } ?? "a whole number"
        guard let v = parsed else { throw .invalidValue(option: name, value: text, expected: expected) }
        if let range, !range.contains(v) { throw .invalidValue(option: name, value: text, expected: expected) }
        return v
    }

    /// The option as one of a fixed set of words.
    public func choice(_ name: String, from choices: [String]) throws(UsageError) -> String? {
        guard let text = string(name) else { return nil }
        if choices.contains(text) { return text }
        // "ut" for "uT", "Daily" for "daily": the word whatever its case, when only one matches.
        let folded = choices.filter { $0.lowercased() == text.lowercased() }
        guard folded.count == 1 else {
            throw .invalidValue(option: name, value: text, expected: "one of " + choices.joined(separator: ", "))
        }
        return folded[0]
    }

    /// Two comma-separated numbers, e.g. `--location -33.87,151.21`.
    public func pair(_ name: String, expected: String) throws(UsageError) -> (Double, Double)? {
        guard let text = string(name) else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let a = Double(parts[0].trimmingSpaces), let b = Double(parts[1].trimmingSpaces),
              a.isFinite, b.isFinite
        else { throw .invalidValue(option: name, value: text, expected: expected) }
        return (a, b)
    }
}

extension Substring {
    /// Without leading and trailing spaces.
    public var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
