import Glibc

/// Read-only access to the process environment.
public enum Environment {
    /// The value of an environment variable, or nil when unset.
    public static func value(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        return String(cString: p)
    }

    /// True when NO_COLOR is set (to anything) or TERM is "dumb".
    public static var colorDisabled: Bool {
        value("NO_COLOR") != nil || value("TERM") == "dumb"
    }

    /// True when the locale (LC_ALL, LC_CTYPE or LANG, in that order) names UTF-8.
    public static var localeIsUTF8: Bool {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let v = value(name), !v.isEmpty {
                let lower = v.lowercased()
                return lower.contains("utf-8") || lower.contains("utf8")
            }
        }
        return false
    }

    /// The user's config folder for Lodestone: $XDG_CONFIG_HOME/lodestone, else ~/.config/lodestone.
    public static var configFolder: String? {
        if let xdg = value("XDG_CONFIG_HOME"), xdg.hasPrefix("/") { return xdg + "/lodestone" }
        if let home = value("HOME"), !home.isEmpty { return home + "/.config/lodestone" }
        return nil
    }
}
