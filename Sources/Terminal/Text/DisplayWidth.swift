/// How many terminal cells `text` occupies: 2 for East Asian wide and fullwidth characters (北, Ｎ)
/// and emoji, 0 for combining marks, format characters and control characters, 1 for the rest.
/// ANSI CSI escape sequences (`ESC [ … letter`, such as colours) take no cells.
///
/// ```swift
/// displayWidth("N")        // 1
/// displayWidth("北")       // 2
/// displayWidth("123.4°M")  // 7
/// displayWidth("\u{1B}[31mSE\u{1B}[0m")  // 2
/// ```
public func displayWidth(_ text: some StringProtocol) -> Int {
    var string = String(text)
    return string.withUTF8 { displayWidth(utf8: $0) }
}

/// `displayWidth` over UTF-8 bytes, decoded by hand: ASCII (most cells) costs one comparison.
func displayWidth(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var width = 0
    var state = EscapeState.text
    var pending: UInt32 = 0
    var remaining = 0
    for byte in bytes {
        let scalarValue: UInt32
        if remaining > 0 {
            pending = (pending << 6) | UInt32(byte & 0x3F)
            remaining -= 1
            if remaining > 0 { continue }
            scalarValue = pending
        } else if byte < 0x80 {
            if state == .text && byte >= 0x20 && byte < 0x7F { width += 1; continue }
            scalarValue = UInt32(byte)
        } else if byte >= 0xF0 {
            pending = UInt32(byte & 0x07); remaining = 3; continue
        } else if byte >= 0xE0 {
            pending = UInt32(byte & 0x0F); remaining = 2; continue
        } else {
            pending = UInt32(byte & 0x1F); remaining = 1; continue
        }
        switch state {
        case .text:
            if scalarValue == 0x1B { state = .escape; continue }
            if let scalar = Unicode.Scalar(scalarValue) { width += cellWidth(of: scalar) }
        case .escape:
            state = scalarValue == 0x5B ? .csi : .text   // ESC [ starts a CSI; any other escape is two bytes
        case .csi:
            if scalarValue >= 0x40 && scalarValue <= 0x7E { state = .text }   // the final byte ends it
        }
    }
    return width
}

private enum EscapeState { case text, escape, csi }

/// Pads `text` with spaces on the right, or cuts it (ending in `ellipsis`), so that it is exactly
/// `width` cells wide. A wide character that would straddle the edge is replaced by a space.
///
/// ```swift
/// fitToWidth("北东", 3)                   // "北…"
/// fitToWidth("北东", 3, ellipsis: "")      // "北 "  (东 would straddle the edge)
/// fitToWidth("Declination", 6)           // "Decli…"
/// ```
public func fitToWidth(_ text: String, _ width: Int, ellipsis: String = "…") -> String {
    guard width > 0 else { return "" }
    let current = displayWidth(text)
    if current == width { return text }
    if current < width { return text + String(repeating: " ", count: width - current) }
    let mark = displayWidth(ellipsis) < width ? ellipsis : ""
    let room = width - displayWidth(mark)
    var out = String.UnicodeScalarView()
    var used = 0
    for scalar in text.unicodeScalars {
        let w = cellWidth(of: scalar)
        if used + w > room { break }
        out.append(scalar)
        used += w
    }
    var result = String(out) + mark
    let total = used + displayWidth(mark)
    if total < width { result += String(repeating: " ", count: width - total) }
    return result
}

/// The cells one scalar takes (0, 1 or 2).
@inline(__always)
func cellWidth(of scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
    if v < 0x300 { return 1 }
    if isPlainNarrow(v) { return 1 }
    return wideOrZero(v, scalar)
}

/// Blocks with neither wide nor zero-width characters, answered without a property lookup:
/// punctuation, arrows, mathematical operators, box drawing, blocks, shapes and braille.
@inline(__always)
private func isPlainNarrow(_ v: UInt32) -> Bool {
    (v >= 0x2010 && v <= 0x2027) || (v >= 0x2030 && v <= 0x205E) || (v >= 0x2190 && v <= 0x2319)
        || (v >= 0x2500 && v <= 0x25FC) || (v >= 0x2800 && v <= 0x28FF)
}

private func wideOrZero(_ v: UInt32, _ scalar: Unicode.Scalar) -> Int {
    if isWide(v) { return 2 }
    if (0x1160...0x11FF).contains(v) || v == 0x200B { return 0 }   // Hangul medial jamo, zero-width space
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if v >= 0x1F000 && scalar.properties.isEmojiPresentation { return 2 }
    return 1
}

/// East Asian Wide (W) and Fullwidth (F) ranges, condensed from Unicode's EastAsianWidth.txt.
@inline(__always)
private func isWide(_ v: UInt32) -> Bool {
    if v < 0x1100 { return false }
    if v <= 0x115F { return true }                        // Hangul Jamo initials
    if v == 0x2329 || v == 0x232A { return true }         // angle brackets
    if v >= 0x2E80 && v <= 0x303E { return true }         // CJK radicals, Kangxi, CJK symbols
    if v >= 0x3041 && v <= 0x33FF { return true }         // kana, bopomofo, CJK compatibility
    if v >= 0x3400 && v <= 0x4DBF { return true }         // CJK extension A
    if v >= 0x4E00 && v <= 0x9FFF { return true }         // CJK unified ideographs
    if v >= 0xA000 && v <= 0xA4CF { return true }         // Yi
    if v >= 0xA960 && v <= 0xA97F { return true }         // Hangul Jamo extended A
    if v >= 0xAC00 && v <= 0xD7A3 { return true }         // Hangul syllables
    if v >= 0xF900 && v <= 0xFAFF { return true }         // CJK compatibility ideographs
    if v >= 0xFE10 && v <= 0xFE19 { return true }         // vertical forms
    if v >= 0xFE30 && v <= 0xFE6F { return true }         // CJK compatibility forms, small forms
    if v >= 0xFF00 && v <= 0xFF60 { return true }         // fullwidth forms
    if v >= 0xFFE0 && v <= 0xFFE6 { return true }         // fullwidth signs
    if v >= 0x1F300 && v <= 0x1F64F { return true }       // pictographs, emoticons
    if v >= 0x1F900 && v <= 0x1F9FF { return true }       // supplemental pictographs
    if v >= 0x20000 && v <= 0x3FFFD { return true }       // CJK extensions B–H
    return false
}
