/// Why a JSON text could not be parsed, and where (1-based line and column, counted in characters).
///
/// ```swift
/// do { _ = try JSONValue.parse("[1, 2") } catch { print(error.message) }
/// // "unexpected end of input: expected ',' or ']' (line 1, column 6)"
/// ```
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        case unexpectedEnd(expected: String)
        case unexpectedCharacter(found: String, expected: String)
        case invalidLiteral(expected: String)
        case invalidNumber
        case numberOutOfRange
        case invalidEscape
        case invalidUnicodeEscape
        case unpairedSurrogate
        case controlCharacterInString
        case invalidUTF8
        case tooDeep(limit: Int)
        case trailingData
        case emptyInput
    }

    public var kind: Kind
    /// 1-based line of the error.
    public var line: Int
    /// 1-based column of the error (Unicode scalars from the line start).
    public var column: Int
    /// Byte offset of the error in the input.
    public var offset: Int

    public init(kind: Kind, line: Int, column: Int, offset: Int) {
        self.kind = kind; self.line = line; self.column = column; self.offset = offset
    }

    /// A one-line human-readable message with the position.
    public var message: String {
        let what: String
        switch kind {
        case let .unexpectedEnd(expected): what = "unexpected end of input: expected \(expected)"
        case let .unexpectedCharacter(found, expected): what = "unexpected \(found): expected \(expected)"
        case let .invalidLiteral(expected): what = "invalid literal: expected '\(expected)'"
        case .invalidNumber: what = "malformed number"
        case .numberOutOfRange: what = "number too large to represent"
        case .invalidEscape: what = "invalid escape sequence in string"
        case .invalidUnicodeEscape: what = "invalid \\u escape: expected four hex digits"
        case .unpairedSurrogate: what = "unpaired UTF-16 surrogate in \\u escape"
        case .controlCharacterInString: what = "unescaped control character in string"
        case .invalidUTF8: what = "invalid UTF-8 in string"
        case let .tooDeep(limit): what = "nesting deeper than \(limit) levels"
        case .trailingData: what = "unexpected data after the JSON value"
        case .emptyInput: what = "empty input: expected a JSON value"
        }
        return "\(what) (line \(line), column \(column))"
    }

    public var description: String { message }
}
