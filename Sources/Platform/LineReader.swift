import Glibc

/// Reads text lines from a file descriptor in large chunks (stdin for batch commands, log files).
/// Lines end at "\n"; a trailing "\r" is removed; the last line may lack its newline. A line longer
/// than `maximumLineLength` bytes ends the reading with `FileError.lineTooLong` (exit 65), so memory
/// stays bounded whatever arrives (a line of ten million commas, `/dev/zero`).
///
/// ```swift
/// var reader = LineReader(fd: STDIN_FILENO)
/// while let line = try reader.next() { … }
/// ```
public struct LineReader {
    private let fd: Int32
    private let name: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var finished = false
    /// 1-based number of the line last returned.
    public private(set) var lineNumber = 0
    /// The longest line accepted, bytes.
    public let maximumLineLength: Int
    /// Where the search for the next line end resumes (bytes already known to hold none).
    private var scanned = 0

    public init(fd: Int32, name: String = "standard input", maximumLineLength: Int = 1 << 16) {
        self.fd = fd
        self.name = name
        self.maximumLineLength = max(1, maximumLineLength)
    }

    /// The next line, or nil at the end of input. Bytes that are not UTF-8 are replaced (U+FFFD); a
    /// byte-order mark before the first line is dropped.
    public mutating func next() throws(FileError) -> String? {
        guard let line = try nextRaw() else { return nil }
        return lineNumber == 1 ? ByteOrderMark.dropped(from: line) : line
    }

    private mutating func nextRaw() throws(FileError) -> String? {
        while true {
            if let newline = buffer[max(start, scanned)...].firstIndex(of: 10) {
                var end = newline
                if end > start && buffer[end - 1] == 13 { end -= 1 }
                guard end - start <= maximumLineLength else {
                    throw .lineTooLong(path: name, line: lineNumber + 1, limit: maximumLineLength)
                }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                scanned = start
                lineNumber += 1
                return line
            }
            scanned = buffer.count
            guard buffer.count - start <= maximumLineLength + 1 else {
                throw .lineTooLong(path: name, line: lineNumber + 1, limit: maximumLineLength)
            }
            if finished {
                guard start < buffer.count else { return nil }
                var end = buffer.count
                if buffer[end - 1] == 13 { end -= 1 }
                guard end - start <= maximumLineLength else {
                    throw .lineTooLong(path: name, line: lineNumber + 1, limit: maximumLineLength)
                }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = buffer.count
                lineNumber += 1
                return line
            }
            if start > 0 {
                buffer.removeFirst(start)
                scanned -= start
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .read(path: name, .current)
            }
            if n == 0 { finished = true } else { buffer.append(contentsOf: chunk[0..<n]) }
        }
    }
}
