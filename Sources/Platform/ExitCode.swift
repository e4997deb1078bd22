/// Process exit codes (BSD sysexits), the contract between Lodestone and scripts.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// Generic failure where nothing more specific applies.
    case failure = 1
    /// The command was used incorrectly: unknown option, bad value, missing argument.
    case usage = 64
    /// Input data was malformed: a CSV row, a calibration file, a recording.
    case dataError = 65
    /// A needed service or device is unavailable: no sensor, no gpsd, no fix in time.
    case unavailable = 69
    /// Internal software error; should never be seen.
    case software = 70
    /// Reading or writing a file failed: disk full, permission, I/O error.
    case ioError = 74
}

/// An error that can reach the user: it says what happened and what to do, and how to exit.
///
/// ```swift
/// enum MyError: UserFacingError {
///     case missingFile(String)
///     var message: String { "no such file: …; check the path" }
///     var exitCode: ExitCode { .ioError }
/// }
/// ```
public protocol UserFacingError: Error {
    /// One or more lines for the user: what happened and what to do about it.
    var message: String { get }
    /// How the process should exit when this error ends it.
    var exitCode: ExitCode { get }
}
