/// Removes control characters (C0, DEL, C1, and bidirectional overrides) from text that came from
/// outside — gpsd, files, devices — so it cannot move the cursor or recolour the terminal.
///
/// ```swift
/// print(sanitize(deviceName))   // "\u{1B}[2J/dev/ttyUSB0" → "[2J/dev/ttyUSB0"
/// ```
///
/// With `keepingLineBreaks`, line feeds stay (a message of several lines), every other control
/// character still goes: the form for whole messages on standard error, whose paths and values
/// came from the user's environment or files.
public func sanitize(_ text: String) -> String { sanitize(text, keepingLineBreaks: false) }

/// `sanitize`, keeping line feeds when asked (see above).
public func sanitize(_ text: String, keepingLineBreaks: Bool) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where !isUnsafeScalar(scalar.value) || (keepingLineBreaks && scalar == "\n") {
        out.append(scalar)
    }
    return String(out)
}

/// A value from a file as a message may show it: sanitised and cut to `limit` characters ("…"
/// marks the cut), so a hostile file cannot flood the terminal with one field.
///
/// ```swift
/// excerpt(String(repeating: "x", count: 100_000))   // "xxxxxxxxxxxxxxxxxxxx…"
/// ```
public func excerpt(_ text: some StringProtocol, limit: Int = 20) -> String {
    var out = String.UnicodeScalarView()
    var kept = 0
    for scalar in text.unicodeScalars where !isUnsafeScalar(scalar.value) {
        if kept == limit { return String(out) + "…" }
        out.append(scalar)
        kept += 1
    }
    return String(out)
}

/// How much of a user's own words (an argument, a field of a batch line) a message quotes.
public let argumentExcerptLimit = 60

/// A user's own argument or field as a message quotes it: `excerpt` to `argumentExcerptLimit`
/// characters, so a pasted file's worth is not echoed back whole.
///
/// ```swift
/// "invalid value '\(argumentExcerpt(text))' for --rate"
/// ```
public func argumentExcerpt(_ text: some StringProtocol) -> String { excerpt(text, limit: argumentExcerptLimit) }

@inline(__always) private func isUnsafeScalar(_ v: UInt32) -> Bool {
    v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v)
        || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
}
