import HeadingLog
import Options

/// The CSV log file of `log` and `watch --log`: where, how often it syncs, and rotation.
struct LogFileOptions: OptionGroup {
    static let output = Option("output", short: "o", value: "FILE", help: "the CSV file; rows are appended to an existing log")
    static let overwrite = Option("overwrite", help: "replace the file's contents instead of appending")
    static let fsyncInterval = Option("fsync-interval", value: "S", range: 0.1...60, default: LogSession.Options.defaultFsyncInterval,
                                      help: "seconds between syncs to disk: what a power cut can cost")
    static let rotateSize = Option("rotate-size", value: "MB", range: 0.01...1_000_000,
                                   help: "start a new file (FILE.1.csv, FILE.2.csv, …) before one exceeds MB megabytes")
    static let rotate = Option("rotate", value: "PERIOD", choices: RotationPeriod.self,
                               help: "daily: one file per UTC day, FILE-YYYYMMDD.csv")

    static let keep = Option("keep", value: "N", range: 1...1_000_000, absent: "every file is kept",
                             help: "with --rotate-size or --rotate: keep the newest N files of the log, removing older ones as new ones start")

    /// The words of `--rotate`: how often a new file is started.
    enum RotationPeriod: String, CaseIterable {
        case daily

        var rotation: LogRotation {
            switch self {
            case .daily: return .daily
            }
        }
    }

    static var options: [Option] { [output, overwrite, fsyncInterval, rotateSize, rotate, keep] }
    /// By size or by day: `[--rotate-size MB | --rotate daily]`.
    static let rotations = OptionAlternatives.oneOf([rotateSize, rotate])

    /// The file settings; nil when `--output` is absent.
    var file: LogSession.Options?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.require(Self.rotations)
        var rotation = LogRotation.none
        if let megabytes = try arguments.number(Self.rotateSize) {
            rotation = .size(bytes: Int(megabytes * 1_000_000))
        }
        if let period = try arguments.choice(Self.rotate, as: RotationPeriod.self) { rotation = period.rotation }
        let keep = try arguments.integer(Self.keep)
        if keep != nil && rotation == .none {
            throw .conflict("--keep needs --rotate-size MB or --rotate daily: it removes the oldest files of a rotated log")
        }
        let fsync = try arguments.numberValue(Self.fsyncInterval)
        guard let path = arguments.string(Self.output), !path.isEmpty else {
            if arguments.string(Self.output) != nil {
                throw .invalidValue(option: Self.output.name, value: "", expected: "a file name")
            }
            file = nil
            return
        }
        file = LogSession.Options(path: path, overwrite: arguments.flag(Self.overwrite), fsyncInterval: fsync,
                                  rotation: rotation, keep: keep)
    }
}

/// `--duration S`: how long a command runs.
enum DurationOption {
    static let duration = Option("duration", value: "S", range: 0.001...1e9, absent: "until Ctrl-C or SIGTERM",
                                 help: "stop after S seconds")

    /// `--duration`, seconds; nil when absent.
    static func seconds(_ arguments: ParsedArguments) throws(UsageError) -> Double? {
        try arguments.number(duration)
    }
}
