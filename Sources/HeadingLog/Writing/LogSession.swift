import Platform

/// Writes rows to a CSV log so that a kill or a power cut costs at most about the last second and
/// never leaves a broken row: rows are buffered whole, written with one `write` per flush, flushed
/// at least every `flushInterval` and synced to disk every `fsyncInterval`. To a pipe or FIFO the
/// rows never wait for the reader: they queue whole up to `streamLimit`, and a reader that falls
/// further behind loses whole rows (`droppedRows`).
///
/// ```swift
/// let log = try LogSession(.init(path: "heading.csv"))
/// for note in log.notes { StandardOutput.error(note) }
/// while running {
///     if let row = nextRow() { try log.append(row) } else { try log.tick() }
/// }
/// try log.close()
/// ```
public final class LogSession {
    public struct Options: Sendable, Equatable {
        /// The file (the first file, with rotation).
        public var path: String
        /// Replace existing contents instead of appending (each file this session opens starts empty).
        public var overwrite: Bool
        /// Seconds between fsyncs: what a power cut can cost at most.
        public var fsyncInterval: Double
        /// Seconds between writes to the file: what a kill can cost at most (at most 1 s is used).
        public var flushInterval: Double
        public var rotation: LogRotation
        /// Buffered bytes that force a write before the interval ends.
        public var bufferLimit: Int
        /// With rotation, the most files of the log kept: when a new one starts, the oldest beyond
        /// this many are removed, so a log that runs for months holds a bounded share of the disk.
        /// nil: every file is kept.
        public var keep: Int?
        /// To a pipe or FIFO: the bytes of whole rows queued for a reader that is behind, beyond
        /// which new rows are lost (counted) rather than waited for. 1 MiB: about 40 s at 100 Hz.
        public var streamLimit: Int

        /// Seconds between syncs to disk when the command does not say (`--fsync-interval`).
        public static let defaultFsyncInterval = 1.0

        public init(path: String, overwrite: Bool = false, fsyncInterval: Double = defaultFsyncInterval, flushInterval: Double = 0.5,
                    rotation: LogRotation = .none, keep: Int? = nil, bufferLimit: Int = 1 << 16, streamLimit: Int = 1 << 20) {
            self.keep = keep
            self.path = path
            self.overwrite = overwrite
            self.fsyncInterval = fsyncInterval
            self.flushInterval = flushInterval
            self.rotation = rotation
            self.bufferLimit = bufferLimit
            self.streamLimit = streamLimit
        }
    }

    public let options: Options
    /// The file rows go to now.
    public var currentPath: String { file?.path ?? options.path }
    /// Rows handed to `write` so far (across rotated files).
    public private(set) var rowsWritten = 0
    /// Things worth telling the user, e.g. an incomplete row dropped from the end of the file.
    public private(set) var notes: [String] = []
    /// Things to tell the user that happened after opening (an old file removed by `keep`), until
    /// taken (`takeNews`).
    private var news: [String] = []
    /// Rows lost because the reader of a pipe or FIFO did not keep up (a regular file loses none).
    public private(set) var droppedRows = 0

    private var file: LogFile?
    private var buffer: [UInt8] = []
    private var bufferedRows = 0
    private var scratch: [UInt8] = []
    private var lastFlush: Double
    private var lastSync: Double
    private var monotonicOrigin: Double?
    private var fileIndex = 0
    private var fileDay: Int64 = 0
    private var opened: Set<String> = []
    private var closed = false
    private let now: () -> Double

    /// Opens (or creates) the log file and makes it ready for appending. `wall` picks the first
    /// daily file; `monotonicClock` drives the flush and sync cadence (injectable for tests).
    public init(_ options: Options, wall: Double = Clock.wall(),
                monotonicClock: @escaping () -> Double = { Clock.monotonic() }) throws(LogError) {
        self.options = options
        now = monotonicClock
        lastFlush = monotonicClock()
        lastSync = lastFlush
        buffer.reserveCapacity(options.bufferLimit + 512)
        scratch.reserveCapacity(512)
        switch options.rotation {
        case .none:
            try openFile(options.path)
        case .daily:
            fileDay = TimeText.floorDivide(TimeText.milliseconds(wall) ?? 0, 86_400_000).0
            try openFile(LogRotation.datedPath(options.path, day: fileDay))
        case .size(let limit):
            // Appending resumes the newest numbered file (the highest number, whatever `keep` removed
            // below it); --overwrite starts again from the first.
            if !options.overwrite, let newest = LogRotation.existingFiles(options.path, rotation: options.rotation).last {
                fileIndex = newest.key
            }
            try openFile(LogRotation.numberedPath(options.path, fileIndex))
            if let f = file, f.size >= limit, f.size > LogSchema.headerLine.count { try rotate() }
        }
        // What opening the files removed (`keep`) is said with the rest of the start's notes.
        notes += news
        news.removeAll()
    }

