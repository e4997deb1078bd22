/// Names folded for comparison: lower case, Latin accents removed ("Zürich" → "zurich", "Łódź" →
/// "lodz"), punctuation and runs of spaces made one space ("Saint-Denis" → "saint denis").
///
/// ```swift
/// foldName("  São  Paulo ")   // "sao paulo"
/// ```
public func foldName(_ text: String) -> String {
    var out = ""
    var pendingSpace = false
    for character in text.lowercased() {
        for scalar in character.unicodeScalars {
            let v = scalar.value
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if v < 0x80 {
                let c = Character(scalar)
                if c.isLetter || c.isNumber {
                    if pendingSpace && !out.isEmpty { out.append(" ") }
                    pendingSpace = false
                    out.append(c)
                } else {
                    pendingSpace = true
                }
            } else if let folded = LatinFold.table[v] {
                if pendingSpace && !out.isEmpty { out.append(" ") }
                pendingSpace = false
                out += folded
            } else if scalar.properties.isWhitespace || scalar.properties.generalCategory == .dashPunctuation
                        || scalar.properties.generalCategory == .otherPunctuation
                        || scalar.properties.generalCategory == .initialPunctuation
                        || scalar.properties.generalCategory == .finalPunctuation
                        || scalar.properties.generalCategory == .modifierLetter {
                pendingSpace = true
            } else {
                if pendingSpace && !out.isEmpty { out.append(" ") }
                pendingSpace = false
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out
}

/// Lower-case Latin letters with diacritics and their plain ASCII letters.
enum LatinFold {
    static let groups: [(String, String)] = [
        ("a", "àáâãäåāăąǎǟǡǻȁȃȧạảấầẩẫậắằẳẵặ"), ("ae", "æǣǽ"), ("c", "çćĉċč"), ("d", "ďđð"),
        ("e", "èéêëēĕėęěȅȇȩẹẻẽếềểễệ"), ("g", "ĝğġģǧǵ"), ("h", "ĥħ"), ("i", "ìíîïĩīĭįıǐȉȋỉị"),
        ("j", "ĵ"), ("k", "ķǩ"), ("l", "ĺļľŀł"), ("n", "ñńņňŉǹ"), ("ng", "ŋ"),
        ("o", "òóôõöøōŏőǒǫǭǿȍȏȫȭȯȱọỏốồổỗộớờởỡợơ"), ("oe", "œ"), ("r", "ŕŗřȑȓ"), ("s", "śŝşšșſ"), ("ss", "ß"),
        ("t", "ţťŧț"), ("th", "þ"), ("u", "ùúûüũūŭůűųǔǖǘǚǜȕȗụủứừửữựư"), ("w", "ŵẁẃẅ"), ("y", "ýÿŷỳỵỷỹ"),
        ("z", "źżžƶ"),
    ]

    /// The letters of `table` from U+00C0 to U+027F and their capitals, as UTF-8 bytes, for the
    /// byte-wise fold of gazetteer names.
    static let bytes: [UInt32: [UInt8]] = {
        var bytes: [UInt32: [UInt8]] = [:]
        for (plain, letters) in groups {
            for s in letters.unicodeScalars where (0xC0...0x27F).contains(s.value) {
                bytes[s.value] = Array(plain.utf8)
                let upper = String(s).uppercased().unicodeScalars
                if upper.count == 1, let u = upper.first, (0xC0...0x27F).contains(u.value), String(u).lowercased() == String(s) {
                    bytes[u.value] = Array(plain.utf8)
                }
            }
        }
        return bytes
    }()

    static let table: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        for (plain, letters) in groups {
            for s in letters.unicodeScalars { table[s.value] = plain }
        }
        return table
    }()
}
