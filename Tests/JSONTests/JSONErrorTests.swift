import Testing
@testable import JSON

@Suite("JSON errors")
struct JSONErrorTests {
    static let malformed: [String] = [
        "", "   ", "[", "]", "{", "}", "[1,]", "[,1]", "[1 2]", "{\"a\"}", "{\"a\":}", "{\"a\" 1}",
        "{a:1}", "{\"a\":1,}", "{'a':1}", "tru", "nul", "True", "NaN", "Infinity", "-Infinity",
        "01", "-", "-01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1.5e", "\"abc", "\"\\x\"",
        "\"\\u12\"", "\"\\u12G4\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"a\tb\"",
        "\"a\nb\"", "[1] x", "{} {}", "1 2", "nullx", "[\"a\" : 1]", "1e999", "-1e400", "\"\\",
        "[true false]", "{\"a\":1 \"b\":2}",
    ]

    @Test(arguments: malformed)
    func rejectsMalformed(_ text: String) {
        #expect(throws: JSONError.self) { try JSONValue.parse(text) }
    }

    @Test func rejectsInvalidUTF8Bytes() {
        let bad: [[UInt8]] = [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0xFE]]
        for bytes in bad {
            #expect(throws: JSONError.self) { try JSONValue.parse(bytes) }
        }
    }

    @Test func reportsLineAndColumn() {
        do {
            _ = try JSONValue.parse("{\n  \"a\": 1,\n  \"b\": tru\n}")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 8)
            #expect(error.message.contains("line 3, column 8"))
            #expect(error.message.contains("'true'"))
        }
    }

    @Test func messagesNameTheProblem() {
        func message(_ text: String) -> String {
            do { _ = try JSONValue.parse(text); return "" } catch { return error.message }
        }
        #expect(message("[1, 2").contains("unexpected end of input"))
        #expect(message("[1] x").contains("after the JSON value"))
        #expect(message("\"\\ud800\"").contains("surrogate"))
        #expect(message("\"a\u{1}\"").contains("control character"))
        #expect(message("").contains("empty input"))
        #expect(message("[1;2]").contains("';'"))
        #expect(message("1e999").contains("too large"))
    }

    @Test func enforcesDepthLimit() throws {
        let ok = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(throws: Never.self) { try JSONValue.parse(ok) }
        let deep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        do {
            _ = try JSONValue.parse(deep)
            Issue.record("expected tooDeep")
        } catch {
            #expect(error.kind == .tooDeep(limit: 256))
        }
        // Far deeper than the stack could handle recursively: still a clean error.
        let huge = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONError.self) { try JSONValue.parse(huge) }
        #expect(throws: JSONError.self) { try JSONValue.parse("[[[1]]]", maxDepth: 2) }
    }
}
