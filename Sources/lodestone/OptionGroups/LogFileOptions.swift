import HeadingLog
import Options

/// The CSV log file of `log` and `watch --log`: where, how often it syncs, and rotation.
struct LogFileOptions: OptionGroup {
    static let output = Option("output", short: "o", value: "FILE", help: "the CSV file; rows are appended to an existing log")
    static let overwrite = Option("overwrite", help: "replace the file's contents instead of appending")
    static let fsyncInterval = Option("fsync-interval", value: "S", range: 0.1...60, default: 1,
                                      help: "seconds between syncs to disk, 0.1–60: what a power cut can cost")
    static let rotateSize = Option("rotate-size", value: "MB",
                                   help: "start a new file (FILE.1.csv, FILE.2.csv, …) before one exceeds MB megabytes")
    static let rotate = Option("rotate", value: "daily", choices: ["daily"], help: "one file per UTC day: FILE-YYYYMMDD.csv")

    static var options: [Option] { [output, overwrite, fsyncInterval, rotateSize, rotate] }

    /// The file settings; nil when `--output` is absent.
    var file: LogSession.Options?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.requireAtMostOne(of: [Self.rotateSize, Self.rotate])
        var rotation = LogRotation.none
        if let megabytes = try arguments.double(Self.rotateSize, in: 0.01...1_000_000) {
            rotation = .size(bytes: Int(megabytes * 1_000_000))
        }
        if try arguments.choice(Self.rotate) != nil { rotation = .daily }
        let fsync = try arguments.numberValue(Self.fsyncInterval)
        guard let path = arguments.string(Self.output), !path.isEmpty else {
            if arguments.string(Self.output) != nil {
                throw .invalidValue(option: Self.output.name, value: "", expected: "a file name")
            }
            file = nil
            return
        }
        file = LogSession.Options(path: path, overwrite: arguments.flag(Self.overwrite), fsyncInterval: fsync,
                                  rotation: rotation)
    }
}

/// `--duration S`: how long a command runs.
enum DurationOption {
    static let duration = Option("duration", value: "S", help: "stop after S seconds (default: until Ctrl-C or SIGTERM)")
}
