import Geodesy
import Options

/// `--units metric|imperial|nautical`: how distances and speeds are shown.
enum UnitsOption {
    static let units = Option("units", value: "SYSTEM", choices: UnitSystem.self, absent: "$GPSD_UNITS, else metric",
                              help: "distances and speeds in metric (m, km, m/s), imperial (ft, mi, mph) or nautical (m, NM, kn) units")

    /// The units asked for, or nil when absent (the environment decides).
    static func system(_ arguments: ParsedArguments) throws(UsageError) -> UnitSystem? {
        try arguments.choice(units, as: UnitSystem.self)
    }
}
