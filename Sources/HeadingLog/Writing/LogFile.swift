import Glibc
import Platform

/// One open log file: appended to only, in whole rows, synced on request.
///
/// Opening it makes it one valid CSV before anything is appended: an empty (or new) file gets the
/// header; an existing file must start with exactly that header; a last line left incomplete by a
/// kill or a power cut is cut off (`droppedBytes`). A failed write cuts the file back to its last
/// whole row before the error is thrown. An exclusive `flock` keeps a second logger out.
final class LogFile {
    let path: String
    private var fd: Int32
    /// Bytes in the file, all of them whole lines.
    private(set) var size: Int
    /// Bytes of an incomplete last line removed when the file was opened.
    private(set) var droppedBytes = 0
    /// True for a regular file (devices and pipes are written to without checks or repair).
    let isRegular: Bool
    /// How many of `LogSchema.columns` the rows of this file have: all, unless it is an existing
    /// file written before the later columns were appended (it keeps its own layout).
    private(set) var columnCount = LogSchema.fieldCount
    /// For a pipe, a FIFO, a terminal or a device: the rows go out without ever holding the caller,
    /// through a bounded queue of whole rows; a reader that does not keep up loses whole rows
    /// (`droppedRows`), never a part of one. Nil for a regular file, which is written directly.
    private var stream: BoundedOutput?
    /// Rows lost because the reader of a pipe or FIFO did not keep up.
    private(set) var droppedRows = 0

