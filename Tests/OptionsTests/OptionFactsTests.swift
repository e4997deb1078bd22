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
    static let spec = CommandSpec(name: "draw", abstract: "draws", options: [shape, size, count, limit])
    static let interface = ProgramInterface(name: "demo", version: "1", summary: "a demo", commands: [spec])

    @Test("the default is said in --help, the man page and every completion script, from the declaration")
    func defaultsSaid() {
        #expect(Self.size.summary == "the size in metres (default 2.5)")
        #expect(Self.shape.summary == "the shape (default square)")
        #expect(Self.limit.summary == "an optional limit")
        let help = helpText(for: Self.spec, program: "demo")
        #expect(help.contains("the size in metres (default 2.5)") && help.contains("how many (default 3)"))
        #expect(manPage(for: Self.interface, date: nil).contains("the shape (default square)"))
        for shell in CompletionShell.allCases {
            #expect(completionScript(for: Self.interface, shell: shell).contains("round square star"), "\(shell)")
            if shell != .bash {
                #expect(completionScript(for: Self.interface, shell: shell).contains("(default 2.5)"), "\(shell)")
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
}
