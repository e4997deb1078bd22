/// How ``formatBearing(_:style:language:reference:)`` writes a direction.
public enum BearingStyle: Sendable, Equatable, Hashable {
    /// Degrees clockwise from north, e.g. "123.4°" (decimals are clamped to 0…9).
    case degrees(decimals: Int)
    /// The nearest of 16 compass points: N, NNE, NE, ENE, E, … (22.5° apart).
    case points16
    /// The nearest of 32 compass points: N, NbE, NNE, NEbN, NE, … (11.25° apart).
    case points32
    /// Quadrant (surveyor's) bearing: N30°E, S45°W; the angle is measured from N or S toward
    /// E or W (decimals are clamped to 0…9).
    case quadrant(decimals: Int)
}

/// The language of bearing names, movement reports and the dashboard's labels (the project's one
/// language type). The raw value is the `--lang` spelling.
///
/// ```swift
/// let language = Language(rawValue: "zh") ?? .en
/// formatBearing(45, style: .points16, language: language)   // "东北"
/// ```
public enum Language: String, Sendable, Equatable, Hashable, CaseIterable {
    /// English: N, NNE, N30°E, "T"/"M" reference suffixes.
    case en
    /// Chinese, naming the direction one moves or faces (not the wind): 正北, 东北偏北,
    /// 北偏东30度.
    case zh
}

/// Which north a bearing is measured from.
public enum NorthReference: Sendable, Equatable, Hashable {
    /// Geographic (true) north: suffix "T" in English, "（真北）" in Chinese.
    case trueNorth
    /// Magnetic north: suffix "M" in English, "（磁北）" in Chinese.
    case magneticNorth
}

/// A parsed bearing: the direction in degrees [0, 360) and the north reference if the text
/// named one.
public struct ParsedBearing: Sendable, Equatable {
    /// Degrees clockwise from north, in [0, 360).
    public let degrees: Double
    /// The reference given in the text ("T", "M", "（真北）", …), or nil.
    public let reference: NorthReference?

    public init(degrees: Double, reference: NorthReference?) {
        self.degrees = degrees
        self.reference = reference
    }
}

/// Why a bearing could not be parsed. Each message says what is accepted.
public enum BearingParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text was empty or only whitespace.
    case empty
    /// The text is not in any accepted form.
    case unrecognized(String)
    /// Degrees outside 0…360.
    case degreesOutOfRange(Double)
    /// A quadrant angle outside 0…90.
    case quadrantAngleOutOfRange(Double)

    /// A message a user can act on.
    public var message: String {
        let forms = "use degrees (123.4, 123.4°T, 123°M), a compass point (NNE, NEbN, 东北偏北), "
            + "or a quadrant bearing (N30°E, S45W, 北偏东30度)"
        switch self {
        case .empty:
            return "no bearing given; " + forms
        case .unrecognized(let text):
            return "cannot read \"\(text)\" as a bearing; " + forms
        case .degreesOutOfRange(let value):
            return "bearing \(value)° is outside 0…360°; give degrees clockwise from north"
        case .quadrantAngleOutOfRange(let value):
            return "quadrant angle \(value)° is outside 0…90°; it is measured from N or S "
                + "toward E or W (N30°E is 30°, S45°W is 225°)"
        }
    }

    public var description: String { message }
}
