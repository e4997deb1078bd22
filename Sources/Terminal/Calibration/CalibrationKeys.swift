/// What a key press asks the calibration screen to do.
public enum CalibrationKey: Sendable, Equatable {
    /// Enter or s: stop collecting and fit now.
    case fitNow
    /// q, Esc or Ctrl-D: cancel without saving.
    case cancel
}

/// Maps bytes read from the terminal to calibration actions, in order. A lone Esc cancels; escape
/// sequences (arrow keys, function keys) and other keys are ignored.
///
/// ```swift
/// calibrationKeys(for: Array("s".utf8))     // [.fitNow]
/// calibrationKeys(for: [0x1B])              // [.cancel]
/// calibrationKeys(for: [0x1B, 0x5B, 0x41])  // []  (up arrow)
/// ```
public func calibrationKeys(for bytes: [UInt8]) -> [CalibrationKey] {
    var keys: [CalibrationKey] = []
    var i = 0
    while i < bytes.count {
        let b = bytes[i]
        if b == 0x1B {
            // ESC followed by '[' or 'O' starts a sequence: skip it. A lone ESC cancels.
            if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") {
                i += 2
                while i < bytes.count, !(0x40...0x7E).contains(bytes[i]) { i += 1 }
                i += 1
                continue
            }
            keys.append(.cancel)
            i += 1
            continue
        }
        switch b {
        case 0x0A, 0x0D, UInt8(ascii: "s"), UInt8(ascii: "S"): keys.append(.fitNow)
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x04: keys.append(.cancel)
        default: break
        }
        i += 1
    }
    return keys
}
