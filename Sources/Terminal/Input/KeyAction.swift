/// What a key press asks the dashboard to do.
public enum KeyAction: Sendable, Equatable, CaseIterable {
    /// q, Q, Ctrl-C, Ctrl-D: leave the dashboard.
    case quit
    /// t: switch the leading heading between true and magnetic.
    case toggleReference
    /// u: cycle speed units (km/h → kn → m/s).
    case cycleUnits
    /// l: switch label language (English ↔ 中文).
    case toggleLanguage
    /// c: start calibration (the command decides what that means).
    case calibrate
    /// r: reset the movement track.
    case resetTrack
    /// ? or h: show or hide the key help.
    case toggleHelp
    /// Esc on its own: hide the key help.
    case closeHelp
}

/// Maps the bytes read from the terminal to actions, in order. Escape sequences (arrow keys,
/// function keys) and non-ASCII input are ignored; a lone Esc closes the help.
///
/// ```swift
/// keyActions(for: Array("q".utf8))        // [.quit]
/// keyActions(for: [0x1B, 0x5B, 0x41])     // []  (up arrow)
/// ```
public func keyActions(for bytes: [UInt8]) -> [KeyAction] {
    var actions: [KeyAction] = []
    var i = 0
    while i < bytes.count {
        let b = bytes[i]
        if b == 0x1B {
            let sequenceEnd = endOfEscapeSequence(bytes, from: i)
            if sequenceEnd == i + 1 { actions.append(.closeHelp) }
            i = sequenceEnd
            continue
        }
        if let action = keyAction(for: b) { actions.append(action) }
        i += 1
    }
    return actions
}

/// The action of one plain key, or nil: `keyAction(for: UInt8(ascii: "t"))` is `.toggleReference`.
public func keyAction(for byte: UInt8) -> KeyAction? {
    switch byte {
    case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04: return .quit
    case UInt8(ascii: "t"), UInt8(ascii: "T"): return .toggleReference
    case UInt8(ascii: "u"), UInt8(ascii: "U"): return .cycleUnits
    case UInt8(ascii: "l"), UInt8(ascii: "L"): return .toggleLanguage
    case UInt8(ascii: "c"), UInt8(ascii: "C"): return .calibrate
    case UInt8(ascii: "r"), UInt8(ascii: "R"): return .resetTrack
    case UInt8(ascii: "?"), UInt8(ascii: "h"), UInt8(ascii: "H"): return .toggleHelp
    default: return nil
    }
}

/// Index just past the escape sequence starting at `start` (which holds ESC).
/// A lone ESC (end of input, or ESC ESC) is one byte long.
private func endOfEscapeSequence(_ bytes: [UInt8], from start: Int) -> Int {
    var i = start + 1
    guard i < bytes.count else { return i }
    switch bytes[i] {
    case UInt8(ascii: "["):                       // CSI: parameters, then a final byte 0x40–0x7E
        i += 1
        while i < bytes.count, !(0x40...0x7E).contains(bytes[i]) { i += 1 }
        return min(i + 1, bytes.count)
    case UInt8(ascii: "O"):                       // SS3: one more byte (F1–F4, keypad)
        return min(i + 2, bytes.count)
    case 0x1B:
        return i                                  // ESC ESC: the first is a lone Esc
    default:
        return i + 1                              // Alt+key: ignored
    }
}
