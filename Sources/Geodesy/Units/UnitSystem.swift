/// The units distances and speeds are shown in, as gpsd's clients offer them (`GPSD_UNITS`):
/// metric (metres and kilometres, m/s), imperial (feet and miles, mph) and nautical (metres and
/// nautical miles, knots). Machine formats (CSV, JSON) stay in SI units whatever is chosen.
///
/// ```swift
/// let units = UnitSystem(gpsdUnits: "nautical") ?? .metric
/// units.distance(3704)   // Quantity(value: 2, decimals: 2, english: "NM", chinese: "海里")
/// ```
public enum UnitSystem: String, Sendable, Equatable, CaseIterable {
    case metric, imperial, nautical

    /// The value of `GPSD_UNITS` (or `--units`): metric, imperial or nautical, in any case.
    public init?(gpsdUnits text: String) {
        self.init(rawValue: text.lowercased())
    }

    /// Metres per foot, per statute mile, per nautical mile.
    public static let metresPerFoot = 0.3048
    public static let metresPerMile = 1609.344
    public static let metresPerNauticalMile = 1852.0

    /// A distance travelled or to go: whole metres below a kilometre, else kilometres (metric);
    /// whole feet below a tenth of a mile, else miles (imperial); whole metres below a tenth of a
    /// nautical mile, else nautical miles (nautical).
    public func distance(_ metres: Double) -> Quantity {
        switch self {
        case .metric:
            return abs(metres.rounded()) < 1000 ? .metres(metres) : Quantity(value: metres / 1000, decimals: 2, english: "km", chinese: "公里")
        case .imperial:
            return abs(metres) < Self.metresPerMile / 10
                ? Quantity(value: metres / Self.metresPerFoot, decimals: 0, english: "ft", chinese: "英尺")
                : Quantity(value: metres / Self.metresPerMile, decimals: 2, english: "mi", chinese: "英里")
        case .nautical:
            return abs(metres) < Self.metresPerNauticalMile / 10
                ? .metres(metres) : Quantity(value: metres / Self.metresPerNauticalMile, decimals: 2, english: "NM", chinese: "海里")
        }
    }

    /// A short length (a position error, an altitude): metres, or feet in imperial units.
    public func length(_ metres: Double, decimals: Int = 1) -> Quantity {
        self == .imperial
            ? Quantity(value: metres / Self.metresPerFoot, decimals: decimals, english: "ft", chinese: "英尺")
            : Quantity(value: metres, decimals: decimals, english: "m", chinese: "米")
    }

    /// A speed over ground: m/s, mph or knots.
    public func speed(_ metresPerSecond: Double) -> Quantity {
        switch self {
        case .metric: return Quantity(value: metresPerSecond, decimals: 1, english: "m/s", chinese: "米/秒")
        case .imperial: return Quantity(value: metresPerSecond * 3600 / Self.metresPerMile, decimals: 1, english: "mph", chinese: "英里/时")
        case .nautical: return Quantity(value: metresPerSecond * 3600 / Self.metresPerNauticalMile, decimals: 1, english: "kn", chinese: "节")
        }
    }
}

/// A value in a unit, ready to be written with a fixed number of decimals.
public struct Quantity: Sendable, Equatable {
    public var value: Double
    public var decimals: Int
    /// The unit's symbol in English ("m", "NM") and in Chinese ("米", "海里").
    public var english: String
    public var chinese: String

    public init(value: Double, decimals: Int, english: String, chinese: String) {
        self.value = value
        self.decimals = decimals
        self.english = english
        self.chinese = chinese
    }

    /// Whole metres.
    static func metres(_ m: Double) -> Quantity { Quantity(value: m, decimals: 0, english: "m", chinese: "米") }

    /// The unit's symbol in a language.
    public func symbol(_ language: Language) -> String { language == .zh ? chinese : english }
}
