import Geodesy
import Platform

// Text for movement reports, in English or Chinese. The data (`MovementReport`, `Leg`) stays
// free of presentation; these functions only read it.

/// "N30°E, moved 12 m" / "北偏东30度 移动了12米"; "stationary" / "静止" when neither the move nor
/// the receiver's speed shows movement; "moved 3 m" / "移动了3米" when moving without a known
/// direction (a speed but no course, and a move within the fixes' error). The direction is
/// `leg.direction`: the geodesic azimuth when the move exceeds the fixes' combined error, else the
/// receiver's course while it is moving.
///
/// ```swift
/// formatMovement(Leg(distance: 12, azimuth: 30, errorRadius: 4), style: .quadrant(decimals: 0))
/// // "N30°E, moved 12 m"
/// formatMovement(Leg(distance: 5, azimuth: 0, errorRadius: 4), style: .quadrant(decimals: 0), language: .zh)
/// // "正北 移动了5米"
/// let boat = Leg(distance: 3, azimuth: 200, errorRadius: 15.6, velocity: GroundVelocity(speed: 3, speedError: 0.2, course: 30))
/// formatMovement(boat, style: .quadrant(decimals: 0))   // "N30°E, moved 3 m"
/// ```
public func formatMovement(_ leg: Leg, style: BearingStyle = .quadrant(decimals: 0), language: Language = .en,
                           units: UnitSystem = .metric) -> String {
    if leg.isStationary { return stationaryWord(language) }
    let distance = formatDistance(leg.distance, language: language, units: units)
    guard let direction = leg.direction else {
        return (language == .en ? "moved " : "移动了") + distance
    }
    let text = formatBearing(direction, style: style, language: language)
    switch language {
    case .en: return text + ", moved " + distance
    case .zh: return text + " 移动了" + distance
    }
}

/// The direction of a leg as text: the formatted `leg.direction`, "stationary" / "静止", or
/// "moving" / "移动中" when moving without a known direction.
///
/// ```swift
/// formatDirection(Leg(distance: 12, azimuth: 30, errorRadius: 4), style: .points16)   // "NNE"
/// formatDirection(Leg(distance: 1, azimuth: 30, errorRadius: 4), language: .zh)      // "静止"
/// ```
public func formatDirection(_ leg: Leg, style: BearingStyle = .quadrant(decimals: 0), language: Language = .en) -> String {
    if leg.isStationary { return stationaryWord(language) }
    guard let direction = leg.direction else { return language == .en ? "moving" : "移动中" }
    return formatBearing(direction, style: style, language: language)
}

/// "stationary" or "静止".
public func stationaryWord(_ language: Language) -> String {
    language == .en ? "stationary" : "静止"
}

/// A distance in the chosen units (`UnitSystem.distance`): "12 m", "1.25 km", "40 ft", "2.10 NM";
/// in Chinese "12米", "1.25公里". "?" when not finite.
public func formatDistance(_ metres: Double, language: Language = .en, units: UnitSystem = .metric) -> String {
    formatQuantity(units.distance(metres), language: language)
}

/// A speed in the chosen units: "4.2 m/s", "9.4 mph", "8.2 kn"; "4.2米/秒".
public func formatSpeed(_ metresPerSecond: Double, language: Language = .en, units: UnitSystem = .metric) -> String {
    formatQuantity(units.speed(metresPerSecond), language: language)
}

/// A position error or altitude: "3.0 m", or "9.8 ft" in imperial units.
public func formatLength(_ metres: Double, language: Language = .en, units: UnitSystem = .metric) -> String {
    formatQuantity(units.length(metres), language: language)
}

/// "12 m" in English (a space before the symbol), "12米" in Chinese; "?" when not finite.
public func formatQuantity(_ q: Quantity, language: Language = .en) -> String {
    decimalText(q.value, decimals: q.decimals) + (language == .zh ? "" : " ") + q.symbol(language)
}

/// The report after its time and position: "start" for the first, else the movement, the total
/// travelled (the odometer), and speed and course when known (`report.course` is only set while
/// the course means something; below 0.3 m/s it is never shown).
///
/// ```swift
/// formatReportSummary(report, style: .quadrant(decimals: 0), language: .en)
/// // "N30°E, moved 12 m; total 1.23 km; 4.2 m/s, course N17°E"
/// ```
public func formatReportSummary(_ report: MovementReport, style: BearingStyle = .quadrant(decimals: 0),
                                language: Language = .en, units: UnitSystem = .metric) -> String {
    guard let leg = report.leg else { return language == .en ? "start" : "起点" }
    var parts = [formatMovement(leg, style: style, language: language, units: units)]
    parts.append((language == .en ? "total " : "累计") + formatDistance(report.totalDistance, language: language, units: units))
    var motion: [String] = []
    if let speed = report.speed {
        motion.append((language == .en ? "" : "速度") + formatSpeed(speed, language: language, units: units))
    }
    // A receiver's course at walking-pace noise or at rest points anywhere: not shown below 0.3 m/s.
    if let course = report.course, (report.speed ?? 1) >= 0.3 {
        motion.append((language == .en ? "course " : "航向") + formatBearing(course, style: style, language: language))
    }
    if !motion.isEmpty { parts.append(motion.joined(separator: language == .en ? ", " : "，")) }
    return parts.joined(separator: language == .en ? "; " : "；")
}

/// A number with a fixed count of decimals ("4.2", "-0.5", "12.00"); "?" when not finite.
func decimalText(_ value: Double, decimals: Int) -> String {
    value.isFinite ? fixed(value, decimals) : "?"
}