    /// What happened since the last call that the user should hear (an old file removed by `keep`).
    public func takeNews() -> [String] {
        defer { news.removeAll() }
        return news
    }

    /// Removes the oldest files of a rotated log beyond `keep` (never the one in use). A file that
    /// cannot be removed is said and left; the log goes on.
    private func pruneOldFiles() {
        guard let keep = options.keep, options.rotation != .none else { return }
        let files = LogRotation.existingFiles(options.path, rotation: options.rotation).map(\.path).filter { $0 != currentPath }
        // The file in use counts as one of those kept.
        for old in files.dropLast(max(0, keep - 1)) {
            do {
                try Files.removeFile(old)
                news.append("removed the old log file \(sanitize(old)) (--keep \(keep))")
            } catch {
                news.append("could not remove the old log file \(sanitize(old)) (--keep \(keep)): \(error.message)")
            }
        }
    }

    deinit {
        try? flush()
        try? file?.close()
    }

    /// Buffers one row (its `monotonic` made relative to the first row of this session) and writes
    /// or syncs when their time has come.
    public func append(_ row: LogRow) throws(LogError) {
        guard !closed else { return }
        var row = row
        if monotonicOrigin == nil { monotonicOrigin = row.monotonic }
        row.monotonic -= monotonicOrigin ?? 0
        scratch.removeAll(keepingCapacity: true)
        let columns = file?.columnCount ?? LogSchema.fieldCount
        LogRowFormat.append(row, to: &scratch, columns: columns)
        try rotateIfNeeded(rowTime: row.time, rowBytes: scratch.count)
        if let f = file, f.columnCount != columns {
            // Rotated from a file of an earlier layout into a new one: the row in the new layout.
            scratch.removeAll(keepingCapacity: true)
            LogRowFormat.append(row, to: &scratch, columns: f.columnCount)
        }
        buffer.append(contentsOf: scratch)
        bufferedRows += 1
        if buffer.count >= options.bufferLimit { try flush() }
        try tick()
    }

    /// Writes and syncs when their intervals have passed. Call it regularly when no rows come.
    public func tick() throws(LogError) {
        let t = now()
        try file?.pump()
        if t - lastFlush >= min(1, options.flushInterval) { try flush() }
        if t - lastSync >= options.fsyncInterval {
            try flush()
            try file?.sync()
            lastSync = t
        }
    }

    /// Writes the buffered rows now (one `write`).
    public func flush() throws(LogError) {
        lastFlush = now()
        guard !buffer.isEmpty, let file else { return }
        defer {
            buffer.removeAll(keepingCapacity: true)
            bufferedRows = 0
        }
        let lost = file.droppedRows
        try file.write(buffer)
        if file.droppedRows > lost { droppedRows += file.droppedRows - lost } else { rowsWritten += bufferedRows }
    }

    /// Writes, syncs and closes the file. Appending afterwards is an error-free no-op.
    public func close() throws(LogError) {
        guard !closed else { return }
        closed = true
        try flush()
        if let file { try closeFile(file) }
        file = nil
    }

    /// Closes a file; rows still queued for a pipe's reader then count as lost, not written.
    private func closeFile(_ f: LogFile) throws(LogError) {
        let lost = f.droppedRows
        try f.close()
        let unsent = f.droppedRows - lost
        droppedRows += unsent
        rowsWritten -= unsent
    }

    // MARK: Files and rotation

    private func openFile(_ path: String) throws(LogError) {
        let overwrite = options.overwrite && !opened.contains(path)
        let f = try LogFile(path: path, header: LogSchema.headerLine, overwrite: overwrite, streamLimit: options.streamLimit)
        opened.insert(path)
        if f.droppedBytes > 0 {
            notes.append("\(path): removed an incomplete last row (\(f.droppedBytes) bytes) left by an earlier run")
        }
        file = f
        // Each new file of a rotated log is where the oldest beyond `keep` go.
        pruneOldFiles()
    }

    private func rotateIfNeeded(rowTime: Double, rowBytes: Int) throws(LogError) {
        guard let f = file else { return }
        switch options.rotation {
        case .none:
            return
        case .daily:
            guard let ms = TimeText.milliseconds(rowTime) else { return }
            let day = TimeText.floorDivide(ms, 86_400_000).0
            guard day != fileDay else { return }
            try flush()
            try closeFile(f)
            fileDay = day
            try openFile(LogRotation.datedPath(options.path, day: day))
        case .size(let limit):
            let pending = f.size + buffer.count
            guard pending + rowBytes > limit, pending > LogSchema.headerLine.count else { return }
            try rotate()
        }
    }

    private func rotate() throws(LogError) {
        try flush()
        if let file { try closeFile(file) }
        fileIndex += 1
        try openFile(LogRotation.numberedPath(options.path, fileIndex))
    }
}
