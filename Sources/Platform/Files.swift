import Glibc

/// The file layer: whole-file reads, atomic whole-file writes (`AtomicFile`), and the opening of
/// files that are appended to (logs, recordings, `serve`'s JSON file). Every file Lodestone writes
/// is opened here, through `FileSystemCalls`.
///
/// ```swift
/// try Files.writeAtomically("/home/pi/.config/lodestone/calibration.json", contents: json)
/// let text = try Files.readText("/home/pi/.config/lodestone/calibration.json")
/// ```
public enum Files {
    /// Reads a whole file as bytes.
    /// With `regularOnly`, anything but a regular file is refused (`notRegular`) once opened, so a
    /// name swapped for a FIFO or a device after a check is not read either.
    ///
    /// The open never waits: a FIFO that no writer holds reads as empty at once, instead of an open
    /// that would wait for a writer with the command's signals blocked (SIGTERM could not end it).
    public static func readBytes(_ path: String, limit: Int = 1 << 30, regularOnly: Bool = false) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .open(path: path, .current) }
        defer { close(fd) }
        var st = stat()
        let regular = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        if regularOnly && !regular { throw .notRegular(path: path) }
        if !regular {
            // A pipe with a writer (`<(echo …)`), a terminal: read as it comes, as before.
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .read(path: path, .current)
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw .read(path: path, Errno(EFBIG)) }
        }
        return out
    }

    /// Reads a whole file as UTF-8 text.
    public static func readText(_ path: String, limit: Int = 1 << 30, regularOnly: Bool = false) throws(FileError) -> String {
        let bytes = try readBytes(path, limit: limit, regularOnly: regularOnly)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notText(path: path) }
        return text
    }

    /// True when both paths name the same existing file (same device and inode), or are the same text:
    /// an output that would overwrite an input.
    public static func same(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// True when `path` exists (any kind of file).
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// Writes `contents` so that a crash at any moment leaves either the old file or the new one
    /// (`AtomicFile`: an unguessable temporary file beside it, fsync, rename, fsync of the folder).
    public static func writeAtomically(_ path: String, contents: String, mode: mode_t = 0o644,
                                       calls: any FileSystemCalls = SystemFileCalls()) throws(FileError) {
        let file = try AtomicFile(path: path, mode: mode, calls: calls)
        file.write(contents)
        try file.commit()
    }

    /// A user's file saved (a profile, the places, the dashboard's choices): the folders above it
    /// created first, then the file written atomically.
    public static func saveCreatingFolders(_ path: String, contents: String) throws(FileError) {
        try createFolders(parentFolder(of: path))
        try writeAtomically(path, contents: contents)
    }

    /// A user's file read (a profile, the places), or nil when it does not exist yet. Only a regular
    /// file is read (a FIFO, a device or a folder is `notRegular`, without waiting on it); "-" is
    /// standard input, read through `standardInput` (the session's: `Runtime.standardInputPath`).
    public static func readTextIfPresent(_ path: String, standardInput: String = "/dev/stdin") throws(FileError) -> String? {
        if path == "-" { return try readText(standardInput) }
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT { return nil }
            throw .open(path: path, .current)
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw .notRegular(path: path) }
        return try readText(path, regularOnly: true)
    }

    /// Creates a folder and its parents (like `mkdir -p`).
    public static func createFolders(_ path: String, mode: mode_t = 0o755) throws(FileError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, mode) != 0 && errno != EEXIST { throw .open(path: current, .current) }
        }
    }

    /// Writes every byte, retrying short writes and EINTR.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String,
                                calls: any FileSystemCalls = SystemFileCalls()) throws(FileError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { calls.write(fd, UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .write(path: path, .current)
            }
            if n == 0 { throw .write(path: path, Errno(EIO)) }
            offset += n
        }
    }

    /// The folder part of a path ("." when there is none).
    public static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}

extension Files {
    /// How a file appended to is opened.
    public enum AppendMode: Sendable {
        /// Created when missing, appended to when present.
        case createOrAppend
        /// Created; an existing name (a file, or a planted link) is refused with EEXIST.
        case createNew
        /// Appended to; never created (a FIFO or a device that exists).
        case existing
    }

    /// Opens a file for appending (`O_APPEND`, close-on-exec; `readable` adds reading, which a log
    /// needs to check its header). In a sticky folder writable by everyone (`isSharedFolder`, such as
    /// /tmp) a name that is a symbolic link is refused (`linkRefused`), never followed; `createNew`
    /// never follows one anywhere. `nonBlocking` opens with `O_NONBLOCK` (and leaves it set), so a
    /// FIFO without a reader fails at once with ENXIO instead of holding the caller in `open`.
    public static func openForAppend(_ path: String, mode appendMode: AppendMode = .createOrAppend, readable: Bool = false,
                                     nonBlocking: Bool = false,
                                     calls: any FileSystemCalls = SystemFileCalls()) throws(FileError) -> Int32 {
        var flags = (readable ? O_RDWR : O_WRONLY) | O_APPEND | O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
        switch appendMode {
        case .createOrAppend: flags |= O_CREAT
        case .createNew: flags |= O_CREAT | O_EXCL | O_NOFOLLOW
        case .existing: break
        }
        let shared = isSharedFolder(parentFolder(of: path))
        if shared { flags |= O_NOFOLLOW }
        let fd = calls.open(path, flags, 0o644)
        guard fd >= 0 else {
            let e = Errno.current
            if e == Errno(ELOOP) && shared { throw .linkRefused(path: path, folder: parentFolder(of: path)) }
            throw .open(path: path, e)
        }
        return fd
    }

    /// Puts a new, empty file at `path` and returns it open for reading and appending: created under
    /// an unguessable name beside it (`O_EXCL|O_NOFOLLOW`) and renamed over the path, so whatever
    /// was there (a file, a symbolic link) is replaced and a link's target never written.
    public static func replaceWithNewFile(_ path: String, calls: any FileSystemCalls = SystemFileCalls()) throws(FileError) -> Int32 {
        var lastError = Errno(EEXIST)
        for _ in 0..<AtomicFile.attempts {
            let name = temporaryName(for: path, calls: calls)
            let fd = calls.open(name, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd < 0 {
                lastError = .current
                guard lastError == Errno(EEXIST) || lastError == Errno(EINTR) else { break }
                continue
            }
            guard calls.rename(name, path) == 0 else {
                let e = Errno.current
                _ = calls.close(fd)
                _ = calls.unlink(name)
                throw .rename(from: name, to: path, e)
            }
            try syncFolder(of: path, calls: calls)
            return fd
        }
        throw .open(path: path, lastError)
    }

    /// Removes a regular file (never a folder; a symbolic link is refused, not followed or removed).
    public static func removeFile(_ path: String, calls: any FileSystemCalls = SystemFileCalls()) throws(FileError) {
        guard let st = calls.entry(path) else { throw .remove(path: path, Errno.current) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw .notRegular(path: path) }
        guard calls.unlink(path) == 0 else { throw .remove(path: path, Errno.current) }
    }

    /// True when `path` is a symbolic link (not followed).
    public static func isLink(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
    }

    /// Names in a folder (without "." and ".."), sorted; nil when it cannot be read.
    public static func list(_ folder: String) -> [String]? {
        guard let dir = opendir(folder) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
