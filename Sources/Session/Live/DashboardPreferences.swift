import Geodesy
import Platform
import Terminal

/// What the dashboard remembers between runs: the speed unit chosen with the u key. Kept in
/// `$XDG_CONFIG_HOME/lodestone/dashboard.conf` (else `~/.config/lodestone/`) as `speed_unit=kn`,
/// written atomically; a missing or unreadable file means nothing is remembered.
///
/// ```swift
/// var prefs = DashboardPreferences.load(configFolder: env.configFolder)
/// prefs.speedUnit = .knots
/// try prefs.save(configFolder: env.configFolder)
/// ```
struct DashboardPreferences: Equatable {
    var speedUnit: SpeedUnit?

    static let fileName = "dashboard.conf"

    static func load(configFolder: String?) -> DashboardPreferences {
        guard let folder = configFolder, let text = (try? Files.readTextIfPresent(folder + "/" + fileName)) ?? nil else {
            return DashboardPreferences()
        }
        var prefs = DashboardPreferences()
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { String($0).promptTrimmed }
            if parts.count == 2, parts[0] == "speed_unit" { prefs.speedUnit = SpeedUnit(rawValue: parts[1]) }
        }
        return prefs
    }

    func save(configFolder: String?) throws(FileError) {
        guard let folder = configFolder else { return }
        var text = "# lodestone dashboard: remembered choices (written by 'lodestone watch')\n"
        if let speedUnit { text += "speed_unit=\(speedUnit.rawValue)\n" }
        try Files.saveCreatingFolders(folder + "/" + Self.fileName, contents: text)
    }
}

extension SpeedUnit {
    /// The dashboard's speed unit for a unit system: km/h, mph or knots.
    init(_ units: UnitSystem) {
        switch units {
        case .metric: self = .kilometresPerHour
        case .imperial: self = .milesPerHour
        case .nautical: self = .knots
        }
    }
}
