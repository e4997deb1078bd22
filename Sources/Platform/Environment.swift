import Glibc

/// Environment variables as a value, so a session can be given a made-up environment in tests.
///
/// ```swift
/// let env = EnvironmentValues(["HOME": "/tmp/home", "LANG": "C.UTF-8"])
/// env.configFolder   // "/tmp/home/.config/lodestone"
/// ```
public struct EnvironmentValues: Sendable {
    private let lookup: @Sendable (String) -> String?

    /// A fixed set of variables; everything else is unset.
    public init(_ values: [String: String]) { lookup = { values[$0] } }

    /// The process environment (`getenv`).
    public static var process: EnvironmentValues { EnvironmentValues(lookup: Environment.value) }

    private init(lookup: @escaping @Sendable (String) -> String?) { self.lookup = lookup }

    /// The value of a variable, or nil when unset.
    public func value(_ name: String) -> String? { lookup(name) }

    /// True when NO_COLOR is set (to anything) or TERM is "dumb".
    public var colorDisabled: Bool { value("NO_COLOR") != nil || value("TERM") == "dumb" }

    /// True when the locale (LC_ALL, LC_CTYPE or LANG, in that order) names UTF-8.
    public var localeIsUTF8: Bool {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let v = value(name), !v.isEmpty {
                let lower = v.lowercased()
                return lower.contains("utf-8") || lower.contains("utf8")
            }
        }
        return false
    }

    /// The user's config folder for Lodestone: $XDG_CONFIG_HOME/lodestone, else ~/.config/lodestone.
    public var configFolder: String? {
        if let xdg = value("XDG_CONFIG_HOME"), xdg.hasPrefix("/") { return xdg + "/lodestone" }
        if let home = value("HOME"), !home.isEmpty { return home + "/.config/lodestone" }
        return nil
    }
}

/// Read-only access to the process environment (`EnvironmentValues.process`).
public enum Environment {
    /// The value of an environment variable, or nil when unset.
    public static func value(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        return String(cString: p)
    }

    /// True when NO_COLOR is set (to anything) or TERM is "dumb".
    public static var colorDisabled: Bool { EnvironmentValues.process.colorDisabled }

    /// True when the locale (LC_ALL, LC_CTYPE or LANG, in that order) names UTF-8.
    public static var localeIsUTF8: Bool { EnvironmentValues.process.localeIsUTF8 }

    /// The user's config folder for Lodestone: $XDG_CONFIG_HOME/lodestone, else ~/.config/lodestone.
    public static var configFolder: String? { EnvironmentValues.process.configFolder }
}
