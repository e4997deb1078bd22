import Glibc

/// A file that appears whole or not at all, the one way Lodestone writes a file it replaces
/// (profiles, places, the dashboard's choices, SVG plots, GPX tracks): the text goes to a new
/// temporary file in the target's folder, created with `O_CREAT|O_EXCL|O_NOFOLLOW` under an
/// unpredictable name (so nothing planted there, a symbolic link least of all, is ever opened),
/// then file and folder are synced around the `rename` over the target. The rename replaces the
/// path itself: a symbolic link at the target is replaced, its target never written. Dropped
/// without `commit()`, the temporary file is removed and the target is untouched.
///
/// ```swift
/// let out = try AtomicFile(path: "track.gpx")
/// out.write("<gpx …>")
/// try out.commit()
/// ```
public final class AtomicFile {
    public let path: String
    /// The temporary file's name (beside the target).
    public let temporaryPath: String
    private let calls: any FileSystemCalls
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var failure: FileError?

    /// How many fresh names are tried when one is taken (planted, or left by a crash).
    static let attempts = 16

    public init(path: String, mode: mode_t = 0o644, calls: any FileSystemCalls = SystemFileCalls()) throws(FileError) {
        self.path = path
        self.calls = calls
        var lastError = Errno(EEXIST)
        for _ in 0..<Self.attempts {
            let name = Files.temporaryName(for: path, calls: calls)
            let fd = calls.open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 {
                self.fd = fd
                temporaryPath = name
                buffer.reserveCapacity(1 << 16)
                return
            }
            lastError = .current
            guard lastError == Errno(EEXIST) || lastError == Errno(EINTR) else { break }
        }
        throw .open(path: path, lastError)
    }

    deinit {
        if fd >= 0 {
            _ = calls.close(fd)
            _ = calls.unlink(temporaryPath)
        }
    }

    /// Adds text (written out in large blocks; errors surface in `commit()`).
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { drain() }
    }

    /// Writes what is left, syncs, renames the file into place and syncs the folder.
    public func commit() throws(FileError) {
        drain()
        if let failure { throw failure }
        guard calls.fsync(fd) == 0 else { throw .sync(path: path, .current) }
        let closed = calls.close(fd)
        fd = -1
        guard closed == 0 else {
            let e = Errno.current
            _ = calls.unlink(temporaryPath)
            throw .write(path: path, e)
        }
        guard calls.rename(temporaryPath, path) == 0 else {
            let e = Errno.current
            _ = calls.unlink(temporaryPath)
            throw .rename(from: temporaryPath, to: path, e)
        }
        try Files.syncFolder(of: path, calls: calls)
    }

    private func drain() {
        guard failure == nil, !buffer.isEmpty else { buffer.removeAll(keepingCapacity: true); return }
        do {
            try Files.writeAll(fd, buffer, path: path, calls: calls)
        } catch {
            failure = error
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

extension Files {
    /// A fresh temporary name beside `path`: `PATH.tmp-` and 16 random hexadecimal digits.
    static func temporaryName(for path: String, calls: any FileSystemCalls) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var suffix = [UInt8]()
        for byte in calls.randomBytes(8) {
            suffix.append(digits[Int(byte >> 4)])
            suffix.append(digits[Int(byte & 15)])
        }
        return path + ".tmp-" + String(decoding: suffix, as: UTF8.self)
    }

    /// Makes a new or renamed name durable (its folder entry), so a power cut cannot lose it.
    /// A folder that cannot be synced (some file systems refuse: EINVAL) is not an error.
    public static func syncFolder(of path: String, calls: any FileSystemCalls = SystemFileCalls()) throws(FileError) {
        let folder = parentFolder(of: path)
        let dfd = calls.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard dfd >= 0 else { return }
        defer { _ = calls.close(dfd) }
        if calls.fsync(dfd) != 0 && errno != EINVAL && errno != EROFS { throw .sync(path: folder, .current) }
    }
}
