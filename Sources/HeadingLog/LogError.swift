import Platform

/// Why a log could not be written or read, with what to do about it.
public enum LogError: UserFacingError, Equatable {
    /// Opening, reading, writing or flushing failed (disk full, permission, I/O error).
    case file(FileError)
    /// Writing stopped part-way; the file was cut back to its last whole row.
    case writeFailed(path: String, Errno, keptRows: Bool)
    /// The existing file has another header: appending would mix schemas. `found` describes the
    /// first line (`LogSchema.describe`), never quotes it: the file may be anyone's.
    case otherSchema(path: String, found: String, suggestion: String)
    /// Another process holds the file open for logging.
    case busy(path: String)
    /// The file to analyse is not a Lodestone log; `found` describes its first line
    /// (`LogSchema.describe`) without quoting it.
    case notALog(path: String, found: String)
    /// The log has no row that could be read.
    case nothingReadable(path: String, malformed: Int)

    public var message: String {
        switch self {
        case .file(let e):
            return e.message
        case .writeFailed(let path, let e, _):
            var text = "cannot write \(path): \(e)"
            if e == .noSpace { text += "\nthe disk is full: free some space, or log to another disk" }
            if e.rawValue == 27 { text += "\nthe file reached the size limit for this process or file system; use --rotate-size" }
            return text + "\nthe log is intact up to its last whole row; logging again appends to it"
        case .otherSchema(let path, let found, let suggestion):
            return "\(path) already holds data with another header, so rows cannot be appended to it:\n"
                + "  found:    \(found)\n  expected: the header of a Lodestone log, '\(LogSchema.headerStart)'\n"
                + "write to a new file (e.g. --output \(suggestion)) or replace it with --overwrite"
        case .busy(let path):
            return "\(path) is being written by another process (another 'lodestone log'?);\n"
                + "stop it first, or log to another file"
        case .notALog(let path, let found):
            return "\(path) is not a Lodestone log: \(found)\n"
                + "expected the header '\(LogSchema.headerStart)' on line 1 (see 'Log format' in the README)"
        case .nothingReadable(let path, let malformed):
            return malformed > 0
                ? "\(path): none of its \(malformed) rows could be read"
                : "\(path) has a header but no rows yet: nothing to analyse"
        }
    }

    public var exitCode: ExitCode {
        switch self {
        case .file, .writeFailed, .busy: return .ioError
        case .otherSchema, .notALog, .nothingReadable: return .dataError
        }
    }
}
