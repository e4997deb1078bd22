import Testing
@testable import JSON
import Linear

/// Properties of the parser and writer over many generated documents (fixed seeds).
///
/// The generator below writes JSON text on its own (its own whitespace, escapes and number
/// spellings; numbers are read back with the standard library's `Double(String)`), together with
/// the value the text means. So the parser is checked against an independent model, not against
/// the writer.
@Suite("JSON fuzz")
struct JSONFuzzTests {
    @Test("generated documents parse to the value they spell; parse → serialize → parse is the identity")
    func generatedDocumentsRoundTrip() throws {
        var generator = DocumentGenerator(seed: 20_250_101)
        for _ in 0..<3_000 {
            let (text, model) = generator.document()
            let parsed = try JSONValue.parse(text)
            #expect(parsed == model, "\(text)")
            for pretty in [false, true] {
                let written = parsed.serialized(pretty: pretty)
                let again = try JSONValue.parse(written)
                #expect(again == parsed, "\(written)")
                #expect(again.serialized(pretty: pretty) == written, "the writer's output is a fixed point")
            }
        }
    }

    @Test("malformed inputs (cut short, trailing data, raw control characters) throw a JSONError inside the input")
    func malformedInputsThrowTypedErrors() {
        var generator = DocumentGenerator(seed: 7)
        var checked = 0, total = 0
        for _ in 0..<400 {
            let (text, _) = generator.containerDocument()
            let bytes = Array(text.utf8)
            var bad: [([UInt8], String)] = []
            // Every strict prefix of an array or object document leaves the outer bracket open.
            let cut = 1 + Int(generator.rng.next() % UInt64(bytes.count - 1))
            bad.append((Array(bytes[..<cut]), "cut at \(cut)"))
            // Anything but whitespace after a complete value.
            for tail in [" x", ",", "]", "}", " 1", "\"a\"", "\u{0}"] { bad.append((bytes + Array(tail.utf8), "tail \(tail)")) }
            // A raw control character inside a string.
            if let quote = bytes.firstIndex(of: UInt8(ascii: "\"")) {
                var b = bytes
                b.insert(UInt8(generator.rng.next() % 0x20), at: quote + 1)
                bad.append((b, "control character after byte \(quote)"))
            }
            // A byte that can start no value where a value must come.
            bad.append((Array("[".utf8) + [0xFF] + Array("]".utf8), "0xFF as a value"))
            total += bad.count
            for (input, what) in bad {
                do {
                    let value = try JSONValue.parse(input)
                    Issue.record("\(what): parsed \(String(decoding: input, as: UTF8.self)) as \(value)")
                } catch {
                    checked += 1
                    #expect(error.offset >= 0 && error.offset <= input.count, "\(what): offset \(error.offset)")
                    #expect(error.line >= 1 && error.column >= 1)
                    #expect(error.message.contains("(line \(error.line), column \(error.column))"))
                }
            }
        }
        #expect(checked == total && total >= 400 * 9)
    }

    @Test("random mutations of valid documents either parse (and round-trip) or throw a JSONError, never crash")
    func mutatedInputsNeverCrash() throws {
        var generator = DocumentGenerator(seed: 99)
        let interesting: [UInt8] = Array("{}[],:\"\\u0123456789eE+-.tfn \n\t".utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xED, 0xFF]
        var parsed = 0, rejected = 0
        for _ in 0..<20_000 {
            var bytes = Array(generator.document().text.utf8)
            for _ in 0..<(1 + Int(generator.rng.next() % 4)) {
                guard !bytes.isEmpty else { break }
                let at = Int(generator.rng.next() % UInt64(bytes.count))
                switch generator.rng.next() % 5 {
                case 0: bytes[at] = interesting[Int(generator.rng.next() % UInt64(interesting.count))]
                case 1: bytes.insert(interesting[Int(generator.rng.next() % UInt64(interesting.count))], at: at)
                case 2: bytes.remove(at: at)
                case 3: bytes.removeSubrange(at...)
                default:
                    let end = min(bytes.count, at + Int(generator.rng.next() % 8))
                    bytes.insert(contentsOf: bytes[at..<end], at: at)
                }
            }
            do {
                let v = try JSONValue.parse(bytes)
                parsed += 1
                #expect(try JSONValue.parse(v.serialized()) == v)
            } catch {
                rejected += 1
                #expect(error.offset >= 0 && error.offset <= bytes.count)
                #expect(error.line >= 1 && error.column >= 1)
            }
        }
        // Both outcomes are exercised, so neither branch's checks are vacuous.
        #expect(rejected > 2_000 && parsed > 2_000, "parsed \(parsed), rejected \(rejected)")
    }

