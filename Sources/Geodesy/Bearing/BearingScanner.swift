/// A cursor over the Unicode scalars of a bearing string, for the hand-written parser.
struct BearingScanner {
    private let scalars: [Unicode.Scalar]
    private(set) var position = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    var atEnd: Bool { position == scalars.count }

    var next: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    /// Skips spaces and tabs (including the ideographic space).
    mutating func skipSpaces() {
        while let s = next, s.properties.isWhitespace { position += 1 }
    }

    /// Consumes `literal` if the text continues with it.
    mutating func take(_ literal: String) -> Bool {
        var p = position
        for s in literal.unicodeScalars {
            guard p < scalars.count, scalars[p] == s else { return false }
            p += 1
        }
        position = p
        return true
    }

    /// Consumes the first of `choices` the text continues with and returns its index.
    mutating func takeOne(of choices: [String]) -> Int? {
        for (i, c) in choices.enumerated() where take(c) { return i }
        return nil
    }

    /// Consumes an unsigned decimal number: digits with an optional fractional part
    /// ("12", "12.5", ".5", "12."). At least one digit is required.
    mutating func number() -> Double? {
        let start = position
        var text = ""
        var digits = 0
        var sawPoint = false
        while let s = next {
            if s.value >= 0x30 && s.value <= 0x39 {
                digits += 1
            } else if s == "." && !sawPoint {
                sawPoint = true
            } else {
                break
            }
            text.unicodeScalars.append(s)
            position += 1
        }
        guard digits > 0, let value = Double(text), value.isFinite else {
            position = start
            return nil
        }
        return value
    }

    /// Consumes an optional degree unit: "°", "deg", "degrees", "度".
    mutating func degreeUnit() {
        _ = takeOne(of: ["°", "degrees", "degree", "deg", "度"])
    }
}

extension String {
    /// The text with surrounding whitespace removed.
    var trimmingBearingSpaces: String {
        let scalars = Array(unicodeScalars)
        var lo = 0
        var hi = scalars.count
        while lo < hi && scalars[lo].properties.isWhitespace { lo += 1 }
        while hi > lo && scalars[hi - 1].properties.isWhitespace { hi -= 1 }
        var out = ""
        out.unicodeScalars.append(contentsOf: scalars[lo..<hi])
        return out
    }

    /// Lower-cased ASCII letters and unified look-alikes: full-width parentheses, "º" and "˚"
    /// for "°", and the traditional 東 for 东. Other characters are unchanged.
    var bearingNormalized: String {
        var out = ""
        for s in unicodeScalars {
            switch s {
            case "A"..."Z": out.unicodeScalars.append(Unicode.Scalar(s.value + 32) ?? s)
            case "（": out += "("
            case "）": out += ")"
            case "º", "˚": out += "°"
            case "東": out += "东"
            default: out.unicodeScalars.append(s)
            }
        }
        return out
    }

    /// The text with every space and hyphen removed.
    var withoutSpacesOrHyphens: String {
        var out = ""
        for s in unicodeScalars where !(s.properties.isWhitespace || s == "-") {
            out.unicodeScalars.append(s)
        }
        return out
    }

    /// Replaces every occurrence of `target` with `replacement` (no Foundation, no regex).
    func replacingAll(_ target: String, with replacement: String) -> String {
        let source = Array(unicodeScalars)
        let pattern = Array(target.unicodeScalars)
        guard !pattern.isEmpty else { return self }
        var out = ""
        var i = 0
        while i < source.count {
            if i + pattern.count <= source.count && source[i..<(i + pattern.count)].elementsEqual(pattern) {
                out += replacement
                i += pattern.count
            } else {
                out.unicodeScalars.append(source[i])
                i += 1
            }
        }
        return out
    }
}
