extension JSONParser {
    // MARK: Strings

    /// Parses a string starting at the opening quote.
    mutating func parseString() throws(JSONError) -> String {
        let start = index
        index += 1
        let contentStart = index
        // Fast path: no escapes.
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
                guard let s = String(validating: slice, as: UTF8.self) else { throw error(.invalidUTF8, at: start) }
                index += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error(.controlCharacterInString) }
            index += 1
        }
        var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while true {
            guard index < bytes.count else { throw error(.unexpectedEnd(expected: "'\"' to close the string")) }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") { index += 1; break }
            if b < 0x20 { throw error(.controlCharacterInString) }
            if b != UInt8(ascii: "\\") { out.append(b); index += 1; continue }
            index += 1
            guard index < bytes.count else { throw error(.unexpectedEnd(expected: "an escape character")) }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"): try appendUnicodeEscape(to: &out)
            default: throw error(.invalidEscape, at: index - 2)
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw error(.invalidUTF8, at: start) }
        return s
    }

    /// Reads the four hex digits after `\u` (and a low surrogate escape when needed), appending UTF-8.
    mutating func appendUnicodeEscape(to out: inout [UInt8]) throws(JSONError) {
        let escapeStart = index - 2
        var code = try readHex4()
        if code >= 0xD800 && code <= 0xDBFF {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw error(.unpairedSurrogate, at: escapeStart)
            }
            index += 2
            let low = try readHex4()
            guard low >= 0xDC00 && low <= 0xDFFF else { throw error(.unpairedSurrogate, at: escapeStart) }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if code >= 0xDC00 && code <= 0xDFFF {
            throw error(.unpairedSurrogate, at: escapeStart)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error(.invalidUnicodeEscape, at: escapeStart) }
        appendUTF8(scalar.value, to: &out)
    }

    func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        switch v {
        case ..<0x80:
            out.append(UInt8(v))
        case ..<0x800:
            out.append(UInt8(0xC0 | (v >> 6))); out.append(UInt8(0x80 | (v & 0x3F)))
        case ..<0x10000:
            out.append(UInt8(0xE0 | (v >> 12))); out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (v >> 18))); out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F))); out.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    mutating func readHex4() throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error(.unexpectedEnd(expected: "four hex digits")) }
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error(.invalidUnicodeEscape)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    // MARK: Numbers

    /// Parses a number per the RFC 8259 grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    mutating func parseNumber() throws(JSONError) -> Double {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        guard index < bytes.count else { throw error(.unexpectedEnd(expected: "a digit")) }
        var integer: UInt64 = 0
        var digits = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            digits = 1
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) {
                if digits < 18 { integer = integer * 10 + UInt64(bytes[index] - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
        } else {
            throw error(.invalidNumber, at: start)
        }
        var simple = digits <= 15
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            simple = false
            index += 1
            guard try skipDigits() > 0 else { throw error(.invalidNumber, at: start) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            simple = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard try skipDigits() > 0 else { throw error(.invalidNumber, at: start) }
        }
        if simple {
            let d = Double(integer)
            return negative ? -d : d
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let d = Double(text) else { throw error(.invalidNumber, at: start) }
        guard d.isFinite else { throw error(.numberOutOfRange, at: start) }
        return d
    }

    mutating func skipDigits() throws(JSONError) -> Int {
        var n = 0
        while index < bytes.count, isDigit(bytes[index]) { index += 1; n += 1 }
        return n
    }

    @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
