import Platform

/// Escapes text for XML content and attribute values; control characters are dropped.
///
/// ```swift
/// xmlEscaped("a<b & \"c\"")   // "a&lt;b &amp; &quot;c&quot;"
/// ```
public func xmlEscaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in sanitize(text).unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default:
            // XML 1.0 forbids U+FFFE, U+FFFF and unpaired surrogates (which Swift never holds).
            if scalar.value != 0xFFFE && scalar.value != 0xFFFF { out.unicodeScalars.append(scalar) }
        }
    }
    return out
}
