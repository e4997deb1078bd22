import Options
import Testing

/// Options carry their facts (issue #26): a value's type, range and default are declared once with
/// the option; help, man page and completions say the default from it; reading applies it; choices
/// are read as typed cases.
@Suite("options carry their facts")
struct OptionFactsTests {
    enum Shape: String, CaseIterable { case round, square, star }

    static let shape = Option("shape", value: "SHAPE", choices: Shape.self, default: .square, help: "the shape")
    static let size = Option("size", value: "S", range: 0.5...10, default: 2.5, help: "the size in metres")
    static let count = Option("count", value: "N", range: 1...9, default: 3, help: "how many")
    static let limit = Option("limit", value: "S", range: 1.0...100, help: "an optional limit")
    static let colour = Option("colour", value: "NAME", absent: "the theme's", help: "the colour")
    static let offset = Option("offset", value: "X", range: -5...5.0, default: 0, help: "an offset")
    static let spec = CommandSpec(name: "draw", abstract: "draws", options: [shape, size, count, limit, colour, offset])
    static let interface = ProgramInterface(name: "demo", version: "1", summary: "a demo", commands: [spec])

    @Test("the default is said in --help, the man page and every completion script, from the declaration")
    func defaultsSaid() {
        #expect(Self.size.summary == "the size in metres (0.5–10; default 2.5)")
        #expect(Self.shape.summary == "the shape (default square)")
        #expect(Self.limit.summary == "an optional limit (1–100)")
        #expect(Self.colour.summary == "the colour (default: the theme's)")
        #expect(Self.offset.summary == "an offset (-5 to 5; default 0)")
        let help = helpText(for: Self.spec, program: "demo")
        #expect(help.contains("the size in metres (0.5–10; default 2.5)") && help.contains("how many (1–9; default 3)"))
        #expect(manPage(for: Self.interface, date: nil).contains("the shape (default square)"))
        for shell in CompletionShell.allCases {
            #expect(completionScript(for: Self.interface, shell: shell).contains("round square star"), "\(shell)")
            if shell != .bash {
                #expect(completionScript(for: Self.interface, shell: shell).contains("default 2.5)"), "\(shell)")
            }
        }
    }

    @Test("reading applies the declared range and default; choices come back typed")
    func reading() throws {
        let none = try parseArguments([], spec: Self.spec)
        #expect(try none.chosen(Self.shape, as: Shape.self) == .square)
        #expect(try none.numberValue(Self.size) == 2.5)
        #expect(try none.integerValue(Self.count) == 3)
        #expect(try none.number(Self.limit) == nil)
        let given = try parseArguments(["--shape", "star", "--size", "7", "--count", "9", "--limit", "50"], spec: Self.spec)
        #expect(try given.chosen(Self.shape, as: Shape.self) == .star)
        #expect(try given.numberValue(Self.size) == 7)
        #expect(try given.integerValue(Self.count) == 9)
        #expect(try given.number(Self.limit) == 50)
        #expect(throws: UsageError.self) { try parseArguments(["--size", "11"], spec: Self.spec).numberValue(Self.size) }
        #expect(throws: UsageError.self) { try parseArguments(["--count", "0"], spec: Self.spec).integerValue(Self.count) }
        #expect(throws: UsageError.self) { try parseArguments(["--shape", "oval"], spec: Self.spec).chosen(Self.shape, as: Shape.self) }
    }

    static let input = Option("input", value: "FILE", help: "what to read")
    static let output = Option("output", value: "FILE", help: "where to write")
    static let north = Option("north", value: "DEG", help: "north")
    static let east = Option("east", value: "DEG", help: "east")
    static let batch = Option("batch", help: "read many")
    static let quiet = Option("quiet", help: "say less")
    static let loud = Option("loud", help: "say more")
    static let grouped = CommandSpec(name: "move", abstract: "moves", options: [quiet, north, east, batch, input, output, loud, size],
                                     usageGroups: [.required(input), OptionAlternatives([[north, east], [batch]], required: true),
                                                   .oneOf([quiet, loud])])

    @Test("a usage line shows a required option bare, required alternatives in parentheses, optional ones in brackets")
    func usageGroups() {
        #expect(Self.grouped.usage.split(separator: "\n").map { $0.trimmingSpaces }.joined(separator: " ")
                == "[--quiet | --loud] (--north DEG --east DEG | --batch) --input FILE [--output FILE] [--size S]")
        #expect(helpText(for: Self.grouped).contains("usage: lodestone move [--quiet | --loud] (--north DEG --east DEG | --batch)"))
        #expect(manPage(for: ProgramInterface(name: "demo", version: "1", summary: "a demo", commands: [Self.grouped]), date: nil)
            .contains(#"(\-\-north DEG \-\-east DEG | \-\-batch) \-\-input FILE"#))
    }

    @Test("parsing holds to the usage groups: a required option, one alternative of a required group, at most one of any group")
    func usageGroupsChecked() throws {
        _ = try parseArguments(["--input", "a", "--batch"], spec: Self.grouped)
        _ = try parseArguments(["--input", "a", "--north", "1", "--east", "2", "--loud"], spec: Self.grouped)
        _ = try parseArguments(["--help"], spec: Self.grouped)
        #expect(throws: UsageError.missingArgument("--input FILE", command: "move")) {
            try parseArguments(["--batch"], spec: Self.grouped)
        }
        #expect(throws: UsageError.missingArgument("one of --north DEG --east DEG or --batch", command: "move")) {
            try parseArguments(["--input", "a"], spec: Self.grouped)
        }
        #expect(throws: UsageError.self) { try parseArguments(["--input", "a", "--north", "1", "--batch"], spec: Self.grouped) }
        // The conflict names the options given, not the first of each alternative.
        #expect(throws: UsageError.conflict("options --east and --batch cannot be used together\nsee 'lodestone move --help'")) {
            try parseArguments(["--input", "a", "--east", "1", "--batch"], spec: Self.grouped)
        }
        #expect(throws: UsageError.self) { try parseArguments(["--input", "a", "--batch", "--quiet", "--loud"], spec: Self.grouped) }
        // A group of which any number may be given, at least one.
        let sinks = CommandSpec(name: "send", abstract: "sends", options: [Self.quiet, Self.loud, Self.input],
                                usageGroups: [.anyOf([Self.quiet, Self.loud], example: "send --quiet")])
        #expect(sinks.usage.hasPrefix("(--quiet | --loud)... "))
        _ = try parseArguments(["--quiet", "--loud"], spec: sinks)
        #expect(throws: UsageError.missingArgument("at least one of --quiet or --loud\ne.g. send --quiet", command: "send")) {
            try parseArguments([], spec: sinks)
        }
    }
}
