import Geodesy
import Options

/// `--lang en|zh`: the language of reports, directions and the dashboard.
enum LanguageOption {
    static let lang = Option("lang", value: "LANG", choices: Language.self, default: .en,
                             help: "language of reports and directions: en or zh (on the dashboard, the l key switches)")

    /// The language asked for, or its declared default.
    static func language(_ arguments: ParsedArguments) throws(UsageError) -> Language {
        try arguments.chosen(lang, as: Language.self)
    }
}
