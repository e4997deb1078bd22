import Glibc
import Platform

/// A file written in pieces that appears only when complete: the text goes to a temporary file
/// beside the target, which is synced and renamed over it by `commit()`. Dropped without `commit()`,
/// the temporary file is removed and the target is untouched.
///
/// ```swift
/// let out = try OutputFile(path: "track.gpx")
/// out.write("<gpx …>")
/// try out.commit()
/// ```
public final class OutputFile {
    public let path: String
    private let temporary: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var failure: FileError?

    public init(path: String) throws(FileError) {
        self.path = path
        temporary = path + ".tmp-\(getpid())"
        fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .open(path: path, .current) }
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        if fd >= 0 {
            close(fd)
            unlink(temporary)
        }
    }

    /// Adds text (written out in large blocks; errors surface in `commit()`).
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { drain() }
    }

    /// Writes what is left, syncs, and renames the file into place.
    public func commit() throws(FileError) {
        drain()
        if let failure { throw failure }
        guard fsync(fd) == 0 else { throw .sync(path: path, .current) }
        close(fd)
        fd = -1
        guard rename(temporary, path) == 0 else {
            let e = Errno.current
            unlink(temporary)
            throw .rename(from: temporary, to: path, e)
        }
    }

    private func drain() {
        guard failure == nil, !buffer.isEmpty else { buffer.removeAll(keepingCapacity: true); return }
        do {
            try Files.writeAll(fd, buffer, path: path)
        } catch {
            failure = error
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Escapes text for XML content and attribute values; control characters are dropped.
///
/// ```swift
/// xmlEscaped("a<b & \"c\"")   // "a&lt;b &amp; &quot;c&quot;"
/// ```
public func xmlEscaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in sanitize(text).unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default:
            // XML 1.0 forbids U+FFFE, U+FFFF and unpaired surrogates (which Swift never holds).
            if scalar.value != 0xFFFE && scalar.value != 0xFFFF { out.unicodeScalars.append(scalar) }
        }
    }
    return out
}
