import Geodesy
import Options

/// `--lang en|zh`: the language of reports, directions and the dashboard.
enum LanguageOption {
    static let lang = Option("lang", value: "LANG", choices: Language.allCases.map(\.rawValue), help: "language of reports and directions: en (default) or zh "
        + "(on the dashboard, the l key switches)")

    /// The language asked for, or nil when absent.
    static func language(_ arguments: ParsedArguments) throws(UsageError) -> Language? {
        try arguments.choice(lang).flatMap(Language.init(rawValue:))
    }
}
