/// The UTF-8 byte-order mark (EF BB BF) some editors put at the start of a text file: every reader
/// of text lines drops it from the first line, so a header still matches.
///
/// ```swift
/// let header = ByteOrderMark.dropped(from: firstLine)
/// ```
public enum ByteOrderMark {
    public static let utf8: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The line without a leading UTF-8 byte-order mark.
    public static func dropped(from line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF else { return line }
        return UnsafeBufferPointer(rebasing: line[3...])
    }

    /// The text without a leading byte-order mark (U+FEFF).
    public static func dropped(from text: String) -> String {
        text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    }
}
