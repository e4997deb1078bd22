/// The one rule for when a file's unusable rows make the whole file unusable, whatever made each
/// row bad (a value that is not a number, a missing column, a line too long, a missing time).
///
/// ```swift
/// if BadRowRule.rejects(bad: 12, rows: 100) { throw … }   // true: more than 10 % are bad
/// ```
public enum BadRowRule {
    /// More than this fraction of bad rows makes the file unusable.
    public static let maximumFraction = 0.1

    /// "10 %", for messages.
    public static var maximumPercent: String { "\(Int(maximumFraction * 100)) %" }

    /// True when `bad` of `rows` data rows is too many: every row, or more than `maximumFraction`.
    public static func rejects(bad: Int, rows: Int) -> Bool {
        rows <= 0 || bad >= rows || Double(bad) > maximumFraction * Double(rows)
    }
}
