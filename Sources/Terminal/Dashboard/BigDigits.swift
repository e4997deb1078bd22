/// A three-row font for the headline heading ("123.4°"), in box-drawing lines or, in ASCII mode,
/// seven-segment strokes. Digits are 3 cells wide with one space between; "." and "°" are 1 wide.
enum BigDigits {
    /// The three rows of `text` (digits, ".", "-", "°"; anything else is left out).
    static func rows(_ text: String, ascii: Bool) -> [String] {
        var out = ["", "", ""]
        var first = true
        for character in text {
            guard let glyph = glyph(character, ascii: ascii) else { continue }
            for r in 0..<3 { out[r] += (first ? "" : " ") + glyph[r] }
            first = false
        }
        return out
    }

    private static func glyph(_ c: Character, ascii: Bool) -> [String]? {
        if ascii {
            switch c {
            case "0": return [" _ ", "| |", "|_|"]
            case "1": return ["   ", "  |", "  |"]
            case "2": return [" _ ", " _|", "|_ "]
            case "3": return [" _ ", " _|", " _|"]
            case "4": return ["   ", "|_|", "  |"]
            case "5": return [" _ ", "|_ ", " _|"]
            case "6": return [" _ ", "|_ ", "|_|"]
            case "7": return [" _ ", "  |", "  |"]
            case "8": return [" _ ", "|_|", "|_|"]
            case "9": return [" _ ", "|_|", " _|"]
            case "-": return ["   ", " _ ", "   "]
            case ".": return [" ", " ", "."]
            case "°": return ["o", " ", " "]
            case " ": return ["   ", "   ", "   "]
            default: return nil
            }
        }
        switch c {
        case "0": return ["┌─┐", "│ │", "└─┘"]
        case "1": return ["  ╷", "  │", "  ╵"]
        case "2": return ["╶─┐", "┌─┘", "└─╴"]
        case "3": return ["╶─┐", " ─┤", "╶─┘"]
        case "4": return ["╷ ╷", "└─┤", "  ╵"]
        case "5": return ["┌─╴", "└─┐", "╶─┘"]
        case "6": return ["┌─╴", "├─┐", "└─┘"]
        case "7": return ["╶─┐", "  │", "  ╵"]
        case "8": return ["┌─┐", "├─┤", "└─┘"]
        case "9": return ["┌─┐", "└─┤", "╶─┘"]
        case "-": return ["   ", "╶─╴", "   "]
        case ".": return [" ", " ", "."]
        case "°": return ["°", " ", " "]
        case " ": return ["   ", "   ", "   "]
        default: return nil
        }
    }
}
