import Glibc
import Platform

/// How a line handed out by `ChunkedLines` ended.
public enum LineEnding: Sendable, Equatable {
    /// With "\n" (a trailing "\r" is removed).
    case newline
    /// At the end of the file without "\n": a logger may still be writing it, or was stopped.
    case endOfFile
    /// Longer than the reader accepts: only its first bytes (a buffer's worth) are handed out, once.
    case tooLong
}

/// Reads a file's lines in large chunks and hands each one out as bytes, without copying it into a
/// String. Lines are only valid during the callback.
///
/// ```swift
/// var lines = try ChunkedLines(path: "heading.csv")
/// try lines.forEach { line, ending in count += 1; return true }
/// ```
public struct ChunkedLines: ~Copyable {
    public let path: String
    private let fd: Int32
    private let capacity: Int
    private let buffer: UnsafeMutablePointer<UInt8>

    /// Opens the file. `maximumLineLength` bounds memory: longer lines are reported as `.tooLong`.
    public init(path: String, maximumLineLength: Int = 1 << 20) throws(FileError) {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .open(path: path, .current) }
        capacity = max(4096, maximumLineLength)
        buffer = .allocate(capacity: capacity)
    }

    /// The file's size when it is a regular file (not a pipe or a device), for a size check before reading.
    public var regularFileSize: Int? {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(st.st_size)
    }

    deinit {
        close(fd)
        buffer.deallocate()
    }

    /// Calls `body` with each line and how it ended; `body` returns false to stop early. A UTF-8
    /// byte-order mark before the first line is dropped.
    public mutating func forEach(_ body: (UnsafeBufferPointer<UInt8>, LineEnding) -> Bool) throws(FileError) {
        var first = true
        try forEachRaw { line, ending in
            guard first else { return body(line, ending) }
            first = false
            return body(ending == .tooLong ? line : ByteOrderMark.dropped(from: line), ending)
        }
    }

    private mutating func forEachRaw(_ body: (UnsafeBufferPointer<UInt8>, LineEnding) -> Bool) throws(FileError) {
        var filled = 0          // bytes in the buffer
        var start = 0           // start of the first unconsumed line
        var skippingLongLine = false
        var atEnd = false
        while !atEnd {
            let n = read(fd, buffer + filled, capacity - filled)
            if n < 0 {
                if errno == EINTR { continue }
                throw .read(path: path, .current)
            }
            if n == 0 { atEnd = true }
            var scan = filled
            filled += n
            while scan < filled {
                guard let hit = memchr(buffer + scan, 10, filled - scan) else { break }
                let newline = UnsafeMutablePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - buffer
                if skippingLongLine {
                    skippingLongLine = false
                } else {
                    var end = newline
                    if end > start && buffer[end - 1] == 13 { end -= 1 }
                    if !body(UnsafeBufferPointer(start: buffer + start, count: end - start), .newline) { return }
                }
                start = newline + 1
                scan = start
            }
            if atEnd {
                if start < filled && !skippingLongLine {
                    _ = body(UnsafeBufferPointer(start: buffer + start, count: filled - start), .endOfFile)
                }
                return
            }
            if start == 0 && filled == capacity {
                // No line end in a full buffer: report the line once and drop bytes until its end.
                if !skippingLongLine {
                    if !body(UnsafeBufferPointer(start: buffer, count: capacity), .tooLong) { return }
                }
                skippingLongLine = true
                filled = 0
            } else if start > 0 {
                let remaining = filled - start
                if remaining > 0 { memmove(buffer, buffer + start, remaining) }
                filled = remaining
                start = 0
            }
        }
    }
}
