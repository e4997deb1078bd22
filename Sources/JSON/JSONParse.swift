extension JSONValue {
    /// The default nesting limit for arrays and objects.
    public static let defaultMaxDepth = 256

    /// Parses a complete JSON text (RFC 8259, strict): one value, optional surrounding whitespace,
    /// nothing else.
    ///
    /// ```swift
    /// let v = try JSONValue.parse(#"{"mode": 3, "lat": 51.5}"#)
    /// ```
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONError) -> JSONValue in try parse(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth) }
        }
        return try result.get()
    }

    /// Parses JSON from UTF-8 bytes (for example a gpsd line read from a socket).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> JSONValue in try parse(raw, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    /// Parses JSON from a raw UTF-8 buffer, without copying it first.
    public static func parse(_ buffer: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
        var parser = JSONParser(bytes: buffer.bindMemory(to: UInt8.self), maxDepth: maxDepth)
        return try parser.parseDocument()
    }
}

/// A recursive-descent parser over UTF-8 bytes.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = max(1, maxDepth)
    }

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw error(.emptyInput) }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error(.trailingData) }
        return value
    }

    // MARK: Values

    mutating func parseValue() throws(JSONError) -> JSONValue {
        guard index < bytes.count else { throw error(.unexpectedEnd(expected: "a value")) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw unexpected(expected: "a value")
        }
    }

    mutating func parseArray() throws(JSONError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1; depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd(expected: "',' or ']'")) }
            let c = bytes[index]
            index += 1
            if c == UInt8(ascii: ",") { continue }
            if c == UInt8(ascii: "]") { break }
            index -= 1
            throw unexpected(expected: "',' or ']'")
        }
        depth -= 1
        return .array(elements)
    }

    mutating func parseObject() throws(JSONError) -> JSONValue {
        try enter()
        index += 1
        var pairs: [(String, JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1; depth -= 1
            return .object(pairs)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd(expected: "a string key")) }
            guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected(expected: "a string key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd(expected: "':'")) }
            guard bytes[index] == UInt8(ascii: ":") else { throw unexpected(expected: "':'") }
            index += 1
            skipWhitespace()
            pairs.append((key, try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd(expected: "',' or '}'")) }
            let c = bytes[index]
            index += 1
            if c == UInt8(ascii: ",") { continue }
            if c == UInt8(ascii: "}") { break }
            index -= 1
            throw unexpected(expected: "',' or '}'")
        }
        depth -= 1
        return .object(pairs)
    }

    mutating func enter() throws(JSONError) {
        depth += 1
        guard depth <= maxDepth else { throw error(.tooDeep(limit: maxDepth)) }
    }

    mutating func expectWord(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        let start = word.utf8Start
        let wordStart = index
        for k in 0..<count {
            guard index < bytes.count, bytes[index] == start[k] else {
                throw error(.invalidLiteral(expected: "\(word)"), at: wordStart)
            }
            index += 1
        }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    // MARK: Errors

    /// An error at the current position, with line and column computed from the bytes before it.
    func error(_ kind: JSONError.Kind, at offset: Int? = nil) -> JSONError {
        let end = min(offset ?? index, bytes.count)
        var line = 1, column = 1
        for k in 0..<end {
            let b = bytes[k]
            if b == 0x0A {
                line += 1; column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONError(kind: kind, line: line, column: column, offset: end)
    }

    func unexpected(expected: String) -> JSONError {
        guard index < bytes.count else { return error(.unexpectedEnd(expected: expected)) }
        let b = bytes[index]
        let found: String
        if b >= 0x21 && b < 0x7F {
            found = "'\(Character(Unicode.Scalar(b)))'"
        } else {
            found = "byte 0x" + String(b, radix: 16, uppercase: true)
        }
        return error(.unexpectedCharacter(found: found, expected: expected))
    }
}