    @Test("random bytes never crash, and whatever parses round-trips")
    func randomBytes() throws {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<5_000 {
            let bytes = (0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if let v = try? JSONValue.parse(bytes) { #expect(try JSONValue.parse(v.serialized()) == v) }
        }
    }

    @Test("nesting up to the depth limit parses; one level more is tooDeep, at any limit")
    func depthLimit() throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<200 {
            let limit = 1 + Int(rng.next() % 300)
            let depth = max(1, limit + Int(rng.next() % 5) - 2)   // limit − 2 … limit + 2
            var text = "1"
            for _ in 0..<depth { text = rng.next() % 2 == 0 ? "[" + text + "]" : "{\"k\":" + text + "}" }
            do {
                _ = try JSONValue.parse(text, maxDepth: limit)
                #expect(depth <= limit, "depth \(depth) parsed with limit \(limit)")
            } catch {
                #expect(depth > limit, "depth \(depth) rejected with limit \(limit): \(error.message)")
                #expect(error.kind == .tooDeep(limit: limit))
            }
        }
        // Far deeper than a recursive parser's stack could take: a clean error, not a crash.
        #expect(throws: JSONError(kind: .tooDeep(limit: JSONValue.defaultMaxDepth), line: 1,
                                  column: JSONValue.defaultMaxDepth + 1, offset: JSONValue.defaultMaxDepth)) {
            try JSONValue.parse(String(repeating: "[", count: 200_000))
        }
    }

    @Test("large documents: a 100 000-element array and a 1 MB string parse exactly")
    func largeDocuments() throws {
        let count = 100_000
        let array = "[" + (0..<count).map(String.init).joined(separator: ",") + "]"
        let parsed = try JSONValue.parse(array)
        guard case let .array(items) = parsed else { Issue.record("not an array"); return }
        #expect(items.count == count)
        #expect(items.last == .number(Double(count - 1)))
        let long = String(repeating: "abc\u{e9}\u{1F9ED}", count: 100_000)
        #expect(try JSONValue.parse(JSONValue.string(long).serialized()) == .string(long))
    }
}

