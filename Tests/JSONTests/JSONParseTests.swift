import Testing
@testable import JSON

@Suite("JSON parsing")
struct JSONParseTests {
    @Test func parsesScalars() throws {
        #expect(try JSONValue.parse("null") == .null)
        #expect(try JSONValue.parse("true") == .bool(true))
        #expect(try JSONValue.parse(" false ") == .bool(false))
        #expect(try JSONValue.parse("0") == .number(0))
        #expect(try JSONValue.parse("-12") == .number(-12))
        #expect(try JSONValue.parse("3.25") == .number(3.25))
        #expect(try JSONValue.parse("1e3") == .number(1000))
        #expect(try JSONValue.parse("-2.5E-3") == .number(-0.0025))
        #expect(try JSONValue.parse("1E+2") == .number(100))
        #expect(try JSONValue.parse("\"hi\"") == .string("hi"))
    }

    @Test func parsesLongNumbersExactly() throws {
        #expect(try JSONValue.parse("12345678901234567890").double == 12345678901234567890.0)
        #expect(try JSONValue.parse("0.1").double == 0.1)
        #expect(try JSONValue.parse("51.477928").double == 51.477928)
        #expect(try JSONValue.parse("-0.000001234").double == -0.000001234)
        #expect(try JSONValue.parse("4.9406564584124654e-324").double == Double.leastNonzeroMagnitude)
    }

    @Test func parsesNestedStructuresKeepingOrder() throws {
        let v = try JSONValue.parse(#" { "b" : [1, {"x": null}], "a": {"c": "d"}, "e": [] , "f": {} } "#)
        #expect(v.object?.map(\.0) == ["b", "a", "e", "f"])
        #expect(v["b"]?[1]?["x"] == .null)
        #expect(v["a"]?["c"]?.string == "d")
        #expect(v["e"]?.array?.isEmpty == true)
        #expect(v["f"]?.object?.isEmpty == true)
        #expect(v["missing"] == nil)
        #expect(v["b"]?[5] == nil)
    }

    @Test func duplicateKeysLastWins() throws {
        let v = try JSONValue.parse(#"{"k":1,"k":2}"#)
        #expect(v["k"]?.int == 2)
        #expect(v.object?.count == 2)
    }

    @Test func parsesAllEscapes() throws {
        let v = try JSONValue.parse(#""q\" b\\ s\/ \b\f\n\r\t \u0041\u00e9\u20AC""#)
        #expect(v.string == "q\" b\\ s/ \u{8}\u{C}\n\r\t Aé€")
    }

    @Test func parsesSurrogatePairs() throws {
        #expect(try JSONValue.parse(#""\ud83e\udded""#).string == "🧭")
        #expect(try JSONValue.parse(#""x\uD834\uDD1Ey""#).string == "x𝄞y")
    }

    @Test func parsesRawUTF8() throws {
        #expect(try JSONValue.parse("\"Zürich 北京 🧭\"").string == "Zürich 北京 🧭")
    }

    @Test func parsesFromBytesAndBuffers() throws {
        let line = #"{"class":"TPV","mode":3,"lat":51.5,"lon":-0.12}"#
        let bytes = Array(line.utf8)
        let fromBytes = try JSONValue.parse(bytes)
        let fromBuffer = try bytes.withUnsafeBytes { raw in try JSONValue.parse(raw) }
        let fromString = try JSONValue.parse(line)
        #expect(fromBytes == fromString)
        #expect(fromBuffer == fromString)
        #expect(fromString["mode"]?.int == 3)
        #expect(fromString["lon"]?.double == -0.12)
    }

    @Test func accessorsReturnNilForOtherKinds() throws {
        let v = try JSONValue.parse(#"[1.5, "s", true, null]"#)
        #expect(v[0]?.int == nil)
        #expect(v[0]?.string == nil)
        #expect(v[1]?.double == nil)
        #expect(v[2]?.bool == true)
        #expect(v[3]?.isNull == true)
        #expect(v["key"] == nil)
    }

    @Test func equalityIsOrderSensitiveForObjects() {
        let a: JSONValue = ["x": 1, "y": 2]
        let b: JSONValue = ["y": 2, "x": 1]
        #expect(a != b)
        #expect(a == ["x": 1, "y": 2])
    }
}
