import Glibc

/// Whole-file reads and atomic whole-file writes.
///
/// ```swift
/// try Files.writeAtomically("/home/pi/.config/lodestone/calibration.json", contents: json)
/// let text = try Files.readText("/home/pi/.config/lodestone/calibration.json")
/// ```
public enum Files {
    /// Reads a whole file as bytes.
    public static func readBytes(_ path: String, limit: Int = 1 << 30) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .open(path: path, .current) }
        defer { close(fd) }
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
    public static func readText(_ path: String) throws(FileError) -> String {
        let bytes = try readBytes(path)
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

    /// Writes `contents` so that a crash at any moment leaves either the old file or the new one:
    /// a temporary file beside it, fsync, rename over the target, fsync of the folder.
    public static func writeAtomically(_ path: String, contents: String, mode: mode_t = 0o644) throws(FileError) {
        let temp = path + ".tmp-\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .open(path: temp, .current) }
        do throws(FileError) {
            try writeAll(fd, Array(contents.utf8), path: temp)
            guard fsync(fd) == 0 else { throw FileError.sync(path: temp, .current) }
        } catch {
            close(fd)
            unlink(temp)
            throw error
        }
        close(fd)
        guard rename(temp, path) == 0 else {
            let e = Errno.current
            unlink(temp)
            throw .rename(from: temp, to: path, e)
        }
        let folder = parentFolder(of: path)
        let dfd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }

    /// A user's file saved (a profile, the places, the dashboard's choices): the folders above it
    /// created first, then the file written atomically.
    public static func saveCreatingFolders(_ path: String, contents: String) throws(FileError) {
        try createFolders(parentFolder(of: path))
        try writeAtomically(path, contents: contents)
    }

    /// A user's file read, or nil when it does not exist yet.
    public static func readTextIfPresent(_ path: String) throws(FileError) -> String? {
        guard exists(path) else { return nil }
        return try readText(path)
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
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(FileError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .write(path: path, .current)
            }
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
