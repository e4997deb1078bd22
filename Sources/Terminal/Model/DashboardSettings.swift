import Geodesy

extension Language {
    /// The next language, in `allCases` order and wrapping round (the `l` key cycles them).
    var next: Language {
        let all = Language.allCases
        let i = all.firstIndex(of: self) ?? all.startIndex
        return all[(i + 1) % all.count]
    }
}

/// How speeds are shown (the `u` key cycles km/h → knots → m/s).
public enum SpeedUnit: String, Sendable, Equatable, CaseIterable {
    case kilometresPerHour = "km/h"
    case knots = "kn"
    case metresPerSecond = "m/s"
    case milesPerHour = "mph"

    /// Converts metres per second to this unit.
    public func convert(metresPerSecond value: Double) -> Double {
        switch self {
        case .kilometresPerHour: return value * 3.6
        case .knots: return value * 3600 / UnitSystem.metresPerNauticalMile
        case .metresPerSecond: return value
        case .milesPerHour: return value * 3600 / UnitSystem.metresPerMile
        }
    }

    /// The next unit in the cycle.
    public var next: SpeedUnit {
        switch self {
        case .kilometresPerHour: return .knots
        case .knots: return .metresPerSecond
        case .metresPerSecond: return .milesPerHour
        case .milesPerHour: return .kilometresPerHour
        }
    }
}

/// The viewer's choices, owned by the dashboard loop and changed by keys; laid over each frame's
/// `DashboardState`.
///
/// ```swift
/// var settings = DashboardSettings(colorEnabled: !Environment.colorDisabled)
/// for action in keyActions(for: tty.readKeys()) { settings.apply(action) }
/// let shown = settings.applied(to: state)
/// ```
public struct DashboardSettings: Sendable, Equatable {
    public var primary: HeadingReference
    public var speedUnit: SpeedUnit
    public var language: Language
    public var colorEnabled: Bool
    public var asciiOnly: Bool
    public var helpVisible: Bool

    public init(primary: HeadingReference = .magnetic, speedUnit: SpeedUnit = .kilometresPerHour,
                language: Language = .en, colorEnabled: Bool = false, asciiOnly: Bool = false,
                helpVisible: Bool = false) {
        self.primary = primary
        self.speedUnit = speedUnit
        self.language = language
        self.colorEnabled = colorEnabled
        self.asciiOnly = asciiOnly
        self.helpVisible = helpVisible
    }

    /// Updates the settings for a key action. Actions the command handles (`.quit`, `.calibrate`,
    /// `.resetTrack`) leave the settings as they are, except that they close the help overlay.
    public mutating func apply(_ action: KeyAction) {
        switch action {
        case .toggleReference: primary = primary == .magnetic ? .true : .magnetic
        case .cycleUnits: speedUnit = speedUnit.next
        case .toggleLanguage: language = language.next
        case .toggleHelp: helpVisible.toggle()
        case .closeHelp, .calibrate, .resetTrack: helpVisible = false
        case .quit: break
        }
    }

    /// The state with these settings laid over it.
    public func applied(to state: DashboardState) -> DashboardState {
        var s = state
        s.primary = primary
        s.speedUnit = speedUnit
        s.language = language
        s.colorEnabled = colorEnabled
        s.asciiOnly = asciiOnly
        s.helpVisible = helpVisible
        return s
    }
}
