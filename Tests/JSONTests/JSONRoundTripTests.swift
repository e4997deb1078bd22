import Testing
@testable import JSON
import Linear

@Suite("JSON serialization and round trips")
struct JSONRoundTripTests {
    @Test func serializesCompactly() {
        let v: JSONValue = ["a": [1, 2.5, nil, true], "b": "x", "c": [:], "d": []]
        #expect(v.serialized() == #"{"a":[1,2.5,null,true],"b":"x","c":{},"d":[]}"#)
    }

    @Test func serializesPretty() {
        let v: JSONValue = ["a": [1, 2], "b": ["c": nil]]
        #expect(v.serialized(pretty: true) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {\n    \"c\": null\n  }\n}")
    }

    @Test func numbersAreShortestAndValid() throws {
        #expect(JSONValue.numberText(3) == "3")
        #expect(JSONValue.numberText(-42) == "-42")
        #expect(JSONValue.numberText(0.1) == "0.1")
        #expect(JSONValue.numberText(-0.0) == "-0")
        #expect(JSONValue.numberText(.infinity) == "null")
        #expect(JSONValue.numberText(-.infinity) == "null")
        #expect(JSONValue.numberText(.nan) == "null")
        for d in [1e-5, 1.5e20, 1e15, 1e300, Double.leastNonzeroMagnitude, -2.2250738585072014e-308, 123456.789, 1.0 / 3.0] {
            let text = JSONValue.numberText(d)
            #expect(try JSONValue.parse(text).double == d, "\(text)")
        }
        #expect(JSONValue.array([.number(.nan)]).serialized() == "[null]")
    }

    @Test func escapesControlCharacters() throws {
        let s = "tab\t nl\n quote\" back\\ bell\u{7} nul\u{0} del\u{7F} unit\u{1F} 🧭"
        let text = JSONValue.string(s).serialized()
        #expect(text == #""tab\t nl\n quote\" back\\ bell\u0007 nul\u0000 del\u007f unit\u001f 🧭""#)
        #expect(try JSONValue.parse(text).string == s)
    }

    /// The writer copies the bytes between escapes a run at a time: the same text as escaping byte
    /// by byte, with escapes at the start, at the end and next to each other.
    @Test func escapedRunsMatchByteByByte() {
        var rng = SplitMix64(seed: 11)
        let pool: [Unicode.Scalar] = ["a", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}", "\u{1B}", "\u{7F}", "é", "🧭"]
        for _ in 0..<2000 {
            var s = ""
            for _ in 0..<Int(rng.next() % 9) { s.unicodeScalars.append(pool[Int(rng.next() % UInt64(pool.count))]) }
            var expected: [UInt8] = [0x22]
            for b in s.utf8 {
                switch b {
                case 0x22: expected += [0x5C, 0x22]
                case 0x5C: expected += [0x5C, 0x5C]
                case 0x0A: expected += Array(#"\n"#.utf8)
                case 0x0D: expected += Array(#"\r"#.utf8)
                case 0x09: expected += Array(#"\t"#.utf8)
                case 0x08: expected += Array(#"\b"#.utf8)
                case 0x0C: expected += Array(#"\f"#.utf8)
                case 0x00..<0x20, 0x7F:
                    let hex = Array("0123456789abcdef".utf8)
                    expected += Array(#"\u00"#.utf8) + [hex[Int(b >> 4)], hex[Int(b & 0xF)]]
                default: expected.append(b)
                }
            }
            expected.append(0x22)
            var out: [UInt8] = [UInt8(ascii: "x")]
            JSONValue.appendString(s, to: &out)
            #expect(out == [UInt8(ascii: "x")] + expected, "\(s.debugDescription)")
        }
    }

    @Test func randomValuesRoundTrip() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let value = randomValue(&rng, depth: 0)
            for pretty in [false, true] {
                let back = try JSONValue.parse(value.serialized(pretty: pretty))
                #expect(back == value)
            }
        }
    }

    func randomValue(_ rng: inout SplitMix64, depth: Int) -> JSONValue {
        let kind = depth > 3 ? Int(rng.next() % 4) : Int(rng.next() % 6)
        switch kind {
        case 0: return .null
        case 1: return .bool(rng.next() & 1 == 0)
        case 2:
            switch rng.next() % 3 {
            case 0: return .number(Double(Int64(bitPattern: rng.next()) >> 20))
            case 1: return .number((rng.nextUnit() - 0.5) * 1e6)
            default: return .number(rng.nextGaussian() * pow10(Int(rng.next() % 40) - 20))
            }
        case 3: return .string(randomString(&rng))
        case 4: return .array((0..<Int(rng.next() % 5)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            return .object((0..<Int(rng.next() % 5)).map { _ in (randomString(&rng), randomValue(&rng, depth: depth + 1)) })
        }
    }

    func pow10(_ e: Int) -> Double {
        var r = 1.0
        for _ in 0..<abs(e) { r *= 10 }
        return e < 0 ? 1 / r : r
    }

    func randomString(_ rng: inout SplitMix64) -> String {
        let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}",
                                      "é", "€", "北", "🧭", "𝄞", "\u{2028}", "\u{FEFF}"]
        var s = ""
        for _ in 0..<Int(rng.next() % 12) { s.unicodeScalars.append(pool[Int(rng.next() % UInt64(pool.count))]) }
        return s
    }
}
