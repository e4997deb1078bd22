/// A file operation that failed, with the path and the system's reason.
public enum FileError: UserFacingError, Equatable {
    case open(path: String, Errno)
    case read(path: String, Errno)
    case write(path: String, Errno)
    case sync(path: String, Errno)
    case rename(from: String, to: String, Errno)
    case remove(path: String, Errno)
    case notText(path: String)
    /// A profile or places file that is not a regular file (a FIFO, a device, a folder).
    case notRegular(path: String)
    /// A symbolic link in a folder anyone can write to, which is never followed.
    case linkRefused(path: String, folder: String)
    /// A line longer than a reader holds (`limit` bytes): the input is not what it should be.
    case lineTooLong(path: String, line: Int, limit: Int)

    public var message: String {
        switch self {
        case .open(let path, let e):
            var text = "cannot open \(path): \(e)"
            if e == .noEntry { text += "\ncheck the path; the folder must exist" }
            if e == .accessDenied || e == .permissionDenied { text += "\ncheck the file's permissions or choose another path" }
            return text
        case .read(let path, let e): return "cannot read \(path): \(e)"
        case .write(let path, let e):
            var text = "cannot write \(path): \(e)"
            // What was kept depends on the writer (an atomic file leaves the previous one; an
            // appended log keeps its whole rows): each says so itself.
            if e == .noSpace { text += "\nthe disk is full: free some space" }
            return text
        case .sync(let path, let e): return "cannot flush \(path) to disk: \(e)"
        case .rename(let from, let to, let e): return "cannot replace \(to) with \(from): \(e)"
        case .remove(let path, let e): return "cannot remove \(path): \(e)"
        case .notRegular(let path):
            return "\(path) is not a regular file (a device, a pipe or a folder): name a file"
        case .linkRefused(let path, let folder):
            return "\(path) is a symbolic link in \(folder), a folder anyone can write to: it is not followed\n"
                + "name a file that is not a link, or use a folder of your own"
        case .notText(let path): return "\(path) is not a text file (it contains bytes that are not UTF-8)"
        case .lineTooLong(let path, let line, let limit):
            return "\(path) line \(line) is longer than \(limit) bytes: this is not a list of points or values"
        }
    }

    /// Text that is not text, or lines no reader holds, are bad data (65); everything else is the
    /// system's I/O (74).
    public var exitCode: ExitCode {
        switch self {
        case .notText, .notRegular, .lineTooLong: return .dataError
        default: return .ioError
        }
    }
}
