/// Removes control characters (C0, DEL, C1, and bidirectional overrides) from text that came from
/// outside — gpsd, files, devices — so it cannot move the cursor or recolour the terminal.
///
/// ```swift
/// print(sanitize(deviceName))   // "\u{1B}[2J/dev/ttyUSB0" → "[2J/dev/ttyUSB0"
/// ```
public func sanitize(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where !isUnsafeScalar(scalar.value) {
        out.append(scalar)
    }
    return String(out)
}

@inline(__always) private func isUnsafeScalar(_ v: UInt32) -> Bool {
    v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v)
        || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
}
