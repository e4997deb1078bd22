import Platform
import Linear

/// The dashboard's number shapes, built on Platform's `fixed` (which owns rounding, NaN and ±∞).
enum NumberFormat {
    /// Like Platform's `fixed`, with an explicit "+" for positive values.
    ///
    /// ```swift
    /// NumberFormat.signed(1.2, 1)    // "+1.2"
    /// NumberFormat.signed(-0.5, 1)   // "-0.5"
    /// NumberFormat.signed(0.01, 1)   // "0.0"
    /// ```
    static func signed(_ value: Double, _ decimals: Int) -> String {
        let text = fixed(value, decimals)
        guard value.isFinite, text.first != "-" else { return text }
        let isZero = text.allSatisfy { $0 == "0" || $0 == "." }
        return isZero ? text : "+" + text
    }

    /// A heading in [0, 360) with one decimal, wrapping 359.96 to "0.0".
    static func heading(_ degrees: Double, decimals: Int = 1) -> String {
        guard degrees.isFinite else { return "---.-" }
        var text = fixed(wrap360(degrees), decimals)
        if text.hasPrefix("360") {
            text = fixed(0, decimals)
        }
        return text
    }

    /// A heading padded to a fixed width ("  7.5", " 45.0", "359.6") so it does not jump about.
    static func paddedHeading(_ degrees: Double, decimals: Int = 1) -> String {
        let text = heading(degrees, decimals: decimals)
        let width = decimals > 0 ? 4 + decimals : 3
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// "0x0d" for an I²C address.
    static func hex(_ value: Int) -> String {
        let digits = String(value, radix: 16)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }
}
