/// The framing of an NMEA 0183 sentence: `$`, talker and type, comma-separated fields, `*`, the
/// XOR checksum of everything between `$` and `*` as two upper-case hex digits, then `\r\n`.
///
/// ```swift
/// NMEASentence.make(talker: "HC", type: "HDM", fields: ["123.4", "M"])   // "$HCHDM,123.4,M*2D\r\n"
/// try NMEASentence.parse("$HCHDM,123.4,M*2D\r\n").fields                  // ["123.4", "M"]
/// ```
public struct NMEASentence: Sendable, Equatable {
    /// Two characters, e.g. "HC".
    public var talker: String
    /// Three characters, e.g. "HDG".
    public var type: String
    public var fields: [String]

    /// The longest sentence the standard allows, `$` to `\n` included.
    public static let maximumLength = 82

    /// XOR of the bytes.
    public static func checksum<S: Sequence>(_ bytes: S) -> UInt8 where S.Element == UInt8 {
        bytes.reduce(0, ^)
    }

    /// The sentence text, checksum and `\r\n` included.
    public static func make(talker: String, type: String, fields: [String]) -> String {
        // Built as bytes in one buffer (a sentence is at most 82): served at 50 Hz, the strings
        // joined piece by piece were a large part of an update's cost.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(maximumLength + 8)
        bytes.append(UInt8(ascii: "$"))
        bytes.append(contentsOf: talker.utf8)
        bytes.append(contentsOf: type.utf8)
        for field in fields {
            bytes.append(UInt8(ascii: ","))
            bytes.append(contentsOf: field.utf8)
        }
        finish(from: 0, &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Ends the sentence that starts (with its `$`) at `start` in `out`: `*`, the checksum of the
    /// bytes after the `$`, and `\r\n`.
    static func finish(from start: Int, _ out: inout [UInt8]) {
        // Over the buffer's memory: indexing the array checked each byte's index (five sentences an update).
        let sum = out.withUnsafeBufferPointer { b -> UInt8 in
            var sum: UInt8 = 0
            for i in (start + 1)..<b.count { sum ^= b[i] }
            return sum
        }
        out.append(UInt8(ascii: "*"))
        out.append(hexDigit(sum >> 4))
        out.append(hexDigit(sum & 0x0F))
        out.append(13)
        out.append(10)
    }

    /// The upper-case hex digit of 0…15.
    @inline(__always)
    static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 48 + v : 55 + v }

    /// Parses and checks one sentence (with or without its `\r\n`): framing, checksum, length.
    public static func parse(_ line: String) throws(NMEAError) -> NMEASentence {
        var text = Substring(line)
        // "\r\n" is one Character (a grapheme cluster).
        if let last = text.last, last == "\r\n" || last == "\n" { text = text.dropLast() }
        guard text.utf8.count + 2 <= maximumLength else { throw .tooLong(text.utf8.count + 2) }
        guard text.first == "$", let star = text.lastIndex(of: "*") else { throw .framing(String(text)) }
        let body = text[text.index(after: text.startIndex)..<star]
        let given = text[text.index(after: star)...]
        guard given.count == 2, given.allSatisfy({ $0.isHexDigit && !$0.isLowercase }) else { throw .framing(String(text)) }
        let expected = hex(checksum(body.utf8))
        guard String(given) == expected else { throw .checksum(given: String(given), expected: expected) }
        var parts = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let address = parts.removeFirst()
        guard address.count == 5 else { throw .framing(String(text)) }
        return NMEASentence(talker: String(address.prefix(2)), type: String(address.suffix(3)), fields: parts)
    }

    static func hex(_ byte: UInt8) -> String {
        String(decoding: [hexDigit(byte >> 4), hexDigit(byte & 0x0F)], as: UTF8.self)
    }
}

/// Why a line is not a valid NMEA 0183 sentence.
public enum NMEAError: Error, Equatable {
    case framing(String)
    case checksum(given: String, expected: String)
    case tooLong(Int)

    public var description: String {
        switch self {
        case .framing(let text): return "not an NMEA sentence: \(text)"
        case .checksum(let given, let expected): return "checksum \(given), expected \(expected)"
        case .tooLong(let count): return "\(count) characters, more than \(NMEASentence.maximumLength)"
        }
    }
}

/// An NMEA talker identifier: two upper-case letters or digits ("HC" magnetic compass, "TI", "AP").
///
/// ```swift
/// let talker = try NMEATalker("HC")
/// ```
public struct NMEATalker: Sendable, Equatable {
    public let text: String

    /// `HC`, the magnetic compass.
    public static let compass = NMEATalker(unchecked: "HC")

    public init(_ text: String) throws(NMEAError) {
        guard text.utf8.count == 2, text.utf8.allSatisfy({ (65...90).contains($0) || (48...57).contains($0) }) else {
            throw .framing(text)
        }
        self.text = text
    }

    init(unchecked text: String) { self.text = text }
}
