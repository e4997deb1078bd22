/// How a cell is drawn. Colour is used sparingly: for a disturbed field, a stale fix and emphasis.
enum Style: UInt8, Sendable {
    case plain
    case bold
    case dim
    case warning      // yellow
    case alarm        // bold red
    case inverse

    /// The SGR sequence that switches to this style from any other.
    var sgr: String {
        switch self {
        case .plain: return "\u{1B}[0m"
        case .bold: return "\u{1B}[0;1m"
        case .dim: return "\u{1B}[0;2m"
        case .warning: return "\u{1B}[0;33m"
        case .alarm: return "\u{1B}[0;1;31m"
        case .inverse: return "\u{1B}[0;7m"
        }
    }
}

/// Characters that differ between the Unicode and the pure-ASCII rendering.
struct Glyphs: Sendable {
    let ascii: Bool
    var degree: String { ascii ? "d" : "°" }
    var plusMinus: String { ascii ? "+-" : "±" }
    var micro: String { ascii ? "u" : "µ" }
    var minus: String { ascii ? "-" : "−" }
    var ellipsis: String { ascii ? "~" : "…" }
    var lubber: Unicode.Scalar { ascii ? "v" : "▼" }
    var separator: String { ascii ? "|" : "│" }
    var dot: String { ascii ? "." : "·" }
}

/// Replaces characters outside printable ASCII so that `--ascii` output is pure ASCII.
/// A few common symbols get readable stand-ins; anything else becomes "?".
func asciiFold(_ text: String) -> String {
    var needsWork = false
    for byte in text.utf8 where byte >= 0x7F { needsWork = true; break }
    guard needsWork else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { out.unicodeScalars.append(scalar); continue }
        if cellWidth(of: scalar) == 0 { continue }
        switch v {
        case 0xB0: out += "d"          // °
        case 0xB1: out += "+-"         // ±
        case 0xB5, 0x3BC: out += "u"   // µ
        case 0x2212, 0x2013, 0x2014: out += "-"
        case 0x2026: out += "~"
        case 0xB7, 0x2022: out += "."
        case 0x2192: out += "->"
        case 0x2190: out += "<-"
        default: out += cellWidth(of: scalar) == 2 ? "??" : "?"
        }
    }
    return out
}
