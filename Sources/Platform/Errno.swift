import Glibc

/// A POSIX error number with its system message.
///
/// ```swift
/// if fd < 0 { throw FileError.open(path, Errno.current) }
/// ```
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(errno) }

    public static let noEntry = Errno(ENOENT)
    public static let accessDenied = Errno(EACCES)
    public static let permissionDenied = Errno(EPERM)
    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let busy = Errno(EBUSY)
    public static let noDevice = Errno(ENXIO)
    public static let remoteIO = Errno(EREMOTEIO)
    public static let timedOut = Errno(ETIMEDOUT)
    public static let ioError = Errno(EIO)
    public static let noSpace = Errno(ENOSPC)
    public static let notDirectory = Errno(ENOTDIR)
    public static let isDirectory = Errno(EISDIR)

    /// The system's text for this error, e.g. "Remote I/O error".
    public var description: String {
        guard let text = strerror(rawValue) else { return "error \(rawValue)" }
        return String(cString: text) + " (errno \(rawValue))"
    }
}
