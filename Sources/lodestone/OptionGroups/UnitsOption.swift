import Geodesy
import Options

/// `--units metric|imperial|nautical`: how distances and speeds are shown.
enum UnitsOption {
    static let units = Option("units", value: "SYSTEM", choices: UnitSystem.allCases.map(\.rawValue), help: "distances and speeds in metric (m, km, m/s), imperial "
        + "(ft, mi, mph) or nautical (m, NM, kn) units (default: $GPSD_UNITS, else metric)")

    /// The units asked for, or nil when absent (the environment decides).
    static func system(_ arguments: ParsedArguments) throws(UsageError) -> UnitSystem? {
        try arguments.choice(units).flatMap(UnitSystem.init(rawValue:))
    }
}
