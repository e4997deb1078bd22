/// Writes a direction as text.
///
/// The direction is first reduced to [0, 360). Numeric styles round to the requested decimals
/// *before* anything else is decided, so 359.6° at whole degrees is "0°" and, in quadrant
/// style, "N" (never "N0°W" or "360°"). A non-finite direction is written "---".
///
/// ```swift
/// formatBearing(123.44, style: .degrees(decimals: 1), reference: .trueNorth)  // "123.4°T"
/// formatBearing(22.5, style: .points16)                                       // "NNE"
/// formatBearing(225, style: .quadrant(decimals: 0))                           // "S45°W"
/// formatBearing(30, style: .quadrant(decimals: 0), language: .zh)             // "北偏东30度"
/// formatBearing(22.5, style: .points16, language: .zh)                        // "东北偏北"
/// ```
public func formatBearing(_ degrees: Double, style: BearingStyle = .degrees(decimals: 0),
                          language: Language = .en, reference: NorthReference? = nil) -> String
{
    guard degrees.isFinite else { return "---" }
    let direction = normalizeDegrees(degrees)
    let body: String
    switch style {
    case .degrees(let decimals):
        let angle = FixedAngle(direction, decimals: decimals)
        body = angle.text + "°"
        if language == .en, let reference {
            return body + (reference == .trueNorth ? "T" : "M")
        }
    case .points16:
        body = compassName(CompassNames.index(of: direction, stride: 2), language)
    case .points32:
        body = compassName(CompassNames.index(of: direction, stride: 1), language)
    case .quadrant(let decimals):
        body = quadrantText(FixedAngle(direction, decimals: decimals), language)
    }
    guard let reference else { return body }
    switch language {
    case .en: return body + (reference == .trueNorth ? " (T)" : " (M)")
    case .zh: return body + (reference == .trueNorth ? "（真北）" : "（磁北）")
    }
}

private func compassName(_ index: Int, _ language: Language) -> String {
    language == .en ? CompassNames.english[index] : CompassNames.chinese[index]
}

/// A quadrant bearing from an angle already rounded to its display precision.
private func quadrantText(_ angle: FixedAngle, _ language: Language) -> String {
    let quarter = 90 * angle.scale
    let units = angle.units
    // Exact axis directions (and, in Chinese, the exact diagonals) have names of their own.
    if units % quarter == 0 {
        let axis = Int(units / quarter)
        return language == .en ? ["N", "E", "S", "W"][axis] : ["正北", "正东", "正南", "正西"][axis]
    }
    if language == .zh && units % (quarter / 2) == 0 {
        let diagonal = Int(units / quarter)
        return ["东北", "东南", "西南", "西北"][diagonal]
    }
    let (from, offset, toward): (Int, Int64, Int)  // 0 north, 1 south; 0 east, 1 west
    switch units / quarter {
    case 0: (from, offset, toward) = (0, units, 0)
    case 1: (from, offset, toward) = (1, 2 * quarter - units, 0)
    case 2: (from, offset, toward) = (1, units - 2 * quarter, 1)
    default: (from, offset, toward) = (0, 4 * quarter - units, 1)
    }
    let number = FixedAngle(units: offset, decimals: angle.decimals).text
    switch language {
    case .en:
        return ["N", "S"][from] + number + "°" + ["E", "W"][toward]
    case .zh:
        return ["北", "南"][from] + "偏" + ["东", "西"][toward] + number + "度"
    }
}

/// An angle rounded to a fixed number of decimals and held as an integer count of units of
/// 10⁻ᵈ degree, so that quadrant arithmetic and printing are exact.
struct FixedAngle {
    /// Decimals kept, 0…9.
    let decimals: Int
    /// 10^decimals.
    let scale: Int64
    /// The angle in units of 1/scale degree.
    let units: Int64

    /// Rounds a direction in [0, 360) to `decimals` places (half away from zero); a value
    /// that rounds to 360 becomes 0.
    init(_ direction: Double, decimals requested: Int) {
        decimals = min(9, max(0, requested))
        var s: Int64 = 1
        for _ in 0..<decimals { s *= 10 }
        scale = s
        var u = Int64((direction * Double(s)).rounded(.toNearestOrAwayFromZero))
        if u >= 360 * s || u < 0 { u = 0 }
        units = u
    }

    init(units: Int64, decimals: Int) {
        self.decimals = decimals
        var s: Int64 = 1
        for _ in 0..<decimals { s *= 10 }
        scale = s
        self.units = units
    }

    /// "123" or "123.40" (always `decimals` digits after the point).
    var text: String {
        let whole = String(units / scale)
        guard decimals > 0 else { return whole }
        let fraction = String(units % scale)
        return whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
