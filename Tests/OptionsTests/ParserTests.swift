import Options
import Testing

let spec = CommandSpec(
    name: "demo", abstract: "a demo",
    options: [
        Option("rate", short: "r", value: "HZ", help: "rate"),
        Option("json", help: "json output"),
        Option("lat", value: "DEG", help: "latitude"),
        Option("tag", value: "T", repeatable: true, help: "tags"),
        Option("location", value: "LAT,LON", help: "place"),
    ],
    positionals: ["FILE"])

@Suite struct ParserTests {
    @Test func longShortAndInlineValues() throws {
        let a = try parseArguments(["--rate", "20", "--json", "file.csv"], spec: spec)
        #expect(a.string("rate") == "20")
        #expect(a.flag("json"))
        #expect(a.positionals == ["file.csv"])
        let b = try parseArguments(["-r", "5", "--lat=-33.5"], spec: spec)
        #expect(try b.double("rate") == 5)
        #expect(try b.double("lat", in: -90...90) == -33.5)
    }

    @Test func negativeNumbersAreValuesNotOptions() throws {
        let a = try parseArguments(["--lat", "-33.87"], spec: spec)
        #expect(try a.double("lat") == -33.87)
        let b = try parseArguments(["--", "--json"], spec: spec)
        #expect(b.positionals == ["--json"])
        #expect(!b.flag("json"))
    }

    @Test func errors() {
        #expect(throws: UsageError.missingValue(option: "rate", valueName: "HZ")) { try parseArguments(["--rate"], spec: spec) }
        #expect(throws: UsageError.unexpectedValue(option: "json")) { try parseArguments(["--json=yes"], spec: spec) }
        #expect(throws: UsageError.duplicateOption("rate")) { try parseArguments(["--rate", "1", "--rate", "2"], spec: spec) }
        #expect(throws: UsageError.unexpectedArgument("b", command: "demo")) { try parseArguments(["a", "b"], spec: spec) }
        #expect(throws: UsageError.unknownOption("--rat", command: "demo", suggestion: "rate")) { try parseArguments(["--rat", "1"], spec: spec) }
        #expect(throws: UsageError.unknownOption("-x", command: "demo", suggestion: nil)) { try parseArguments(["-x"], spec: spec) }
    }

    /// A pasted file's worth given as an argument is quoted back cut (with "…"), not whole.
    @Test func messagesQuoteLongArgumentsCut() {
        let huge = String(repeating: "x", count: 100_000) + "\u{1B}[2J"
        let errors: [UsageError] = [
            .invalidValue(option: "rate", value: huge, expected: "a number from 1 to 50"),
            .rejectedValue(option: "nmea", value: huge, reason: "not a URL"),
            .unknownOption("--" + huge, command: "demo", suggestion: nil),
            .unexpectedArgument(huge, command: "demo"),
            .unknownCommand(huge, suggestion: nil),
        ]
        for error in errors {
            #expect(error.message.count < 250, "\(error.message.prefix(300))")
            #expect(error.message.contains("xxxxxxxxxx…"))
            #expect(!error.message.contains("\u{1B}"))
        }
        // A short one is quoted whole.
        #expect(UsageError.invalidValue(option: "rate", value: "abc", expected: "a number").message
                == "invalid value 'abc' for --rate: expected a number")
    }

    @Test func typedAccessorsValidate() throws {
        let a = try parseArguments(["--lat", "91", "--rate", "nan"], spec: spec)
        #expect(throws: UsageError.self) { try a.double("lat", in: -90...90) }
        #expect(throws: UsageError.self) { try a.double("rate") }
        let b = try parseArguments(["--rate", "0x1e"], spec: spec)
        #expect(try b.int("rate") == 30)
        let c = try parseArguments(["--location", "-33.87, 151.2"], spec: spec)
        let pair = try c.pair("location", expected: "LAT,LON")
        #expect(pair?.0 == -33.87 && pair?.1 == 151.2)
        let d = try parseArguments(["--location", "1;2"], spec: spec)
        #expect(throws: UsageError.self) { try d.pair("location", expected: "LAT,LON") }
    }

    @Test func repeatableAndChoice() throws {
        let a = try parseArguments(["--tag", "a", "--tag", "b", "--rate", "x"], spec: spec)
        #expect(a.strings("tag") == ["a", "b"])
        #expect(throws: UsageError.self) { try a.choice("rate", from: ["2d", "3d"]) }
    }

    @Test func helpIsAcceptedAnywhere() throws {
        let a = try parseArguments(["extra", "more", "--help"], spec: spec)
        #expect(a.helpRequested)
        let text = helpText(for: spec)
        #expect(text.contains("--rate HZ"))
        #expect(text.contains("-r, --rate"))
        #expect(text.contains("usage: lodestone demo"))
    }

    @Test func suggestions() {
        #expect(UsageError.unknownCommand("wach", suggestion: "watch").message.contains("did you mean 'watch'"))
    }
}