/// Writes random JSON text and the value it means, independently of `JSONWriter`.
struct DocumentGenerator {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    private mutating func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }

    /// Any document: a scalar or a container, with optional whitespace around it.
    mutating func document() -> (text: String, value: JSONValue) {
        let (text, value) = self.value(depth: 0)
        return (space() + text + space(), value)
    }

    /// An array or object document with no whitespace after its closing bracket.
    mutating func containerDocument() -> (text: String, value: JSONValue) {
        let (text, value) = pick(2) == 0 ? array(depth: 0) : object(depth: 0)
        return (space() + text, value)
    }

    mutating func space() -> String {
        let pool = ["", "", "", " ", "\n", "\t", "\r\n", "  "]
        return pool[pick(pool.count)]
    }

    mutating func value(depth: Int) -> (String, JSONValue) {
        switch pick(depth > 4 ? 4 : 6) {
        case 0: return [("null", JSONValue.null), ("true", .bool(true)), ("false", .bool(false))][pick(3)]
        case 1: return number()
        case 2, 3: let (text, s) = string(); return (text, .string(s))
        case 4: return array(depth: depth)
        default: return object(depth: depth)
        }
    }

    mutating func array(depth: Int) -> (String, JSONValue) {
        var parts: [String] = [], items: [JSONValue] = []
        for _ in 0..<pick(5) {
            let (text, value) = self.value(depth: depth + 1)
            parts.append(space() + text + space())
            items.append(value)
        }
        return ("[" + (parts.isEmpty ? space() : parts.joined(separator: ",")) + "]", .array(items))
    }

    mutating func object(depth: Int) -> (String, JSONValue) {
        var parts: [String] = [], pairs: [(String, JSONValue)] = []
        for i in 0..<pick(5) {
            let (keyText, key) = string()
            let (text, value) = self.value(depth: depth + 1)
            // Keys are made unique by a suffix, so the model need not say which duplicate wins.
            let unique = key + "#\(i)"
            parts.append(space() + String(keyText.dropLast()) + "#\(i)\"" + space() + ":" + space() + text + space())
            pairs.append((unique, value))
        }
        return ("{" + (parts.isEmpty ? space() : parts.joined(separator: ",")) + "}", .object(pairs))
    }

    /// A number in one of JSON's spellings; its value is what `Double(String)` reads from the same text.
    mutating func number() -> (String, JSONValue) {
        let sign = pick(3) == 0 ? "-" : ""
        let digits = "123456789"
        var integer = pick(4) == 0 ? "0" : String(digits[digits.index(digits.startIndex, offsetBy: pick(9))])
        if integer != "0" { for _ in 0..<pick(10) { integer.append(Character(String(pick(10)))) } }
        var fraction = ""
        if pick(2) == 0 { fraction = "."; for _ in 0..<(1 + pick(12)) { fraction.append(Character(String(pick(10)))) } }
        var exponent = ""
        if pick(3) == 0 {
            exponent = ["e", "E"][pick(2)] + ["", "+", "-"][pick(3)] + String(pick(40))
        }
        let text = sign + integer + fraction + exponent
        return (text, .number(Double(text)!))
    }

    /// A string literal and the string it means: plain characters, every escape form, \u escapes
    /// (with surrogate pairs) and raw multi-byte UTF-8.
    mutating func string() -> (String, String) {
        var text = "\"", value = ""
        for _ in 0..<pick(10) {
            switch pick(9) {
            case 0: text += "\\\""; value += "\""
            case 1: text += "\\\\"; value += "\\"
            case 2: text += "\\/"; value += "/"
            case 3:
                let (e, c) = [("\\b", "\u{8}"), ("\\f", "\u{C}"), ("\\n", "\n"), ("\\r", "\r"), ("\\t", "\t")][pick(5)]
                text += e; value += c
            case 4:
                let scalars: [UInt32] = [0x0, 0x1F, 0x41, 0x7F, 0xE9, 0x5317, 0x2028, 0xFEFF]
                let s = scalars[pick(scalars.count)]
                text += "\\u" + hex4(s, upper: pick(2) == 0); value.unicodeScalars.append(Unicode.Scalar(s)!)
            case 5:
                let s: UInt32 = [0x1F9ED, 0x1D11E, 0x10000, 0x10FFFF][pick(4)]
                let v = s - 0x10000
                text += "\\u" + hex4(0xD800 + (v >> 10), upper: false) + "\\u" + hex4(0xDC00 + (v & 0x3FF), upper: true)
                value.unicodeScalars.append(Unicode.Scalar(s)!)
            case 6:
                let c = ["é", "北", "🧭", "\u{7F}"][pick(4)]
                text += c; value += c
            default:
                let c = String(Character(Unicode.Scalar(UInt8(0x20 + pick(0x5F)))))
                if c == "\"" || c == "\\" { continue }
                text += c; value += c
            }
        }
        return (text + "\"", value)
    }

    private func hex4(_ v: UInt32, upper: Bool) -> String {
        let h = String(v, radix: 16, uppercase: upper)
        return String(repeating: "0", count: 4 - h.count) + h
    }
}
