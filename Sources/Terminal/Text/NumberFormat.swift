/// Fixed-point number formatting without Foundation.
enum NumberFormat {
    /// `value` with exactly `decimals` digits after the point, rounded half away from zero;
    /// "–" for NaN or infinity.
    ///
    /// ```swift
    /// NumberFormat.fixed(123.45, 1)   // "123.5"
    /// NumberFormat.fixed(-0.04, 1)    // "0.0"
    /// ```
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "-" }
        let places = max(0, min(decimals, 9))
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.2e18 else { return "-" }
        let units = Int64(scaled)
        let whole = units / scale
        var text = (value < 0 && units != 0 ? "-" : "") + String(whole)
        if places > 0 {
            let fraction = String(units % scale)
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }

    /// Like `fixed`, with an explicit "+" for positive values ("+1.2", "-0.5", "0.0").
    static func signed(_ value: Double, _ decimals: Int) -> String {
        let text = fixed(value, decimals)
        guard value.isFinite, text.first != "-" else { return text }
        let isZero = text.allSatisfy { $0 == "0" || $0 == "." }
        return isZero ? text : "+" + text
    }

    /// A heading in [0, 360) with one decimal, wrapping 359.96 to "0.0".
    static func heading(_ degrees: Double, decimals: Int = 1) -> String {
        guard degrees.isFinite else { return "---.-" }
        var h = degrees.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        var text = fixed(h, decimals)
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