    /// `streamLimit`: for a pipe or FIFO, the bytes of whole rows queued for a reader that is behind.
    init(path: String, header: [UInt8], overwrite: Bool, streamLimit: Int) throws(LogError) {
        self.path = path
        let existed = Files.exists(path)
        // A pipe, a FIFO or a device ("-" is standard output) is opened for writing only: opened
        // read-write, the process would be a reader of its own FIFO and never see its reader go.
        var before = stat()
        let special = path == "-" || (stat(path, &before) == 0 && (before.st_mode & S_IFMT) != S_IFREG)
        var replaced = false
        if path == "-" {
            fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0)
            guard fd >= 0 else { throw .file(.open(path: "standard output", .current)) }
        } else {
            do {
                if special {
                    fd = try Files.openForAppend(path, mode: .existing)
                } else if overwrite && Files.isLink(path) {
                    // --overwrite replaces the path itself: a link there is replaced by a new file,
                    // and the file it pointed to is never written.
                    fd = try Files.replaceWithNewFile(path)
                    replaced = true
                } else {
                    // In a shared folder (sticky, writable by all) a link at the name is refused.
                    fd = try Files.openForAppend(path, readable: true)
                }
            } catch {
                throw .file(error)
            }
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = Errno.current
            Glibc.close(fd)
            throw .file(.open(path: path, e))
        }
        isRegular = (st.st_mode & S_IFMT) == S_IFREG
        size = isRegular ? Int(st.st_size) : 0
        if !isRegular {
            stream = BoundedOutput(DescriptorChannel(fd: fd, name: path == "-" ? "standard output" : path),
                                   limit: streamLimit)
        }
        do throws(LogError) {
            if isRegular {
                if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                    if errno == EWOULDBLOCK { throw LogError.busy(path: path) }
                    throw LogError.file(.open(path: path, .current))
                }
                if overwrite && size > 0 { try truncate(to: 0) }
                if size > 0 { try checkHeader(header) }
                if size > 0 { try dropIncompleteLastLine() }
            }
            if size == 0 {
                try write(header)
                try sync()
            }
            if !existed && !special && !replaced { try? Files.syncFolder(of: path) }
        } catch {
            Glibc.close(fd)
            fd = -1
            throw error
        }
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// Appends bytes that are whole rows. On failure the file is cut back to its last whole row.
    /// To a pipe or FIFO the rows are queued whole, or lost whole when the reader has not taken
    /// the queue (`droppedRows`); this never waits.
    func write(_ bytes: [UInt8]) throws(LogError) {
        guard !bytes.isEmpty else { return }
        if let stream {
            let lost = stream.dropped
            stream.write(bytes: bytes)
            try checkStream()
            if stream.dropped > lost {
                droppedRows += Self.rows(in: bytes)
            } else {
                size += bytes.count
            }
            return
        }
        var offset = 0
        let failure: Errno? = bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return nil }
            while offset < raw.count {
                let n = Glibc.write(fd, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return .current
                }
                if n == 0 { return .ioError }
                offset += n
            }
            return nil
        }
        if let failure {
            let kept = cutBack(bytes, written: offset)
            throw .writeFailed(path: path, failure, keptRows: kept)
        }
        size += bytes.count
    }

    /// Rows in whole-row bytes: their line ends.
    private static func rows(in bytes: some Sequence<UInt8>) -> Int { bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } }

    /// Sends what a pipe or FIFO takes now of the queued rows (each turn of the loop).
    func pump() throws(LogError) {
        guard let stream else { return }
        stream.flush()
        try checkStream()
    }

    /// A stream's reader gone (EPIPE) or its write failed: the log cannot go on.
    private func checkStream() throws(LogError) {
        if let e = stream?.failure { throw .writeFailed(path: path, Errno(e), keptRows: true) }
    }

    /// Forces written rows to the disk (fdatasync).
    func sync() throws(LogError) {
        guard fd >= 0, isRegular else { return }
        if fdatasync(fd) != 0 && errno != EINVAL { throw .file(.sync(path: path, .current)) }
    }

    /// Syncs and closes; later calls do nothing.
    func close() throws(LogError) {
        guard fd >= 0 else { return }
        defer { stream = nil; Glibc.close(fd); fd = -1 }
        // A stream's queued rows get half a second to go while its reader takes nothing.
        if let stream {
            stream.finish(waiting: 0.5)
            try checkStream()
            // Rows still queued (a row part-sent among them) never reached the reader whole.
            droppedRows += Self.rows(in: stream.queued)
        }
        try sync()
    }

    // MARK: Opening checks

    private func checkHeader(_ header: [UInt8]) throws(LogError) {
        let head = try readAt(0, count: min(size, 1 << 16))
        guard let newline = head.firstIndex(of: 10) else {
            // No line end at all: a header cut short by a kill, or zeros from a power cut.
            if size == head.count && (header.starts(with: head) || head.allSatisfy({ $0 == 0 })) {
                try truncate(to: 0)
                return
            }
            throw otherSchema(head)
        }
        var line = Array(head[..<newline])
        if line.last == 13 { line.removeLast() }
        if line == Array(header.dropLast()) { return }
        // An earlier layout of the same version: keep appending in it.
        guard header == LogSchema.headerLine, case .extended(let known, let fields) = LogSchema.match(header: line),
              known == fields else { throw otherSchema(line) }
        columnCount = known
    }

    private func otherSchema(_ found: [UInt8]) -> LogError {
        .otherSchema(path: path, found: LogSchema.describe(firstLine: found), suggestion: LogRotation.freeName(near: path))
    }

    private func dropIncompleteLastLine() throws(LogError) {
        var end = size
        guard try readAt(end - 1, count: 1).first != 10 else { return }
        while end > 0 {
            let start = max(0, end - (1 << 16))
            let chunk = try readAt(start, count: end - start)
            if let newline = chunk.lastIndex(of: 10) {
                let keep = start + newline + 1
                droppedBytes = size - keep
                try truncate(to: keep)
                try sync()
                return
            }
            end = start
        }
        droppedBytes = size
        try truncate(to: 0)
    }

    // MARK: Helpers

    private func readAt(_ offset: Int, count: Int) throws(LogError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, count - got, off_t(offset + got)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .file(.read(path: path, .current))
            }
            if n == 0 { break }
            got += n
        }
        return Array(out[..<got])
    }

    private func truncate(to length: Int) throws(LogError) {
        guard ftruncate(fd, off_t(length)) == 0 else { throw .file(.write(path: path, .current)) }
        size = length
    }

    /// After a failed write of `bytes` of which `written` reached the file: removes the part of a row
    /// that got in. Returns true when the file ends in a whole row afterwards.
    private func cutBack(_ bytes: [UInt8], written: Int) -> Bool {
        guard written > 0 else { return true }
        let whole = bytes[..<written].lastIndex(of: 10).map { $0 + 1 } ?? 0
        guard isRegular else { return whole == written }
        if whole < written {
            guard ftruncate(fd, off_t(size + whole)) == 0 else { return false }
        }
        size += whole
        _ = fdatasync(fd)
        return true
    }
}
