/// Conditions attached to a heading estimate.
///
/// ```swift
/// if estimate.flags.contains(.disturbed) { showWarning("magnetic disturbance") }
/// estimate.flags.names   // ["levelOnly", "noDeclination"]
/// ```
public struct HeadingFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// |B| or the inclination departs from the expected Earth field: something magnetic is near.
    public static let disturbed = HeadingFlags(rawValue: 1 << 0)
    /// Inside a field-model blackout zone (horizontal field < 2 µT): a compass is unreliable here.
    public static let blackout = HeadingFlags(rawValue: 1 << 1)
    /// Treat with caution: weak horizontal field (model caution zone or measured), or blackout.
    public static let caution = HeadingFlags(rawValue: 1 << 2)
    /// The tilt is held at its last good value (linear acceleration, jerk, or a bad accelerometer reading).
    public static let tiltHeld = HeadingFlags(rawValue: 1 << 3)
    /// No tilt known: the heading assumes the sensor is level.
    public static let levelOnly = HeadingFlags(rawValue: 1 << 4)
    /// No declination: true heading unavailable.
    public static let noDeclination = HeadingFlags(rawValue: 1 << 5)
    /// The expected field (declination) is older than intended: its refresh failed.
    public static let stale = HeadingFlags(rawValue: 1 << 6)
    /// The sensor reported saturation: the field exceeded its range.
    public static let saturated = HeadingFlags(rawValue: 1 << 7)
    /// The measured horizontal field is too weak to give a heading (accuracy unavailable).
    public static let weakField = HeadingFlags(rawValue: 1 << 8)
    /// The filter restarted after a gap or a backwards timestamp: this heading is unsmoothed.
    public static let restarted = HeadingFlags(rawValue: 1 << 9)
    /// Turning: the adaptive smoother is in its fast mode.
    public static let turning = HeadingFlags(rawValue: 1 << 10)
    /// A deviation-card correction was applied.
    public static let deviationApplied = HeadingFlags(rawValue: 1 << 11)
    /// The heading comes from the gyro-aided attitude filter.
    public static let gyroAided = HeadingFlags(rawValue: 1 << 12)
    /// The attitude filter is still settling (its first seconds, or after a restart).
    public static let initialising = HeadingFlags(rawValue: 1 << 13)
    /// `--refine`: a refined hard-iron offset (from the background refinement) is applied.
    public static let refined = HeadingFlags(rawValue: 1 << 14)
    /// `--refine`: the recent data show a changed calibration; it is being confirmed (the accuracy widens).
    public static let calibrationChanged = HeadingFlags(rawValue: 1 << 15)

    /// Every flag with its name, in bit order.
    public static let all: [(flag: HeadingFlags, name: String)] = [
        (.disturbed, "disturbed"), (.blackout, "blackout"), (.caution, "caution"), (.tiltHeld, "tiltHeld"),
        (.levelOnly, "levelOnly"), (.noDeclination, "noDeclination"), (.stale, "stale"),
        (.saturated, "saturated"), (.weakField, "weakField"), (.restarted, "restarted"),
        (.turning, "turning"), (.deviationApplied, "deviationApplied"), (.gyroAided, "gyroAided"),
        (.initialising, "initialising"), (.refined, "refined"), (.calibrationChanged, "calibrationChanged"),
    ]

    /// Names of the flags set, in bit order (for logs and JSON).
    public var names: [String] {
        guard !isEmpty else { return [] }
        var out: [String] = []
        for entry in Self.all where contains(entry.flag) { out.append(entry.name) }
        return out
    }

    /// Appends the names of the flags set, in bit order, with `separator` between them, to `out`
    /// (a line being built as bytes: no array of names per line).
    ///
    /// ```swift
    /// var line: [UInt8] = []
    /// estimate.flags.appendNames(separator: UInt8(ascii: "|"), to: &line)   // "levelOnly|noDeclination"
    /// ```
    public func appendNames(separator: UInt8, to out: inout [UInt8]) {
        guard !isEmpty else { return }
        var first = true
        for entry in Self.all where contains(entry.flag) {
            if !first { out.append(separator) }
            first = false
            out.append(contentsOf: entry.name.utf8)
        }
    }
}
